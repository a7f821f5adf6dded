package binaryrow_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
)

func TestRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	types := []catalog.Type{
		catalog.BooleanType(true), catalog.IntType(true), catalog.BigIntType(true),
		catalog.DoubleType(true), catalog.StringType(true), catalog.DecimalType(10, 2, true),
		catalog.DecimalType(30, 5, true), catalog.TimestampType(3, true), catalog.TimestampType(6, true),
		{Kind: catalog.IntervalYearMonth, Nullable: true}, {Kind: catalog.IntervalDayTime, Nullable: true},
		catalog.TimestampType(9, true),
	}
	names := []string{"b", "i", "l", "d", "s", "dc", "dw", "ts", "t6", "ym", "dt", "t9"}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	bld.Field(0).(*array.BooleanBuilder).AppendValues([]bool{true, false, false}, []bool{true, true, false})
	bld.Field(1).(*array.Int32Builder).AppendValues([]int32{math.MinInt32, 0, 7}, []bool{true, false, true})
	bld.Field(2).(*array.Int64Builder).AppendValues([]int64{math.MaxInt64, -1, 0}, nil)
	bld.Field(3).(*array.Float64Builder).AppendValues([]float64{math.NaN(), math.Copysign(0, -1), 1.5}, nil)
	bld.Field(4).(*array.StringBuilder).AppendValues([]string{"", "seven77", "a longer string ü"}, []bool{true, true, true})
	bld.Field(5).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-12345), decimal128.FromI64(0), decimal128.FromI64(99999999)}, []bool{true, false, true})
	bld.Field(6).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-1), decimal128.New(1<<40, 12345), decimal128.FromI64(128)}, nil)
	bld.Field(7).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 0, 1700000000123}, []bool{true, true, false})
	// Microseconds before and after the epoch (millis -1 with 999 µs, ...), and a NULL.
	bld.Field(8).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 1700000000123456, 0}, []bool{true, true, false})
	bld.Field(9).(*array.Int32Builder).AppendValues([]int32{-13, math.MaxInt32, 0}, []bool{true, true, false})
	bld.Field(10).(*array.DurationBuilder).AppendValues([]arrow.Duration{math.MinInt64, 0, 86_400_001}, []bool{true, false, true})
	// Epoch millis and nanos of the millisecond: before the epoch, year 9999, and a NULL.
	t9 := bld.Field(11).(*array.StructBuilder)
	for _, v := range []struct {
		ms    int64
		nanos int32
		valid bool
	}{{-1, 999_999, true}, {253402300799999, 123_456, true}, {0, 0, false}} {
		t9.Append(v.valid)
		if v.valid {
			t9.FieldBuilder(0).(*array.Int64Builder).Append(v.ms)
			t9.FieldBuilder(1).(*array.Int32Builder).Append(v.nanos)
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()

	enc, err := binaryrow.NewEncoder(types)
	if err != nil {
		t.Fatal(err)
	}
	n := int(rec.NumRows())
	offsets := make([]int32, n+1)
	if err := enc.Layout(rec.Columns(), n, offsets); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, offsets[n])
	if err := enc.Encode(rec.Columns(), []int8{0, 1, 3}, n, offsets, buf); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < n; r++ {
		if (offsets[r+1]-offsets[r])%8 != 0 {
			t.Errorf("row %d size %d not a multiple of 8", r, offsets[r+1]-offsets[r])
		}
	}
	dec, err := binaryrow.NewDecoder(names, types, mem)
	if err != nil {
		t.Fatal(err)
	}
	back, err := dec.Decode(buf, offsets)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	for i := range types {
		if f, ok := rec.Column(i).(*array.Float64); ok {
			g := back.Column(i).(*array.Float64)
			for r := 0; r < n; r++ {
				if math.Float64bits(f.Value(r)) != math.Float64bits(g.Value(r)) || f.IsNull(r) != g.IsNull(r) {
					t.Errorf("column %s row %d: got %v want %v", names[i], r, g.Value(r), f.Value(r))
				}
			}
			continue
		}
		if !array.Equal(rec.Column(i), back.Column(i)) {
			t.Errorf("column %s: got %v want %v", names[i], back.Column(i), rec.Column(i))
		}
	}
	kinds := back.Column(len(types)).(*array.Int8).Int8Values()
	if kinds[0] != 0 || kinds[1] != 1 || kinds[2] != 3 {
		t.Errorf("row kinds %v", kinds)
	}
}

