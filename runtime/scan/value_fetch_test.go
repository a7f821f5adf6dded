package scan

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

var fetchTypes = []catalog.Type{catalog.IntType(true), catalog.StringType(true)}

// flinkRows stands in for Flink's deserializer: the BinaryRowData rows of plain records.
func flinkRows(t *testing.T, records ...string) ([]byte, []int32) {
	t.Helper()
	values, starts := concat(records...)
	out, err := ValueRows("ROW<`a` INT, `b` STRING>", map[string]string{"format": "json"}, values, starts)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(out))
	at := 4 + 4*n
	rows := int(binary.LittleEndian.Uint32(out[at:]))
	offsets := make([]int32, rows+1)
	for i := range offsets {
		offsets[i] = int32(binary.LittleEndian.Uint32(out[at+4+4*i:]))
	}
	return out[at+4+4*(rows+1):], offsets
}

func concat(records ...string) ([]byte, []int32) {
	var values []byte
	starts := []int32{0}
	for _, r := range records {
		values = append(values, r...)
		starts = append(starts, int32(len(values)))
	}
	return values, starts
}

// A fetch's rows come out in record order, whether Go decoded a record or Flink did.
func TestValueFetchKeepsRecordOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	f, err := NewValueFetch(kafkavalue.Format{Name: "json"}, []string{"a", "b"}, fetchTypes, mem)
	if err != nil {
		t.Fatal(err)
	}
	values, starts := concat(`{"a":1,"b":"x"}`, `{"a":1,"a":2}`, `{"a":3}`, ``, `[{"a":4},{"a":5}]`, `{"a":6,"b":"y"}`)
	// What Flink's deserializer makes of the records left to it.
	flink := map[int][]string{1: {`{"a":2}`}, 4: {`{"a":4}`, `{"a":5}`}}
	var left []int
	for r := 0; ; r++ {
		if r, err = f.Decode(values, starts, r); err != nil {
			t.Fatal(err)
		}
		if r == len(starts)-1 {
			break
		}
		left = append(left, r)
		data, offsets := flinkRows(t, flink[r]...)
		if err := f.AppendRows(data, offsets); err != nil {
			t.Fatal(err)
		}
	}
	if len(left) != 2 || left[0] != 1 || left[1] != 4 {
		t.Fatalf("records left to Flink: %v, want [1 4]", left)
	}
	b, err := f.Finish()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	var got []string
	for r := range int(b.NumRows()) {
		got = append(got, b.Column(0).ValueStr(r)+"/"+b.Column(1).ValueStr(r))
	}
	if want := "1/x 2/(null) 3/(null) 4/(null) 5/(null) 6/y"; strings.Join(got, " ") != want {
		t.Fatalf("got %s, want %s", strings.Join(got, " "), want)
	}
	// The next fetch starts empty.
	empty, err := f.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if empty.NumRows() != 0 {
		t.Fatalf("%d rows left over", empty.NumRows())
	}
	empty.Release()
}
