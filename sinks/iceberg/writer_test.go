package iceberg

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	icebergsrc "github.com/sluice-project/sluice/sources/iceberg"
)

// column is one column of the round-trip test: the Flink type written, the Iceberg type of
// the field, the Flink type the connector reads it back as, the values written (nil = NULL)
// and the values read back.
type roundTripColumn struct {
	write   catalog.Type
	iceberg string
	read    catalog.Type
	in, out []any
}

func typ(kind catalog.Kind, p, s int) catalog.Type {
	return catalog.Type{Kind: kind, Precision: p, Scale: s, Nullable: true}
}

var roundTrip = []roundTripColumn{
	{typ(catalog.TinyInt, 0, 0), "int", catalog.IntType(true), []any{int8(-128), nil, int8(7)}, []any{int32(-128), nil, int32(7)}},
	{catalog.IntType(true), "int", catalog.IntType(true), []any{int32(math.MinInt32), int32(1), nil}, nil},
	{catalog.BigIntType(true), "long", catalog.BigIntType(true), []any{int64(math.MaxInt64), nil, int64(-1)}, nil},
	{typ(catalog.Float, 0, 0), "float", typ(catalog.Float, 0, 0), []any{float32(math.Copysign(0, -1)), float32(math.NaN()), nil}, nil},
	{catalog.DoubleType(true), "double", catalog.DoubleType(true), []any{math.Inf(-1), nil, 2.5}, nil},
	{catalog.DecimalType(5, 2, true), "decimal(5, 2)", catalog.DecimalType(5, 2, true), []any{int64(-99999), int64(1), nil}, nil},
	{catalog.DecimalType(15, 3, true), "decimal(15, 3)", catalog.DecimalType(15, 3, true), []any{int64(-999999999999999), nil, int64(42)}, nil},
	{catalog.DecimalType(30, 4, true), "decimal(30, 4)", catalog.DecimalType(30, 4, true), []any{int64(-7), int64(math.MaxInt64), nil}, nil},
	{catalog.StringType(true), "string", catalog.StringType(true), []any{"", "héllo 🌍", nil}, nil},
	{typ(catalog.VarBinary, 0, 0), "binary", typ(catalog.VarBinary, 0, 0), []any{[]byte{}, nil, []byte{0, 255}}, nil},
	{catalog.Type{Kind: catalog.Binary, Length: 3, Nullable: true}, "fixed[3]", catalog.Type{Kind: catalog.Binary, Length: 3, Nullable: true}, []any{[]byte{1, 2, 3}, nil, []byte{0, 0, 0}}, nil},
	{typ(catalog.Date, 0, 0), "date", typ(catalog.Date, 0, 0), []any{int32(-719162), int32(0), nil}, nil},
	{typ(catalog.Time, 0, 0), "time", typ(catalog.Time, 0, 0), []any{int32(86_399_999), nil, int32(0)}, nil},
	{catalog.TimestampType(3, true), "timestamp", catalog.TimestampType(6, true), []any{int64(-1), nil, int64(1_700_000_000_123)}, []any{int64(-1000), nil, int64(1_700_000_000_123_000)}},
	{catalog.TimestampType(6, true), "timestamp", catalog.TimestampType(6, true), []any{int64(-62_135_596_800_000_000), int64(5), nil}, nil},
	{typ(catalog.TimestampLTZ, 3, 0), "timestamptz", typ(catalog.TimestampLTZ, 6, 0), []any{nil, int64(86_400_000), int64(-5)}, []any{nil, int64(86_400_000_000), int64(-5000)}},
	{catalog.Type{Kind: catalog.Binary, Length: 16, Nullable: true}, "uuid", catalog.Type{Kind: catalog.Binary, Length: 16, Nullable: true},
		[]any{[]byte("0123456789abcdef"), nil, make([]byte, 16)}, nil},
}

