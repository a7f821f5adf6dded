// Package iceberg writes Sluice's Arrow batches as Iceberg data files: Parquet files with
// Iceberg's schema (field ids, the physical types of Iceberg's TypeToMessageType, the
// "iceberg.schema" key) holding the values Flink's Iceberg writer (FlinkParquetWriters)
// stores, and the metrics Iceberg's own value writers collect beside the footer (value, null
// and NaN counts and bounds of float and double columns). The data file's other metrics come
// from the footer, read by Iceberg itself on the Java side.
package iceberg

import (
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	"github.com/sluice-project/sluice/exec/column"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
)

// Field is one column of an Iceberg data file.
type Field struct {
	// ID, Name and Required are the Iceberg field's.
	ID       int
	Name     string
	Required bool
	// Iceberg is the field's Iceberg type as Iceberg prints it ("int", "decimal(10, 2)",
	// "fixed[16]", "timestamptz", ...).
	Iceberg string
	// Type is the Flink type of the rows written into it (the sink's input column).
	Type catalog.Type
	// Nested is the Iceberg type of a struct, list or map column, with the ids, names and
	// requiredness of its parts (Iceberg then is its printed form, not read).
	Nested ice.Type
}

// Writable reports why the field's column is not written natively (nil: it is).
func (f Field) Writable() error {
	if !f.Type.IsNested() {
		return Check(f.Type, f.Iceberg)
	}
	return ice.Walk(f.Type, f.Nested, Check)
}

// Options are the table's Parquet write properties (write.parquet.*).
type Options struct {
	Compression      compress.Compression
	CompressionLevel int // compress.DefaultCompressionLevel when not set
	RowGroupBytes    int64
	PageBytes        int64
	DictBytes        int64
}

// DefaultOptions are Iceberg's defaults (TableProperties).
func DefaultOptions() Options {
	return Options{Compression: compress.Codecs.Zstd, CompressionLevel: compress.DefaultCompressionLevel,
		RowGroupBytes: 128 << 20, PageBytes: 1 << 20, DictBytes: 2 << 20}
}

// FloatMetrics are the metrics Iceberg's float and double writers collect (FloatFieldMetrics,
// DoubleFieldMetrics): non-null values, nulls, NaNs, and the bounds of the other values in
// Float#compare / Double#compare order (-0.0 below 0.0). Float bounds are held as float64.
type FloatMetrics struct {
	ID                  int
	Values, Nulls, NaNs int64
	HasBounds           bool
	Lower, Upper        float64
}

// fileType is an Iceberg primitive type, parsed.
type fileType struct {
	name             string
	precision, scale int
	length           int
}

var (
	decimalType = regexp.MustCompile(`^decimal\((\d+),\s*(\d+)\)$`)
	fixedType   = regexp.MustCompile(`^fixed\[(\d+)\]$`)
)

func parseIcebergType(s string) (fileType, error) {
	if m := decimalType.FindStringSubmatch(s); m != nil {
		p, _ := strconv.Atoi(m[1])
		sc, _ := strconv.Atoi(m[2])
		return fileType{name: "decimal", precision: p, scale: sc}, nil
	}
	if m := fixedType.FindStringSubmatch(s); m != nil {
		l, _ := strconv.Atoi(m[1])
		return fileType{name: "fixed", length: l}, nil
	}
	switch s {
	case "boolean", "int", "long", "float", "double", "date", "time", "timestamp", "timestamptz", "string", "binary":
		return fileType{name: s}, nil
	case "uuid":
		return fileType{name: s, length: 16}, nil
	}
	return fileType{}, fmt.Errorf("Iceberg type %s is not written natively", s)
}

// Check reports why rows of Flink type t cannot be written into a column of Iceberg type
// iceberg as Flink's Iceberg writer writes them (nil: they can).
func Check(t catalog.Type, iceberg string) error {
	ft, err := parseIcebergType(iceberg)
	if err != nil {
		return err
	}
	ok := false
	switch ft.name {
	case "boolean":
		ok = t.Kind == catalog.Boolean
	case "int":
		ok = t.Kind == catalog.TinyInt || t.Kind == catalog.SmallInt || t.Kind == catalog.Int
	case "long":
		ok = t.Kind == catalog.BigInt
	case "float":
		ok = t.Kind == catalog.Float
	case "double":
		ok = t.Kind == catalog.Double
	case "date":
		ok = t.Kind == catalog.Date
	case "time":
		ok = t.Kind == catalog.Time
	case "timestamp":
		ok = t.Kind == catalog.Timestamp && t.Precision <= 6
	case "timestamptz":
		ok = t.Kind == catalog.TimestampLTZ && t.Precision <= 6
	case "string":
		ok = t.Kind == catalog.Char || t.Kind == catalog.VarChar
	case "binary":
		ok = t.Kind == catalog.VarBinary || t.Kind == catalog.Binary
	case "fixed", "uuid":
		// Flink's Iceberg connector reads a uuid as BINARY(16) and writes those bytes.
		ok = t.Kind == catalog.Binary && t.Length == ft.length
	case "decimal":
		ok = t.Kind == catalog.Decimal && t.Scale == ft.scale && t.Precision <= ft.precision
	}
	if !ok {
		return fmt.Errorf("%s values are not written into an Iceberg %s column natively", t, iceberg)
	}
	return nil
}

