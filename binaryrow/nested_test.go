package binaryrow_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
)

// nestedTypes are ROW, ARRAY and MAP columns with every kind of slot inside: fixed-width,
// inline and long strings, non-compact decimals and timestamps, and nesting two deep.
func nestedTypes(t testing.TB) ([]string, []catalog.Type) {
	t.Helper()
	var types []catalog.Type
	for _, s := range []string{
		"ROW<`id` BIGINT, `name` STRING, `amount` DECIMAL(20, 2), `at` TIMESTAMP(6)>",
		"ARRAY<INT>",
		"ARRAY<STRING NOT NULL>",
		"ARRAY<ROW<`a` SMALLINT, `b` ARRAY<DOUBLE>>>",
		"MAP<STRING, BIGINT>",
		"MAP<INT, ARRAY<BOOLEAN>>",
		"ARRAY<DECIMAL(30, 4)>",
		"ROW<`t` TINYINT, `inner` ROW<`x` DATE, `y` BYTES>>",
		"ARRAY<TIMESTAMP(9)>",
		"MAP<STRING, ROW<`at` TIMESTAMP_LTZ(7) NOT NULL>>",
	} {
		ty, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ty)
	}
	names := []string{"r", "ai", "as", "ar", "m", "ma", "ad", "rr", "a9", "m7"}
	return names, types
}

// appendNested appends row k of a fixed pattern of values (with nulls at every level) to b.
func appendNested(b array.Builder, ty catalog.Type, k int) {
	if k%7 == 3 && ty.Nullable {
		b.AppendNull()
		return
	}
	switch ty.Kind {
	case catalog.Row:
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, f := range ty.Fields {
			appendNested(sb.FieldBuilder(i), f.Type, k+i)
		}
	case catalog.Array:
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for j := 0; j < k%5; j++ {
			appendNested(lb.ValueBuilder(), *ty.Elem, k*3+j)
		}
	case catalog.Map:
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		eb := lb.ValueBuilder().(*array.StructBuilder)
		for j := 0; j < k%4; j++ {
			eb.Append(true)
			appendNested(eb.FieldBuilder(0), *ty.Elem, k*5+j)
			appendNested(eb.FieldBuilder(1), *ty.Value, k*7+j)
		}
	case catalog.BigInt:
		b.(*array.Int64Builder).Append(int64(k) * -1_000_000_007)
	case catalog.Int:
		b.(*array.Int32Builder).Append(int32(k * 31))
	case catalog.SmallInt:
		b.(*array.Int16Builder).Append(int16(k - 9))
	case catalog.TinyInt:
		b.(*array.Int8Builder).Append(int8(k))
	case catalog.Double:
		b.(*array.Float64Builder).Append(float64(k) / 3)
	case catalog.Boolean:
		b.(*array.BooleanBuilder).Append(k%2 == 0)
	case catalog.Date:
		b.(*array.Date32Builder).Append(arrow.Date32(k * 400))
	case catalog.VarChar:
		b.(*array.StringBuilder).Append([]string{"", "short", "exactly8", "a longer string, ü"}[k%4])
	case catalog.VarBinary:
		b.(*array.BinaryBuilder).Append(make([]byte, k%12))
	case catalog.Decimal:
		b.(*array.Decimal128Builder).Append(decimal128.New(int64(k%3)-1, uint64(k)*977))
	case catalog.Timestamp, catalog.TimestampLTZ:
		if ty.IsNanoTimestamp() {
			sb := b.(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int64Builder).Append(int64(k)*86_400_007 - 3)
			sb.FieldBuilder(1).(*array.Int32Builder).Append(int32(k * 99_991 % 1_000_000))
			break
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(int64(k)*1_000_001 - 5))
	default:
		panic(ty.String())
	}
}

func TestNestedRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	names, types := nestedTypes(t)
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	const n = 40
	for k := 0; k < n; k++ {
		for i, ty := range types {
			appendNested(bld.Field(i), ty, k+i)
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	// A slice checks that offsets of sliced struct and list arrays are honoured.
	for _, part := range []arrow.RecordBatch{rec, rec.NewSlice(5, 33)} {
		rows := int(part.NumRows())
		enc, err := binaryrow.NewEncoder(types)
		if err != nil {
			t.Fatal(err)
		}
		offsets := make([]int32, rows+1)
		if err := enc.Layout(part.Columns(), rows, offsets); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, offsets[rows])
		if err := enc.Encode(part.Columns(), nil, rows, offsets, buf); err != nil {
			t.Fatal(err)
		}
		dec, err := binaryrow.NewDecoder(names, types, mem)
		if err != nil {
			t.Fatal(err)
		}
		back, err := dec.Decode(buf, offsets)
		if err != nil {
			t.Fatal(err)
		}
		for i := range types {
			if !array.Equal(part.Column(i), back.Column(i)) {
				t.Errorf("column %s (%s):\n got %v\nwant %v", names[i], types[i], back.Column(i), part.Column(i))
			}
		}
		// Encoding the decoded batch again gives the same bytes.
		again := make([]byte, len(buf))
		if err := enc.Layout(back.Columns()[:len(types)], rows, offsets); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(back.Columns()[:len(types)], nil, rows, offsets, again); err != nil {
			t.Fatal(err)
		}
		if string(again) != string(buf) {
			t.Errorf("re-encoded bytes differ")
		}
		back.Release()
		if part != rec {
			part.Release()
		}
	}
}

// FuzzDecodeNested feeds corrupted nested rows to the decoder: it must return an error or a
// batch, never panic or read outside the buffer.
func FuzzDecodeNested(f *testing.F) {
	names, types := nestedTypes(f)
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		f.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for k := 0; k < 4; k++ {
		for i, ty := range types {
			appendNested(bld.Field(i), ty, k+i)
		}
	}
	rec := bld.NewRecordBatch()
	enc, err := binaryrow.NewEncoder(types)
	if err != nil {
		f.Fatal(err)
	}
	offsets := make([]int32, 5)
	if err := enc.Layout(rec.Columns(), 4, offsets); err != nil {
		f.Fatal(err)
	}
	buf := make([]byte, offsets[4])
	if err := enc.Encode(rec.Columns(), nil, 4, offsets, buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf, uint16(0), byte(0))
	f.Add(buf, uint16(100), byte(0xff))
	dec, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint16, b byte) {
		data = append([]byte(nil), data...)
		if len(data) == 0 {
			return
		}
		data[int(at)%len(data)] ^= b
		rec, err := dec.Decode(data, []int32{0, int32(len(data))})
		if err == nil {
			rec.Release()
		}
	})
}
