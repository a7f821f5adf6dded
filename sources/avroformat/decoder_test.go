package avroformat

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// zigzag appends v as Avro's zig-zag varint.
func zigzag(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

var rowTypes = []catalog.Type{
	{Kind: catalog.Boolean, Nullable: true},
	{Kind: catalog.TinyInt, Nullable: true},
	{Kind: catalog.BigInt},
	{Kind: catalog.Decimal, Precision: 4, Scale: 2, Nullable: true},
	catalog.StringType(true),
	{Kind: catalog.Timestamp, Precision: 3, Nullable: true},
}

// record encodes (b, t, l, dec, s, ts) as Flink's serializer does; nil is NULL.
func record(b *bool, t *int64, l int64, dec []byte, s *string, ts *int64) []byte {
	var out []byte
	if b == nil {
		out = append(out, 0)
	} else {
		out = append(out, 2)
		if *b {
			out = append(out, 1)
		} else {
			out = append(out, 0)
		}
	}
	if t == nil {
		out = append(out, 0)
	} else {
		out = zigzag(append(out, 2), *t)
	}
	out = zigzag(out, l)
	if dec == nil {
		out = append(out, 0)
	} else {
		out = zigzag(append(out, 2), int64(len(dec)))
		out = append(out, dec...)
	}
	if s == nil {
		out = append(out, 0)
	} else {
		out = zigzag(append(out, 2), int64(len(*s)))
		out = append(out, *s...)
	}
	if ts == nil {
		return append(out, 0)
	}
	return zigzag(append(out, 2), *ts)
}

func ptr[T any](v T) *T { return &v }

// TestDecode checks values, NULLs, Java's narrowing, decimals past their precision, and the
// records left to Flink, bytes after a record making every later record Flink's.
func TestDecode(t *testing.T) {
	plain := record(ptr(true), ptr(int64(300)), -5, []byte{0x04, 0xd2}, ptr("é漢"), ptr(int64(-1)))
	for _, c := range []struct {
		name    string
		records [][]byte
		want    string
		left    []int
	}{
		{"values", [][]byte{plain, record(nil, nil, math.MaxInt64, nil, nil, nil)},
			"true|44|-5|12.34|é漢|1969-12-31 23:59:59.999 (null)|(null)|9223372036854775807|(null)|(null)|(null)", nil},
		{"boolean byte 2 is false", [][]byte{append([]byte{2, 2}, plain[2:]...)}, "false|44|-5|12.34|é漢|1969-12-31 23:59:59.999", nil},
		{"decimal past its precision", [][]byte{record(nil, nil, 1, []byte{0x27, 0x10}, nil, nil)}, "(null)|(null)|1|(null)|(null)|(null)", nil},
		{"not UTF-8, then plain", [][]byte{record(nil, nil, 1, nil, ptr("\xff"), nil), plain}, "true|44|-5|12.34|é漢|1969-12-31 23:59:59.999", []int{0}},
		{"union index 2", [][]byte{append([]byte{4}, plain[1:]...), plain}, "", []int{0, 1}},
		{"empty decimal", [][]byte{record(nil, nil, 1, []byte{}, nil, nil)}, "", []int{0}},
		{"cut", [][]byte{plain[:len(plain)-1], plain}, "", []int{0, 1}},
		{"bytes after it", [][]byte{plain, append(append([]byte(nil), plain...), 0), plain}, "true|44|-5|12.34|é漢|1969-12-31 23:59:59.999", []int{1, 2}},
		{"empty", [][]byte{{}, plain}, "true|44|-5|12.34|é漢|1969-12-31 23:59:59.999", []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			names := []string{"b", "t", "l", "dec", "s", "ts"}
			d, err := NewDecoder(names, rowTypes, Options{LegacyTimestamps: true})
			if err != nil {
				t.Fatal(err)
			}
			var left []int
			for i, r := range c.records {
				if _, ok := d.Add(r); !ok {
					left = append(left, i)
				}
			}
			b, err := d.Finish(mem)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			var rows []string
			for r := 0; r < int(b.NumRows()); r++ {
				var vals []string
				for _, col := range b.Columns() {
					vals = append(vals, col.ValueStr(r))
				}
				rows = append(rows, strings.Join(vals, "|"))
			}
			got := strings.ReplaceAll(strings.Join(rows, " "), "T", " ")
			got = strings.ReplaceAll(got, "Z", "")
			if got != c.want || fmt.Sprint(left) != fmt.Sprint(c.left) {
				t.Fatalf("rows %q, left %v; want %q, %v", got, left, c.want, c.left)
			}
		})
	}
}

// FuzzDecode feeds random records: no panic, a row per record taken, and none taken once a
// record had bytes after it.
func FuzzDecode(f *testing.F) {
	f.Add(record(ptr(true), ptr(int64(3)), 5, []byte{1}, ptr("x"), ptr(int64(7))))
	f.Add([]byte{2, 1, 2, 255, 255, 255, 255, 127})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := NewDecoder([]string{"b", "t", "l", "dec", "s", "ts"}, rowTypes, Options{LegacyTimestamps: true})
		if err != nil {
			t.Fatal(err)
		}
		taken := 0
		for _, r := range [][]byte{data, data, append(data, 0)} {
			if n, ok := d.Add(r); ok {
				taken += n
			} else if n != 0 {
				t.Fatalf("a record left to Flink added %d rows", n)
			}
		}
		if d.Rows() != taken {
			t.Fatalf("%d rows for %d taken", d.Rows(), taken)
		}
		b, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
		// Taken, data left a byte over with the third record; not taken, it is not taken again.
		if _, ok := d.Add(data); ok {
			t.Fatalf("record %x taken after bytes were left over (%d taken before)", data, taken)
		}
	})
}