// decimalBytes is Iceberg's TypeUtil#decimalRequiredBytes: the fewest bytes whose two's
// complement holds every unscaled value of the precision.
func decimalBytes(precision int) int {
	for n := 1; ; n++ {
		if math.Pow(2, float64(8*n-1)) >= math.Pow(10, float64(precision)) {
			return n
		}
	}
}

// repetition is the Parquet repetition of an Iceberg field.
func repetition(required bool) pq.Repetition {
	if required {
		return pq.Repetitions.Required
	}
	return pq.Repetitions.Optional
}

// nestedNode is the Parquet group Iceberg's TypeToMessageType makes for a struct, list or map
// field: a struct's fields; a LIST group of a repeated "list" group of the "element"; a MAP group
// of a repeated "key_value" group of the "key" and the "value"; field ids on the field, the
// element, the key and the value.
func nestedNode(f ice.Field) (schema.Node, error) {
	if f.Type.IsPrimitive() {
		ft, err := parseIcebergType(f.Type.Primitive)
		if err != nil {
			return nil, err
		}
		return node(f.Name, f.Required, f.ID, ft)
	}
	parts := f.Type.Parts()
	children := make(schema.FieldList, len(parts))
	for i, p := range parts {
		var err error
		if children[i], err = nestedNode(p); err != nil {
			return nil, err
		}
	}
	rep, id := repetition(f.Required), int32(f.ID)
	switch {
	case f.Type.IsList():
		list, err := schema.NewGroupNode("list", pq.Repetitions.Repeated, children, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(compatibleName(f.Name), rep, schema.FieldList{list}, schema.ListLogicalType{}, id)
	case f.Type.IsMap():
		kv, err := schema.NewGroupNode("key_value", pq.Repetitions.Repeated, children, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(compatibleName(f.Name), rep, schema.FieldList{kv}, schema.MapLogicalType{}, id)
	}
	return schema.NewGroupNode(compatibleName(f.Name), rep, children, id)
}

// icebergLeaf is a primitive field inside a nested column, in the order of the file's leaves.
type icebergLeaf struct {
	ID        int
	Primitive string
}

// leavesOf lists the primitive fields inside an Iceberg type, depth first (a map's key before
// its value): the order of the Parquet file's leaf columns and of parquet.Leaves.
func leavesOf(t ice.Type, out []icebergLeaf) []icebergLeaf {
	for _, p := range t.Parts() {
		if p.Type.IsPrimitive() {
			out = append(out, icebergLeaf{ID: p.ID, Primitive: p.Type.Primitive})
			continue
		}
		out = leavesOf(p.Type, out)
	}
	return out
}

// fileShape is the Flink type t with the nullability of the Iceberg type it at every level
// (NOT NULL where Iceberg's field is required), which the file's levels follow.
func fileShape(t catalog.Type, it ice.Type, required bool) catalog.Type {
	t.Nullable = !required
	parts := it.Parts()
	switch t.Kind {
	case catalog.Array:
		e := fileShape(*t.Elem, parts[0].Type, parts[0].Required)
		t.Elem = &e
	case catalog.Map:
		k := fileShape(*t.Elem, parts[0].Type, true)
		v := fileShape(*t.Value, parts[1].Type, parts[1].Required)
		t.Elem, t.Value = &k, &v
	case catalog.Row:
		fields := make([]catalog.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = catalog.Field{Name: f.Name, Type: fileShape(f.Type, parts[i].Type, parts[i].Required)}
		}
		t.Fields = fields
	}
	return t
}

// node is the Parquet field Iceberg's TypeToMessageType makes for a primitive Iceberg field.
func node(name string, required bool, fieldID int, ft fileType) (schema.Node, error) {
	rep := repetition(required)
	id := int32(fieldID)
	var logical schema.LogicalType = schema.NoLogicalType{}
	phys, length := pq.Types.Int32, -1
	switch ft.name {
	case "boolean":
		phys = pq.Types.Boolean
	case "int":
	case "long":
		phys = pq.Types.Int64
	case "float":
		phys = pq.Types.Float
	case "double":
		phys = pq.Types.Double
	case "date":
		logical = schema.DateLogicalType{}
	case "time":
		phys, logical = pq.Types.Int64, schema.NewTimeLogicalType(false, schema.TimeUnitMicros)
	case "timestamp", "timestamptz":
		phys, logical = pq.Types.Int64, schema.NewTimestampLogicalTypeForce(ft.name == "timestamptz", schema.TimeUnitMicros)
	case "string":
		phys, logical = pq.Types.ByteArray, schema.StringLogicalType{}
	case "binary":
		phys = pq.Types.ByteArray
	case "fixed":
		phys, length = pq.Types.FixedLenByteArray, ft.length
	case "uuid":
		phys, length, logical = pq.Types.FixedLenByteArray, 16, schema.UUIDLogicalType{}
	case "decimal":
		logical = schema.NewDecimalLogicalType(int32(ft.precision), int32(ft.scale))
		switch {
		case ft.precision <= 9:
		case ft.precision <= 18:
			phys = pq.Types.Int64
		default:
			phys, length = pq.Types.FixedLenByteArray, decimalBytes(ft.precision)
		}
	}
	return schema.NewPrimitiveNodeLogical(compatibleName(name), rep, logical, phys, length, id)
}

// Writer writes batches into one Iceberg data file.
type Writer struct {
	*sinkparquet.ColumnFile
	fields []Field
	floats []*FloatMetrics // by column; nil for columns other than float and double
	// nestedFloats are the metrics of float and double fields inside struct columns, which
	// are collected as their row groups are written.
	nestedFloats []*FloatMetrics
	mem          memory.Allocator
	ctx          context.Context
}

// NewWriter starts a data file on out for rows of the given fields; schemaJSON is the table
// schema as Iceberg's SchemaParser prints it (the file's "iceberg.schema").
func NewWriter(fields []Field, schemaJSON string, opts Options, out io.Writer, mem memory.Allocator) (*Writer, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	w := &Writer{fields: fields, floats: make([]*FloatMetrics, len(fields)), mem: mem,
		ctx: pqarrow.NewArrowWriteContext(context.Background(), nil)}
	nodes := make(schema.FieldList, len(fields))
	var cols []sinkparquet.FileColumn
	for i, f := range fields {
		if err := f.Writable(); err != nil {
			return nil, fmt.Errorf("iceberg writer: column %s: %w", f.Name, err)
		}
		if f.Type.IsNested() {
			n, err := nestedNode(ice.Field{ID: f.ID, Name: f.Name, Required: f.Required, Type: f.Nested})
			if err != nil {
				return nil, fmt.Errorf("iceberg writer: column %s: %w", f.Name, err)
			}
			nodes[i] = n
			ileaves := leavesOf(f.Nested, nil)
			leaves := sinkparquet.Leaves(fileShape(f.Type, f.Nested, f.Required))
			if len(leaves) != len(ileaves) {
				return nil, fmt.Errorf("iceberg writer: column %s: %d leaves of the Flink type for %d of the Iceberg type", f.Name, len(leaves), len(ileaves))
			}
			for k, leaf := range leaves {
				ft, _ := parseIcebergType(ileaves[k].Primitive)
				col := sinkparquet.FileColumn{Name: f.Name, Nullable: leaf.Nullable(), Source: i, Leaf: leaf}
				col.Write = w.leafFunc(f.Name, leaf, ft, ileaves[k].ID)
				cols = append(cols, col)
			}
			continue
		}
		ft, _ := parseIcebergType(f.Iceberg)
		n, err := node(f.Name, f.Required, f.ID, ft)
		if err != nil {
			return nil, fmt.Errorf("iceberg writer: column %s: %w", f.Name, err)
		}
		nodes[i] = n
		if ft.name == "float" || ft.name == "double" {
			w.floats[i] = &FloatMetrics{ID: f.ID}
		}
		cols = append(cols, sinkparquet.FileColumn{Name: f.Name, Nullable: !f.Required, Source: i, Write: w.columnFunc(f, ft)})
	}
	root, err := schema.NewGroupNode("table", pq.Repetitions.Required, nodes, -1)
	if err != nil {
		return nil, fmt.Errorf("iceberg writer: %w", err)
	}
	props := pq.NewWriterProperties(
		pq.WithVersion(pq.V1_0), pq.WithDataPageVersion(pq.DataPageV1),
		pq.WithCompression(opts.Compression), pq.WithCompressionLevel(opts.CompressionLevel),
		pq.WithDataPageSize(opts.PageBytes), pq.WithDictionaryPageSizeLimit(opts.DictBytes),
		pq.WithAllocator(mem), pq.WithCreatedBy("sluice"))
	meta := metadata.NewKeyValueMetadata()
	if schemaJSON != "" {
		if err := meta.Append("iceberg.schema", schemaJSON); err != nil {
			return nil, fmt.Errorf("iceberg writer: %w", err)
		}
	}
	if w.ColumnFile, err = sinkparquet.NewColumnFile(out, root, props, meta, cols, opts.RowGroupBytes, mem); err != nil {
		return nil, fmt.Errorf("iceberg writer: %w", err)
	}
	return w, nil
}

// Write appends a batch of rows (columns in Sluice's Arrow types for the fields' Flink types).
func (w *Writer) Write(b arrow.RecordBatch) error {
	if int(b.NumCols()) != len(w.fields) {
		return fmt.Errorf("iceberg writer: a batch of %d columns for a file of %d", b.NumCols(), len(w.fields))
	}
	for i, m := range w.floats {
		if m == nil {
			continue
		}
		switch c := b.Column(i).(type) {
		case *array.Float32:
			addFloats(m, c.Float32Values(), c)
		case *array.Float64:
			addFloats(m, c.Float64Values(), c)
		}
	}
	return w.ColumnFile.Write(b)
}

// FloatMetrics returns the metrics of the float and double columns written so far, and of
// the float and double fields inside struct columns (Iceberg keeps no metrics of fields inside
// lists and maps).
func (w *Writer) FloatMetrics() []FloatMetrics {
	var out []FloatMetrics
	for _, m := range w.floats {
		if m != nil {
			out = append(out, *m)
		}
	}
	for _, m := range w.nestedFloats {
		out = append(out, *m)
	}
	return out
}

// addFloats adds a column's values to its metrics as FloatFieldMetrics.Builder#addValue does
// for each non-null value.
func addFloats[T float32 | float64](m *FloatMetrics, vals []T, in arrow.Array) {
	bits, off := column.ValidBits(in)
	for i, v := range vals {
		if bits != nil && !column.Valid(bits, off, i) {
			m.Nulls++
			continue
		}
		addFloat(m, float64(v))
	}
}

// addFloat adds one non-null value as FloatFieldMetrics.Builder#addValue does.
func addFloat(m *FloatMetrics, x float64) {
	m.Values++
	if math.IsNaN(x) {
		m.NaNs++
		return
	}
	if !m.HasBounds {
		m.HasBounds, m.Lower, m.Upper = true, x, x
		return
	}
	if javaLess(x, m.Lower) {
		m.Lower = x
	}
	if javaLess(m.Upper, x) {
		m.Upper = x
	}
}

// javaLess is Double#compare(a, b) < 0 for values that are not NaN: -0.0 is below 0.0.
func javaLess(a, b float64) bool {
	return a < b || (a == 0 && b == 0 && math.Signbit(a) && !math.Signbit(b))
}

// columnFunc is how a primitive field's column is written: converted to the values Flink's
// Iceberg writer stores, then through pqarrow.
func (w *Writer) columnFunc(f Field, ft fileType) sinkparquet.ColumnFunc {
	nullable := !f.Required
	conv := w.converter(f.Name, f.Type, ft)
	return func(cw file.ColumnChunkWriter, in arrow.Array, defs, _ []int16) error {
		col, err := conv(in)
		if err != nil {
			return err
		}
		defer col.Release()
		return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, nil, nullable)
	}
}

// leafFunc is how a primitive field inside a nested column is written: its values (one per
// slot, see parquet.LeafPath) converted as in flat columns, with their levels. A float or
// double field inside structs only (no list or map above it) also adds to its metrics, as
// Iceberg's value writers count it: a value or a NULL of its own where its struct is present.
func (w *Writer) leafFunc(column string, leaf *sinkparquet.LeafPath, ft fileType, id int) sinkparquet.ColumnFunc {
	conv := w.converter(column, leaf.Type(), ft)
	var m *FloatMetrics
	if (ft.name == "float" || ft.name == "double") && !leaf.InCollection() {
		m = &FloatMetrics{ID: id}
		w.nestedFloats = append(w.nestedFloats, m)
	}
	return func(cw file.ColumnChunkWriter, in arrow.Array, defs, reps []int16) error {
		if m != nil {
			addNestedFloats(m, in, defs, leaf)
		}
		col, err := conv(in)
		if err != nil {
			return err
		}
		defer col.Release()
		return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, reps, leaf.Nullable())
	}
}

