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
	case "fixed":
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

// node is the Parquet field Iceberg's TypeToMessageType makes for an Iceberg field.
func node(f Field, ft fileType) (schema.Node, error) {
	rep := pq.Repetitions.Optional
	if f.Required {
		rep = pq.Repetitions.Required
	}
	id := int32(f.ID)
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
	return schema.NewPrimitiveNodeLogical(f.Name, rep, logical, phys, length, id)
}

// Writer writes batches into one Iceberg data file.
type Writer struct {
	*sinkparquet.ColumnFile
	fields []Field
	floats []*FloatMetrics // by column; nil for columns other than float and double
	mem    memory.Allocator
	ctx    context.Context
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
	cols := make([]sinkparquet.FileColumn, len(fields))
	for i, f := range fields {
		if err := Check(f.Type, f.Iceberg); err != nil {
			return nil, fmt.Errorf("iceberg writer: column %s: %w", f.Name, err)
		}
		ft, _ := parseIcebergType(f.Iceberg)
		n, err := node(f, ft)
		if err != nil {
			return nil, fmt.Errorf("iceberg writer: column %s: %w", f.Name, err)
		}
		nodes[i] = n
		if ft.name == "float" || ft.name == "double" {
			w.floats[i] = &FloatMetrics{ID: f.ID}
		}
		cols[i] = sinkparquet.FileColumn{Name: f.Name, Nullable: !f.Required, Source: i, Write: w.columnFunc(f, ft)}
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

// FloatMetrics returns the metrics of the float and double columns written so far.
func (w *Writer) FloatMetrics() []FloatMetrics {
	var out []FloatMetrics
	for _, m := range w.floats {
		if m != nil {
			out = append(out, *m)
		}
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
		m.Values++
		x := float64(v)
		if math.IsNaN(x) {
			m.NaNs++
			continue
		}
		if !m.HasBounds {
			m.HasBounds, m.Lower, m.Upper = true, x, x
			continue
		}
		if javaLess(x, m.Lower) {
			m.Lower = x
		}
		if javaLess(m.Upper, x) {
			m.Upper = x
		}
	}
}

// javaLess is Double#compare(a, b) < 0 for values that are not NaN: -0.0 is below 0.0.
func javaLess(a, b float64) bool {
	return a < b || (a == 0 && b == 0 && math.Signbit(a) && !math.Signbit(b))
}

// columnFunc is how a field's column is written: converted to the value Flink's Iceberg writer
// stores (TIME and TIMESTAMP in microseconds, BINARY(L) as FIXED), then through pqarrow.
func (w *Writer) columnFunc(f Field, ft fileType) sinkparquet.ColumnFunc {
	nullable := !f.Required
	var conv func(in arrow.Array) (arrow.Array, error)
	switch {
	case ft.name == "time":
		conv = func(in arrow.Array) (arrow.Array, error) {
			return scaleInts(in, column.Values[int32](in), 1000, w.mem), nil
		}
	case (ft.name == "timestamp" || ft.name == "timestamptz") && f.Type.Precision <= 3:
		conv = func(in arrow.Array) (arrow.Array, error) {
			return scaleInts(in, column.Values[int64](in), 1000, w.mem), nil
		}
	case ft.name == "timestamp" || ft.name == "timestamptz":
		conv = func(in arrow.Array) (arrow.Array, error) {
			return column.Retype(in, arrow.PrimitiveTypes.Int64), nil
		}
	case ft.name == "fixed":
		conv = func(in arrow.Array) (arrow.Array, error) { return fixedBinary(in, ft.length, f.Name, w.mem) }
	case ft.name == "string":
		conv = func(in arrow.Array) (arrow.Array, error) {
			return withValueBytes(column.Retype(in, arrow.BinaryTypes.String)), nil
		}
	case ft.name == "binary":
		conv = func(in arrow.Array) (arrow.Array, error) { in.Retain(); return withValueBytes(in), nil }
	default:
		conv = func(in arrow.Array) (arrow.Array, error) { in.Retain(); return in, nil }
	}
	return func(cw file.ColumnChunkWriter, in arrow.Array, defs, _ []int16) error {
		col, err := conv(in)
		if err != nil {
			return err
		}
		defer col.Release()
		return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, nil, nullable)
	}
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