// build makes an Arrow array of Sluice's type for t from Go values.
func build(t *testing.T, ty catalog.Type, vals []any) arrow.Array {
	t.Helper()
	at, err := catalog.ArrowType(ty)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewBuilder(memory.DefaultAllocator, at)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Decimal128Builder:
			bb.Append(decimal128.FromI64(v.(int64)))
		case *array.Time32Builder:
			bb.Append(arrow.Time32(v.(int32)))
		case *array.Date32Builder:
			bb.Append(arrow.Date32(v.(int32)))
		case *array.TimestampBuilder:
			bb.Append(arrow.Timestamp(v.(int64)))
		case *array.BinaryBuilder:
			bb.Append(v.([]byte))
		default:
			if err := b.AppendValueFromString(fmt.Sprint(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.NewArray()
}

// value renders the i-th value of a for comparison.
func value(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch c := a.(type) {
	case *array.Float32:
		return fmt.Sprintf("%x", math.Float32bits(c.Value(i)))
	case *array.Float64:
		return fmt.Sprintf("%x", math.Float64bits(c.Value(i)))
	case *array.Decimal128:
		return c.Value(i).BigInt().String()
	case *array.Binary:
		return fmt.Sprintf("%x", c.Value(i))
	}
	return a.ValueStr(i)
}

func TestRoundTripThroughTheIcebergReader(t *testing.T) {
	fields := make([]Field, len(roundTrip))
	readFields := make([]icebergsrc.Field, len(roundTrip))
	cols := make([]arrow.Array, len(roundTrip))
	arrowFields := make([]arrow.Field, len(roundTrip))
	for i, c := range roundTrip {
		name := fmt.Sprintf("c%d", i)
		fields[i] = Field{ID: i + 1, Name: name, Iceberg: c.iceberg, Type: c.write}
		readFields[i] = icebergsrc.Field{ID: i + 1, Name: name, Type: c.read}
		cols[i] = build(t, c.write, c.in)
		defer cols[i].Release()
		arrowFields[i] = arrow.Field{Name: name, Type: cols[i].DataType(), Nullable: true}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(arrowFields, nil), cols, 3)
	defer batch.Release()

	// Two batches: metrics add up.
	w, data, got := writeThenRead(t, fields, `{"type":"struct"}`, []arrow.RecordBatch{batch, batch}, readFields)
	defer got.Release()
	if got.NumRows() != 6 {
		t.Fatalf("read %d rows, want 6", got.NumRows())
	}
	for i, c := range roundTrip {
		want := c.out
		if want == nil {
			want = c.in
		}
		exp := build(t, c.read, want)
		for row := 0; row < 6; row++ {
			if g, e := value(got.Column(i), row), value(exp, row%3); g != e {
				t.Errorf("column %d (%s -> %s) row %d: read %s, want %s", i, c.write, c.iceberg, row, g, e)
			}
		}
		exp.Release()
	}

	// The file's schema is Iceberg's: field ids, physical types, annotations.
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	sch := pf.MetaData().Schema
	wantPhys := []string{"INT32", "INT32", "INT64", "FLOAT", "DOUBLE", "INT32", "INT64", "FIXED_LEN_BYTE_ARRAY", "BYTE_ARRAY", "BYTE_ARRAY",
		"FIXED_LEN_BYTE_ARRAY", "INT32", "INT64", "INT64", "INT64", "INT64", "FIXED_LEN_BYTE_ARRAY"}
	for i := range roundTrip {
		col := sch.Column(i)
		if col.SchemaNode().FieldID() != int32(i+1) || col.PhysicalType().String() != wantPhys[i] {
			t.Errorf("column %d: field id %d, %s; want %d, %s", i, col.SchemaNode().FieldID(), col.PhysicalType(), i+1, wantPhys[i])
		}
	}
	if l := sch.Column(7).TypeLength(); l != 13 {
		t.Errorf("decimal(30, 4) is FIXED[%d], Iceberg's decimalRequiredBytes(30) is 13", l)
	}
	if v := pf.MetaData().KeyValueMetadata().FindValue("iceberg.schema"); v == nil || *v != `{"type":"struct"}` {
		t.Errorf("iceberg.schema = %v", v)
	}
	if lt := sch.Column(16).LogicalType(); !lt.Equals(schema.UUIDLogicalType{}) || sch.Column(16).TypeLength() != 16 {
		t.Errorf("uuid column: %s of %d bytes", lt, sch.Column(16).TypeLength())
	}
	if lt := sch.Column(15).LogicalType().String(); !strings.Contains(lt, "isAdjustedToUTC=true") {
		t.Errorf("timestamptz annotation %s", lt)
	}
	if lt := sch.Column(12).LogicalType().String(); !strings.Contains(lt, "isAdjustedToUTC=false") || !strings.Contains(lt, "microseconds") {
		t.Errorf("time annotation %s", lt)
	}

	// Float metrics as FloatFieldMetrics collects them: -0.0 is both bounds, the NaN counted.
	m := w.FloatMetrics()
	if len(m) != 2 {
		t.Fatalf("float metrics of %d columns, want 2", len(m))
	}
	if f := m[0]; f.ID != 4 || f.Values != 4 || f.Nulls != 2 || f.NaNs != 2 || !f.HasBounds || !math.Signbit(f.Lower) || !math.Signbit(f.Upper) {
		t.Errorf("float metrics %+v", f)
	}
	if d := m[1]; d.Values != 4 || d.Nulls != 2 || d.NaNs != 0 || d.Lower != math.Inf(-1) || d.Upper != 2.5 {
		t.Errorf("double metrics %+v", d)
	}
}

func TestFloatBoundsInJavaOrder(t *testing.T) {
	cases := []struct {
		vals         []float64
		bounds       bool
		lower, upper float64
	}{
		{[]float64{0, math.Copysign(0, -1)}, true, math.Copysign(0, -1), 0},
		{[]float64{math.NaN(), math.NaN()}, false, 0, 0},
		{[]float64{3, math.NaN(), -2, math.Inf(1)}, true, -2, math.Inf(1)},
	}
	for _, c := range cases {
		m := &FloatMetrics{}
		a := build(t, catalog.DoubleType(false), nil)
		addFloats(m, c.vals, a)
		a.Release()
		if m.HasBounds != c.bounds || (c.bounds && (math.Float64bits(m.Lower) != math.Float64bits(c.lower) || m.Upper != c.upper)) {
			t.Errorf("%v: %+v", c.vals, m)
		}
	}
}

func TestCheckRejectsMismatchedTypes(t *testing.T) {
	for _, c := range []struct {
		t       catalog.Type
		iceberg string
	}{
		{catalog.BigIntType(true), "int"},
		{catalog.DecimalType(10, 3, true), "decimal(10, 2)"},
		{catalog.Type{Kind: catalog.Binary, Length: 4}, "fixed[3]"},
		{catalog.TimestampType(9, true), "timestamp"},
		{catalog.StringType(true), "uuid"},
		{catalog.TimestampType(6, true), "timestamptz"},
	} {
		if err := Check(c.t, c.iceberg); err == nil {
			t.Errorf("%s into %s accepted", c.t, c.iceberg)
		}
	}
	if err := Check(catalog.DecimalType(10, 2, true), "decimal(12, 2)"); err != nil {
		t.Error(err)
	}
}

func TestFixedOfTheWrongLengthIsAnError(t *testing.T) {
	a := build(t, catalog.Type{Kind: catalog.Binary, Length: 3, Nullable: true}, []any{[]byte{1, 2}})
	defer a.Release()
	if _, err := fixedBinary(a, 3, "fx", memory.DefaultAllocator); err == nil || !strings.Contains(err.Error(), "fx") {
		t.Fatalf("err = %v", err)
	}
}

// TestEmptyValuesKeepTheirBounds: a column whose values are all empty (as column.Take leaves
// them: no value buffer) still gets the statistics that make Iceberg's bounds.
func TestEmptyValuesKeepTheirBounds(t *testing.T) {
	src := build(t, catalog.StringType(true), []any{"", "", "x"})
	defer src.Release()
	taken, err := column.Take(src, []int32{0, 1}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Release()
	sch := arrow.NewSchema([]arrow.Field{{Name: "s", Type: taken.DataType(), Nullable: true}}, nil)
	batch := array.NewRecordBatch(sch, []arrow.Array{taken}, 2)
	defer batch.Release()
	var buf bytes.Buffer
	w, err := NewWriter([]Field{{ID: 1, Name: "s", Iceberg: "string", Type: catalog.StringType(true)}}, "", DefaultOptions(), &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	cc, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cc.Statistics()
	if err != nil || st == nil || !st.HasMinMax() {
		t.Fatalf("an all-empty string column lost its bounds: %v %v", st, err)
	}
}

// writeThenRead writes the batches into one data file of the given fields, then reads it back
// with the native Iceberg reader as readFields (one batch: the caller releases it). It returns
// the writer (closed) and the file's bytes too.
func writeThenRead(t *testing.T, fields []Field, schemaJSON string, batches []arrow.RecordBatch, readFields []icebergsrc.Field) (*Writer, []byte, arrow.RecordBatch) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(fields, schemaJSON, DefaultOptions(), &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "data.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := icebergsrc.OpenFile(icebergsrc.FileRange{Path: path, Start: 4, Length: int64(buf.Len()) - 4}, readFields, 100, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return w, buf.Bytes(), got
}