// addNestedFloats adds the values of a float or double leaf inside structs to its metrics:
// present values as addFloats does, NULLs only where the leaf's own level says so (a NULL
// struct above it writes no value of it). Outside lists every level entry has its slot.
func addNestedFloats(m *FloatMetrics, in arrow.Array, defs []int16, leaf *sinkparquet.LeafPath) {
	switch c := in.(type) {
	case *array.Float32:
		addLeafFloats(m, c.Float32Values(), defs, leaf.MaxDefinition(), leaf.Nullable())
	case *array.Float64:
		addLeafFloats(m, c.Float64Values(), defs, leaf.MaxDefinition(), leaf.Nullable())
	}
}

// addLeafFloats adds the values whose definition level is max (all of them without levels)
// and counts as NULLs those one level below it when the leaf itself is OPTIONAL.
func addLeafFloats[T float32 | float64](m *FloatMetrics, vals []T, defs []int16, max int16, nullable bool) {
	if defs == nil {
		for _, v := range vals {
			addFloat(m, float64(v))
		}
		return
	}
	for i, v := range vals {
		switch {
		case defs[i] == max:
			addFloat(m, float64(v))
		case nullable && defs[i] == max-1:
			m.Nulls++
		}
	}
}

// converter returns how values of Flink type t become the values Flink's Iceberg writer stores
// in a column of Iceberg type ft (TIME and TIMESTAMP in microseconds, BINARY(L) as FIXED).
func (w *Writer) converter(name string, t catalog.Type, ft fileType) func(in arrow.Array) (arrow.Array, error) {
	switch {
	case ft.name == "time":
		return func(in arrow.Array) (arrow.Array, error) {
			return scaleInts(in, column.Values[int32](in), 1000, w.mem), nil
		}
	case (ft.name == "timestamp" || ft.name == "timestamptz") && t.Precision <= 3:
		return func(in arrow.Array) (arrow.Array, error) {
			return scaleInts(in, column.Values[int64](in), 1000, w.mem), nil
		}
	case ft.name == "timestamp" || ft.name == "timestamptz":
		return func(in arrow.Array) (arrow.Array, error) {
			return column.Retype(in, arrow.PrimitiveTypes.Int64), nil
		}
	case ft.name == "fixed" || ft.name == "uuid":
		return func(in arrow.Array) (arrow.Array, error) { return fixedBinary(in, ft.length, name, w.mem) }
	case ft.name == "string":
		return func(in arrow.Array) (arrow.Array, error) {
			return withValueBytes(column.Retype(in, arrow.BinaryTypes.String)), nil
		}
	case ft.name == "binary":
		return func(in arrow.Array) (arrow.Array, error) { in.Retain(); return withValueBytes(in), nil }
	}
	return func(in arrow.Array) (arrow.Array, error) { in.Retain(); return in, nil }
}

