package scan

import (
	"encoding/binary"
	"fmt"
	"math"
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
	f, err := NewValueFetch(FetchLayout{Value: kafkavalue.Format{Name: "json"}}, []string{"a", "b"}, fetchTypes, mem)
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

// Metadata columns come after the value fields, each row with its own record's metadata (a
// record without a row, an empty value, has none).
func TestValueFetchMetadataColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	keys := []string{"offset", "timestamp", "leader-epoch", "timestamp-type", "partition", "topic"}
	types := append(append([]catalog.Type(nil), fetchTypes...), catalog.Type{Kind: catalog.BigInt},
		catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3}, catalog.IntType(true), catalog.StringType(false),
		catalog.Type{Kind: catalog.Int}, catalog.StringType(false))
	f, err := NewValueFetch(FetchLayout{Value: kafkavalue.Format{Name: "json"}, Metadata: keys}, append([]string{"a", "b"}, keys...), types, mem)
	if err != nil {
		t.Fatal(err)
	}
	if !f.ReadsMetadata() {
		t.Fatal("metadata columns not read")
	}
	values, starts := concat(`{"a":1}`, ``, `{"a":3,"b":"z"}`)
	var meta []byte
	for _, m := range [][4]int64{{10, 1000, math.MinInt32, 0}, {11, 1001, 5, 1}, {12, 1002, 7, -1}} {
		meta = binary.LittleEndian.AppendUint64(meta, uint64(m[0]))
		meta = binary.LittleEndian.AppendUint64(meta, uint64(m[1]))
		meta = binary.LittleEndian.AppendUint32(meta, uint32(int32(m[2])))
		meta = binary.LittleEndian.AppendUint32(meta, uint32(int32(m[3])))
	}
	f.SetRecords("bids", 3, meta)
	left, got := decodeAll(t, f, values, starts)
	if len(left) > 0 {
		t.Fatalf("records %v left to Flink", left)
	}
	want := "1|(null)|10|1970-01-01T00:00:01Z|(null)|CreateTime|3|bids 3|z|12|1970-01-01T00:00:01.002Z|7|NoTimestampType|3|bids"
	if strings.Join(got, " ") != want {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// Key fields take their places among the value's; a record whose key or value has no row makes
// none; one the decoders do not take is Flink's, the key's row taken back when the value fails.
func TestValueFetchKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	json := kafkavalue.Format{Name: "json"}
	// Row (k INT, a INT, b STRING): k from the key's field "id", a and b from the value.
	types := append([]catalog.Type{catalog.IntType(true)}, fetchTypes...)
	f, err := NewValueFetch(FetchLayout{Value: json, ValueFields: []int{1, 2}, Key: &json, KeyNames: []string{"id"}, KeyFields: []int{0}},
		[]string{"k", "a", "b"}, types, mem)
	if err != nil {
		t.Fatal(err)
	}
	keys, keyStarts := concat(`{"id":1}`, `{"id":2}`, ``, `{"id":4}`, `{"id":5}`)
	values, starts := concat(`{"a":10}`, `{"a":1,"a":2}`, `{"a":30}`, ``, `{"a":50,"b":"x"}`)
	f.SetKeys(keys, keyStarts)
	left, got := decodeAll(t, f, values, starts)
	// Record 1's value is Flink's (duplicate keys); records 2 and 3 make no row, the key or
	// the value being empty, as in Flink.
	if fmt.Sprint(left) != "[1]" || strings.Join(got, " ") != "1|10|(null) 5|50|x" {
		t.Fatalf("left to Flink %v, rows %v", left, got)
	}
}

// Keys and metadata together: the key's field, the value's, then the metadata of each row's own
// record, a record without a key making none.
func TestValueFetchKeysAndMetadata(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	json := kafkavalue.Format{Name: "json"}
	types := []catalog.Type{catalog.IntType(true), catalog.IntType(true), {Kind: catalog.BigInt}}
	f, err := NewValueFetch(FetchLayout{Value: json, ValueFields: []int{1}, Key: &json, KeyNames: []string{"id"}, KeyFields: []int{0},
		Metadata: []string{"offset"}}, []string{"k", "a", "offset"}, types, mem)
	if err != nil {
		t.Fatal(err)
	}
	keys, keyStarts := concat(`{"id":1}`, ``, `{"id":3}`)
	values, starts := concat(`{"a":10}`, `{"a":20}`, `{"a":30}`)
	var meta []byte
	for _, off := range []int64{100, 101, 102} {
		meta = binary.LittleEndian.AppendUint64(meta, uint64(off))
		meta = binary.LittleEndian.AppendUint64(meta, 0)
		meta = binary.LittleEndian.AppendUint32(meta, uint32(0))
		meta = binary.LittleEndian.AppendUint32(meta, 0)
	}
	f.SetKeys(keys, keyStarts)
	f.SetRecords("t", 0, meta)
	left, got := decodeAll(t, f, values, starts)
	// Record 1 has no key: no row, as in Flink.
	if fmt.Sprint(left) != "[]" || strings.Join(got, " ") != "1|10|100 3|30|102" {
		t.Fatalf("left to Flink %v, rows %v", left, got)
	}
}

