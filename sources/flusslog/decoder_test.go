package flusslog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/testkit/flussbatch"
)

func rows(b arrow.RecordBatch) string {
	var out []string
	for r := 0; r < int(b.NumRows()); r++ {
		var row []string
		for _, c := range b.Columns() {
			row = append(row, c.ValueStr(r))
		}
		out = append(out, strings.Join(row, "|"))
	}
	return strings.Join(out, " ")
}

var testTypes = []catalog.Type{catalog.IntType(true), catalog.StringType(true),
	{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}, {Kind: catalog.Decimal, Precision: 10, Scale: 2, Nullable: true}}

// testRecord is a batch of Fluss's Arrow types for testTypes.
func testRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	s := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true}}, nil)
	b := array.NewRecordBuilder(mem, s)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2, 3, 4}, []bool{true, true, false, true})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "", "c", "dd"}, []bool{true, true, true, false})
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{0, 1500, -1, 1_700_000_000_123}, nil)
	b.Field(3).(*array.Decimal128Builder).AppendNull()
	for range 3 {
		b.Field(3).(*array.Decimal128Builder).Append(decimalOf(12345))
	}
	return b.NewRecordBatch()
}

// The rows of batches as Fluss writes them, whole or from an offset inside, with their RowKinds
// for a changelog; a fetch's partial last batch is no batch yet.
func TestDecode(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, mem)
	defer rec.Release()
	for _, c := range []struct {
		name        string
		changeTypes []byte
		from, to    int
		want        string
	}{
		{"append-only", nil, 0, 4, "1|a|1970-01-01T00:00:00Z|(null) 2||1970-01-01T00:00:01.5Z|123.45 (null)|c|1969-12-31T23:59:59.999Z|123.45 4|(null)|2023-11-14T22:13:20.123Z|123.45"},
		{"from an offset inside", nil, 2, 4, "(null)|c|1969-12-31T23:59:59.999Z|123.45 4|(null)|2023-11-14T22:13:20.123Z|123.45"},
		{"changelog", []byte{1, 2, 3, 4}, 0, 4, "1|a|1970-01-01T00:00:00Z|(null)|0 2||1970-01-01T00:00:01.5Z|123.45|1 (null)|c|1969-12-31T23:59:59.999Z|123.45|2 4|(null)|2023-11-14T22:13:20.123Z|123.45|3"},
		{"appends in a changelog", []byte{0, 0, 4, 0}, 1, 3, "2||1970-01-01T00:00:01.5Z|123.45|0 (null)|c|1969-12-31T23:59:59.999Z|123.45|3"},
		{"no rows", nil, 3, 3, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := flussbatch.Encode(t, 100, rec, c.changeTypes)
			b, size, ok, err := Next(append(raw, 1, 2, 3)) // a partial next batch behind
			if err != nil || !ok || size != len(raw) {
				t.Fatalf("next: size %d of %d, ok %v, %v", size, len(raw), ok, err)
			}
			if b.BaseOffset != 100 || b.NextOffset() != 104 || b.RecordCount != 4 || b.SchemaID != 1 || b.AppendOnly != (c.changeTypes == nil) {
				t.Fatalf("header %+v", b)
			}
			if _, _, ok, err := Next(raw[:len(raw)-1]); ok || err != nil {
				t.Fatalf("a partial batch: ok %v, %v", ok, err)
			}
			d, err := NewDecoder([]string{"id", "name", "ts", "price"}, testTypes, c.changeTypes != nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := d.Decode(&b, c.from, c.to, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if !out.Schema().Equal(d.Schema()) {
				t.Fatalf("schema %v, want %v", out.Schema(), d.Schema())
			}
			if got := rows(out); got != c.want {
				t.Fatalf("rows\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Damaged batches and types not decoded natively are errors naming what and where.
func TestDecodeErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, mem)
	defer rec.Release()
	raw := flussbatch.Encode(t, 100, rec, []byte{1, 9, 1, 1})
	bad := bytes.Clone(raw)
	bad[magicOffset] = 7
	if _, _, _, err := Next(bad); err == nil || !strings.Contains(err.Error(), "magic 7") {
		t.Fatalf("magic: %v", err)
	}
	b, _, _, err := Next(raw)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder([]string{"id", "name", "ts", "price"}, testTypes, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode(&b, 0, 4, mem); err == nil || !strings.Contains(err.Error(), "offset 100: change type 9") {
		t.Fatalf("change type: %v", err)
	}
	if _, err := d.Decode(&b, 2, 5, mem); err == nil || !strings.Contains(err.Error(), "rows [2, 5) of 4") {
		t.Fatalf("rows past the batch: %v", err)
	}
	b.Arrow = b.Arrow[:len(b.Arrow)/2]
	if _, err := d.Decode(&b, 0, 1, mem); err == nil || !strings.Contains(err.Error(), "offset 100") {
		t.Fatalf("truncated Arrow: %v", err)
	}
	if _, err := NewDecoder([]string{"t"}, []catalog.Type{{Kind: catalog.Timestamp, Precision: 9}}, false); err == nil || !strings.Contains(err.Error(), "column t") {
		t.Fatalf("TIMESTAMP(9): %v", err)
	}
}

func decimalOf(v int64) decimal128.Num { return decimal128.FromI64(v) }

// TIME(0) and TIMESTAMP(0) come as seconds and become Sluice's milliseconds, NULLs kept.
func TestDecodeSeconds(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	s := arrow.NewSchema([]arrow.Field{{Name: "tm", Type: arrow.FixedWidthTypes.Time32s, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(mem, s)
	rb.Field(0).(*array.Time32Builder).AppendValues([]arrow.Time32{1, 86399, 0}, []bool{true, true, false})
	rb.Field(1).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 0, 1_700_000_000}, nil)
	rec := rb.NewRecordBatch()
	rb.Release()
	defer rec.Release()
	b, _, _, err := Next(flussbatch.Encode(t, 0, rec, nil))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder([]string{"tm", "ts"}, []catalog.Type{{Kind: catalog.Time, Nullable: true}, {Kind: catalog.Timestamp, Nullable: true}}, false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Decode(&b, 1, 3, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got, want := rows(out), "23:59:59.000|1970-01-01T00:00:00 (null)|2023-11-14T22:13:20"; got != want {
		t.Fatalf("rows %s, want %s", got, want)
	}
}

// A TIMESTAMP_LTZ(6) before 1970 with a fraction of a millisecond fails, as in Fluss's reader;
// whole milliseconds before 1970 are read.
func TestDecodeFailsWhereFlussDoes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	s := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(mem, s)
	rb.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-2000, 5, -1500}, nil)
	rec := rb.NewRecordBatch()
	rb.Release()
	defer rec.Release()
	b, _, _, err := Next(flussbatch.Encode(t, 0, rec, nil))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder([]string{"ts"}, []catalog.Type{{Kind: catalog.TimestampLTZ, Precision: 6, Nullable: true}}, false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Decode(&b, 0, 2, mem)
	if err != nil {
		t.Fatal(err)
	}
	out.Release()
	if _, err := d.Decode(&b, 0, 3, mem); err == nil || !strings.Contains(err.Error(), "column ts: row 2: -1500 microseconds") {
		t.Fatalf("error %v", err)
	}
}