// withValueBytes returns a (consumed) string or binary column whose value bytes are backed by
// a buffer even when every value is empty: arrow-go takes a nil minimum or maximum for an unset
// one and leaves it out of the column chunk's statistics, so a chunk whose bound is the empty
// value would lose both bounds (parquet-mr reads them in pairs), where Flink's writer keeps them.
func withValueBytes(a arrow.Array) arrow.Array {
	d := a.Data()
	if b := d.Buffers()[2]; b != nil && len(b.Bytes()) > 0 {
		return a
	}
	defer a.Release()
	bufs := []*memory.Buffer{d.Buffers()[0], d.Buffers()[1], memory.NewBufferBytes([]byte{0})}
	nd := array.NewData(d.DataType(), d.Len(), bufs, nil, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// scaleInts returns the values of in times k as an Int64 array with in's validity.
func scaleInts[T int32 | int64](in arrow.Array, src []T, k int64, mem memory.Allocator) arrow.Array {
	buf, dst := column.NewValues[int64](mem, len(src))
	for i, v := range src {
		dst[i] = int64(v) * k
	}
	return column.MakeArray(arrow.PrimitiveTypes.Int64, len(src), column.CopyValidity(in, mem), buf)
}

// fixedBinary copies a BINARY(L) column into a fixed-size binary array of width l; a value of
// another length is an error (Flink keeps BINARY(L) values at L bytes).
func fixedBinary(in arrow.Array, l int, name string, mem memory.Allocator) (arrow.Array, error) {
	src := in.(*array.Binary)
	b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: l})
	defer b.Release()
	b.Reserve(src.Len())
	for i := 0; i < src.Len(); i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := src.Value(i)
		if len(v) != l {
			return nil, fmt.Errorf("column %s: a value of %d bytes for an Iceberg fixed[%d] column", name, len(v), l)
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}
