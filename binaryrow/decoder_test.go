package binaryrow_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/testkit/rowgen"
)

var types = []catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.DecimalType(30, 2, true)}
var names = []string{"i", "s", "d"}

// encoded returns n rows of (i, "a string longer than seven bytes", d) as BinaryRowData.
func encoded(t testing.TB, n int) ([]byte, []int32) {
	t.Helper()
	schema, _ := catalog.ArrowSchema(names, types)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for r := 0; r < n; r++ {
		b.Field(0).(*array.Int32Builder).Append(int32(r))
		b.Field(1).(*array.StringBuilder).Append("a string longer than seven bytes")
		b.Field(2).AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	data, offsets, err := rowgen.Encode(rec, types, nil)
	if err != nil {
		t.Fatal(err)
	}
	return data, offsets
}

func TestCorruptRowsAreErrorsNamingRowAndField(t *testing.T) {
	dec, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	data, offsets := encoded(t, 3)
	stringSlot := binaryrow.SlotOffset(3, 1)
	cases := []struct {
		name    string
		corrupt func(d []byte, o []int32) ([]byte, []int32)
		want    string
	}{
		{"truncated buffer", func(d []byte, o []int32) ([]byte, []int32) { return d[:len(d)-8], o }, "outside buffer"},
		{"row shorter than its fixed part", func(d []byte, o []int32) ([]byte, []int32) {
			o2 := append([]int32(nil), o...)
			o2[1] = o2[0] + 8
			return d, o2
		}, "fewer than"},
		{"string pointing past its row", func(d []byte, o []int32) ([]byte, []int32) {
			d2 := append([]byte(nil), d...)
			binary.LittleEndian.PutUint64(d2[int(o[1])+stringSlot:], uint64(4096)<<32|8)
			return d2, o
		}, "row 1"},
		{"negative offsets", func(d []byte, o []int32) ([]byte, []int32) {
			o2 := append([]int32(nil), o...)
			o2[2] = -1
			return d, o2
		}, "outside buffer"},
	}
	for _, c := range cases {
		d, o := c.corrupt(data, offsets)
		_, err := dec.Decode(d, o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	dec, _ := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	const n = 8192
	data, offsets := encoded(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, err := dec.Decode(data, offsets)
		if err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// FuzzDecode feeds arbitrary bytes and offsets to the decoder: it must return an error or a
// batch, never panic or read outside the buffer.
func FuzzDecode(f *testing.F) {
	data, offsets := encoded(f, 3)
	offBytes := make([]byte, 4*len(offsets))
	for i, o := range offsets {
		binary.LittleEndian.PutUint32(offBytes[4*i:], uint32(o))
	}
	f.Add(data, offBytes)
	f.Fuzz(func(t *testing.T, data, offBytes []byte) {
		if len(offBytes) < 4 {
			return
		}
		offs := make([]int32, len(offBytes)/4)
		for i := range offs {
			offs[i] = int32(binary.LittleEndian.Uint32(offBytes[4*i:]))
		}
		dec, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if rec, err := dec.Decode(data, offs); err == nil {
			rec.Release()
		}
	})
}
