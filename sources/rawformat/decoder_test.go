package rawformat

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	sinkraw "github.com/sluice-project/sluice/sinks/rawformat"
)

// TestDecode checks each type's values, the byte orders, and the records left to Flink.
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name    string
		t       catalog.Type
		little  bool
		records []string
		want    string // the column, as arrow prints it
		left    []int  // the records left to Flink
	}{
		{"string", catalog.StringType(true), false, []string{"abc", "", "é\xff", " "}, `["abc" "é\xff" " "]`, []int{1}},
		{"bytes", catalog.Type{Kind: catalog.VarBinary, Length: 1<<31 - 1, Nullable: true}, false,
			[]string{"\x00\x01", "z"}, `["\x00\x01" "z"]`, nil},
		{"boolean", catalog.Type{Kind: catalog.Boolean, Nullable: true}, false, []string{"\x00", "\x02", "\x01\x00"}, `[false true]`, []int{2}},
		{"tinyint", catalog.Type{Kind: catalog.TinyInt, Nullable: true}, false, []string{"\xff", "\x7f", ""}, `[-1 127]`, []int{2}},
		{"smallint big-endian", catalog.Type{Kind: catalog.SmallInt, Nullable: true}, false, []string{"\x01\x02", "\xff\xfe", "\x01"}, `[258 -2]`, []int{2}},
		{"smallint little-endian", catalog.Type{Kind: catalog.SmallInt, Nullable: true}, true, []string{"\x01\x02"}, `[513]`, nil},
		{"int", catalog.IntType(true), false, []string{"\x00\x00\x01\x00", "\x80\x00\x00\x00", "\x00\x00\x00\x00\x00"}, `[256 -2147483648]`, []int{2}},
		{"bigint little-endian", catalog.Type{Kind: catalog.BigInt, Nullable: true}, true, []string{"\x01\x00\x00\x00\x00\x00\x00\x80"}, `[-9223372036854775807]`, nil},
		{"float", catalog.Type{Kind: catalog.Float, Nullable: true}, false, []string{"\x3f\xc0\x00\x00", "\xff\x80\x00\x00"}, `[1.5 -Inf]`, nil},
		{"double little-endian", catalog.Type{Kind: catalog.Double, Nullable: true}, true, []string{"\x00\x00\x00\x00\x00\x00\xf8\x3f", "\x00"}, `[1.5]`, []int{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			d, err := NewDecoder([]string{"v"}, []catalog.Type{c.t}, Options{LittleEndian: c.little})
			if err != nil {
				t.Fatal(err)
			}
			var left []int
			for i, r := range c.records {
				if n, ok := d.Add([]byte(r)); !ok {
					left = append(left, i)
				} else if n != 1 {
					t.Fatalf("record %d added %d rows", i, n)
				}
			}
			if fmt.Sprint(left) != fmt.Sprint(c.left) {
				t.Fatalf("left to Flink %v, want %v", left, c.left)
			}
			b, err := d.Finish(mem)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			got := fmt.Sprint(b.Column(0))
			switch a := b.Column(0).(type) {
			case *array.String:
				got = fmt.Sprintf("%q", stringValues(a.Len(), func(i int) string { return a.Value(i) }))
			case *array.Binary:
				got = fmt.Sprintf("%q", stringValues(a.Len(), func(i int) string { return string(a.Value(i)) }))
			}
			if got != c.want {
				t.Fatalf("column %s, want %s", got, c.want)
			}
			if d.Rows() != 0 {
				t.Fatalf("%d rows after Finish", d.Rows())
			}
		})
	}
}

func stringValues(n int, value func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = value(i)
	}
	return out
}

// Types the raw format does not take natively (and rows of several fields) are an error.
func TestNewDecoderRefuses(t *testing.T) {
	for _, types := range [][]catalog.Type{
		{catalog.Type{Kind: catalog.Raw}},
		{catalog.Type{Kind: catalog.Decimal, Precision: 10}},
		{catalog.IntType(true), catalog.IntType(true)},
	} {
		names := make([]string, len(types))
		for i := range names {
			names[i] = fmt.Sprint("f", i)
		}
		if _, err := NewDecoder(names, types, Options{}); err == nil {
			t.Fatalf("%v decoded natively", types)
		}
	}
}

var fuzzTypes = []catalog.Type{
	catalog.StringType(true), {Kind: catalog.VarBinary, Length: 1<<31 - 1, Nullable: true}, {Kind: catalog.Boolean, Nullable: true},
	{Kind: catalog.TinyInt, Nullable: true}, {Kind: catalog.SmallInt, Nullable: true}, catalog.IntType(true),
	{Kind: catalog.BigInt, Nullable: true}, {Kind: catalog.Float, Nullable: true}, {Kind: catalog.Double, Nullable: true},
}

// FuzzDecode decodes records of every type in both byte orders: a record is taken only if it
// has the type's width (any non-empty length for strings and bytes), and the encoder writes each
// taken value back to the record's own bytes (BOOLEAN: its 0 or 1).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "\x00", "\x01\x02", "abcd", "\xff\xff\xff\xff\xff\xff\xff\xff", "\x7f\xc0\x00\x01"} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, record []byte, pick uint8) {
		typ := fuzzTypes[int(pick>>1)%len(fuzzTypes)]
		little := pick&1 == 1
		d, err := NewDecoder([]string{"v"}, []catalog.Type{typ}, Options{LittleEndian: little})
		if err != nil {
			t.Fatal(err)
		}
		width, _ := Width(typ)
		_, ok := d.Add(record)
		if want := len(record) > 0 && (width == 0 || len(record) == width); ok != want {
			t.Fatalf("%s record %x taken: %v", typ, record, ok)
		}
		b, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		enc, err := sinkraw.NewEncoder([]string{"v"}, []catalog.Type{typ}, sinkraw.Options{LittleEndian: little})
		if err != nil {
			t.Fatal(err)
		}
		body, ends, err := enc.AppendRecords(nil, nil, b)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if len(ends) != 0 {
				t.Fatalf("%d records encoded of none decoded", len(ends))
			}
			return
		}
		want := record
		if typ.Kind == catalog.Boolean && record[0] != 0 {
			want = []byte{1}
		}
		if len(ends) != 1 || !bytes.Equal(body, want) {
			t.Fatalf("%s record %x came back as %x (ends %v)", typ, record, body, ends)
		}
	})
}