func TestDecimalBytesMatchBigInteger(t *testing.T) {
	// Expected bytes are what java.math.BigInteger#toByteArray returns.
	cases := []struct {
		v    decimal128.Num
		want []byte
	}{
		{decimal128.FromI64(0), []byte{0}},
		{decimal128.FromI64(127), []byte{0x7f}},
		{decimal128.FromI64(128), []byte{0x00, 0x80}},
		{decimal128.FromI64(-1), []byte{0xff}},
		{decimal128.FromI64(-128), []byte{0x80}},
		{decimal128.FromI64(-129), []byte{0xff, 0x7f}},
	}
	for _, c := range cases {
		got := binaryrow.DecimalToBigEndian(c.v)
		if string(got) != string(c.want) {
			t.Errorf("%v: got %x want %x", c.v.BigInt(), got, c.want)
		}
		if back := binaryrow.DecimalFromBigEndian(got); back != c.v {
			t.Errorf("%v: read back %v", c.v.BigInt(), back.BigInt())
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	types := []catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.DecimalType(10, 2, true), catalog.DoubleType(true)}
	schema, _ := catalog.ArrowSchema([]string{"i", "s", "d", "f"}, types)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	const n = 8192
	for r := 0; r < n; r++ {
		bld.Field(0).(*array.Int32Builder).Append(int32(r))
		bld.Field(1).(*array.StringBuilder).Append("some text of 20 byte")
		bld.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r)))
		bld.Field(3).(*array.Float64Builder).Append(float64(r) / 3)
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	enc, _ := binaryrow.NewEncoder(types)
	offsets := make([]int32, n+1)
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := enc.Layout(rec.Columns(), n, offsets); err != nil {
			b.Fatal(err)
		}
		if cap(buf) < int(offsets[n]) {
			buf = make([]byte, offsets[n])
		}
		if err := enc.Encode(rec.Columns(), nil, n, offsets, buf[:offsets[n]]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// An empty batch encodes to nothing, whatever its columns' buffers (a builder's empty BOOLEAN
// array has no value buffer).
func TestEncodeEmptyColumns(t *testing.T) {
	mem := memory.NewGoAllocator()
	bb := array.NewBooleanBuilder(mem)
	defer bb.Release()
	col := bb.NewArray()
	defer col.Release()
	enc, err := binaryrow.NewEncoder([]catalog.Type{catalog.BooleanType(true)})
	if err != nil {
		t.Fatal(err)
	}
	offsets := []int32{0}
	if err := enc.Layout([]arrow.Array{col}, 0, offsets); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode([]arrow.Array{col}, nil, 0, offsets, nil); err != nil {
		t.Fatal(err)
	}
}

// A non-compact timestamp is the epoch millis in the variable part and (offset << 32 |
// nanoOfMillisecond) in the slot; WriterNulls reserves the 8 bytes of a NULL as Flink's
// BinaryRowWriter#writeTimestamp(pos, null, precision) does.
func TestNonCompactTimestampLayout(t *testing.T) {
	types := []catalog.Type{catalog.TimestampType(6, true)}
	schema, err := catalog.ArrowSchema([]string{"t"}, types)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	bld.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 0}, []bool{true, false})
	rec := bld.NewRecordBatch()
	defer rec.Release()
	for _, c := range []struct {
		nulls     binaryrow.NullLayout
		nullBytes int32
	}{{binaryrow.SerializerNulls, 16}, {binaryrow.WriterNulls, 24}} {
		enc, err := binaryrow.NewEncoderWithNulls(types, c.nulls)
		if err != nil {
			t.Fatal(err)
		}
		offsets := make([]int32, 3)
		if err := enc.Layout(rec.Columns(), 2, offsets); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, offsets[2])
		if err := enc.Encode(rec.Columns(), nil, 2, offsets, buf); err != nil {
			t.Fatal(err)
		}
		// Row 0: header 8 bytes, slot 8 bytes, millis -1 at offset 16, 999 µs = 999000 ns.
		slot := binary.LittleEndian.Uint64(buf[8:])
		millis := int64(binary.LittleEndian.Uint64(buf[16:]))
		if slot != 16<<32|999_000 || millis != -1 || offsets[1] != 24 {
			t.Errorf("nulls %v: row 0 slot %#x millis %d size %d", c.nulls, slot, millis, offsets[1])
		}
		if got := offsets[2] - offsets[1]; got != c.nullBytes {
			t.Errorf("nulls %v: NULL row of %d bytes, want %d", c.nulls, got, c.nullBytes)
		}
	}
}