// decodeAll decodes a fetch's records to the end and returns the records left to Flink (their
// rows not appended) and the fetch's batch as rows of '|'-joined columns.
func decodeAll(t *testing.T, f *ValueFetch, values []byte, starts []int32) (left []int, rows []string) {
	t.Helper()
	for r := 0; ; r++ {
		var err error
		if r, err = f.Decode(values, starts, r); err != nil {
			t.Fatal(err)
		}
		if r == len(starts)-1 {
			break
		}
		left = append(left, r)
	}
	b, err := f.Finish()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	for r := 0; r < int(b.NumRows()); r++ {
		var row []string
		for _, c := range b.Columns() {
			row = append(row, c.ValueStr(r))
		}
		rows = append(rows, strings.Join(row, "|"))
	}
	return left, rows
}

// Upsert mode (upsert-kafka): a record with a value is an insert (RowKind 0), a tombstone (a
// record without a value, not one with an empty value) a delete (3) of its key's row, the
// value's other fields NULL and a field the value shares with the key the key's; a tombstone
// without a key row makes none, as Flink's DynamicKafkaDeserializationSchema.
func TestValueFetchUpserts(t *testing.T) {
	json := kafkavalue.Format{Name: "json"}
	types := []catalog.Type{catalog.IntType(true), catalog.IntType(true), catalog.StringType(true), {Kind: catalog.BigInt}}
	keys, keyStarts := concat(`{"id":1}`, `{"id":2}`, `{"id":3}`, ``, `{"id":5}`, `{"id":6}`, `{"id":7}`)
	values, starts := concat(`{"k":1,"a":10}`, ``, `{"k":30,"a":3,"b":"x"}`, ``, ``, `{"a":1,"a":2}`, ``)
	tombstones := []byte{0, 1, 0, 1, 0, 0, 1}
	var meta []byte
	for off := range int64(len(tombstones)) {
		meta = binary.LittleEndian.AppendUint64(meta, uint64(100+off))
		meta = binary.LittleEndian.AppendUint64(meta, 0)
		meta = binary.LittleEndian.AppendUint64(meta, 0)
	}
	for _, c := range []struct {
		name        string
		valueFields []int // nil: 'value.fields-include' = 'ALL'
		metadata    bool
		want        string
	}{
		{"value with the key", nil, false, "1|10|(null)|0 2|(null)|(null)|3 30|3|x|0 7|(null)|(null)|3"},
		{"value without the key", []int{1, 2}, false, "1|10|(null)|0 2|(null)|(null)|3 3|3|x|0 7|(null)|(null)|3"},
		{"metadata", nil, true, "1|10|(null)|100|0 2|(null)|(null)|101|3 30|3|x|102|0 7|(null)|(null)|106|3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			l := FetchLayout{Value: json, ValueFields: c.valueFields, Key: &json, KeyNames: []string{"id"}, KeyFields: []int{0}, Upsert: true}
			names, ts := []string{"k", "a", "b"}, types[:3]
			if c.metadata {
				l.Metadata = []string{"offset"}
				names, ts = append(names, "offset"), types
			}
			f, err := NewValueFetch(l, names, ts, mem)
			if err != nil {
				t.Fatal(err)
			}
			if !f.ReadsTombstones() {
				t.Fatal("tombstones not read")
			}
			f.SetKeys(keys, keyStarts)
			f.SetTombstones(tombstones)
			if c.metadata {
				f.SetRecords("t", 0, meta)
			}
			left, rows := decodeAll(t, f, values, starts)
			// Record 5's value is Flink's (duplicate keys); records 3 (no key) and 4 (an
			// empty value, no tombstone) make no row.
			if fmt.Sprint(left) != "[5]" || strings.Join(rows, " ") != c.want {
				t.Fatalf("left to Flink %v, rows\n%s\nwant\n%s", left, strings.Join(rows, " "), c.want)
			}
		})
	}
}

// An upsert fetch without its tombstone marks is an error, not a guess.
func TestValueFetchUpsertsNeedTombstones(t *testing.T) {
	json := kafkavalue.Format{Name: "json"}
	f, err := NewValueFetch(FetchLayout{Value: json, ValueFields: []int{1, 2}, Key: &json, KeyNames: []string{"id"}, KeyFields: []int{0}, Upsert: true},
		[]string{"k", "a", "b"}, []catalog.Type{catalog.IntType(true), catalog.IntType(true), catalog.StringType(true)}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	keys, keyStarts := concat(`{"id":1}`)
	values, starts := concat(``)
	f.SetKeys(keys, keyStarts)
	if _, err := f.Decode(values, starts, 0); err == nil || !strings.Contains(err.Error(), "tombstone marks") {
		t.Fatalf("error %v, want one about the missing tombstone marks", err)
	}
	if _, err := NewValueFetch(FetchLayout{Value: json, Upsert: true}, []string{"k"}, []catalog.Type{catalog.IntType(true)}, memory.DefaultAllocator); err == nil {
		t.Fatal("upserts without a key format accepted")
	}
}
