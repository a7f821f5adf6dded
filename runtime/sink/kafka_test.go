package sink

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/recordends"
	"github.com/sluice-project/sluice/testkit/islands"
)

// records splits Encode's output into its record values.
func records(t *testing.T, out []byte) []string {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(out))
	body := out[4*(n+3):]
	var recs []string
	for r := range n {
		from, to := binary.LittleEndian.Uint32(out[4*(r+2):]), binary.LittleEndian.Uint32(out[4*(r+3):])
		recs = append(recs, string(body[from:to]))
	}
	return recs
}

// TestKafkaEncoder encodes a batch for the golden Kafka sink: one record per row, null fields
// left out ('json.encode.ignore-null-fields'), and a NULL in the NOT NULL column failing with
// Flink's message (the enforcer's default ERROR mode).
func TestKafkaEncoder(t *testing.T) {
	e, err := OpenKafkaEncoder(islands.KafkaSink(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	b := goldenBatch([]string{"x", "y"}, nil)
	defer b.Release()
	out, err := e.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(records(t, out), "\n")
	want := `{"auction":1,"p2":10,"ts":"2023-11-14 22:13:20.5","note":"x"}` + "\n" + `{"auction":2,"note":"y"}`
	if got != want {
		t.Fatalf("records\n%s\nwant\n%s", got, want)
	}
	bad := goldenBatch([]string{"x", ""}, []bool{true, false})
	defer bad.Release()
	if _, err := e.Encode(bad); err == nil || !strings.Contains(err.Error(), "note") || !strings.Contains(err.Error(), "out_t") {
		t.Fatalf("a NULL note: error %v, want the NOT NULL failure naming the column and the table", err)
	}
}

// TestKafkaEncoderKeys encodes the key's fields with the key format after the values, which
// leave them out under 'value.fields-include' = 'EXCEPT_KEY'.
func TestKafkaEncoderKeys(t *testing.T) {
	e, err := OpenKafkaEncoder(islands.KafkaSink(t, map[string]string{"key.format": "raw", "key.fields": "note",
		"value.fields-include": "EXCEPT_KEY"}))
	if err != nil {
		t.Fatal(err)
	}
	b := goldenBatch([]string{"x", "y"}, nil)
	defer b.Release()
	out, err := e.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(out))
	if flags := binary.LittleEndian.Uint32(out[4:]); flags != 1 {
		t.Fatalf("flags %d, want keys only", flags)
	}
	valueEnd := int(binary.LittleEndian.Uint32(out[4*(n+2):]))
	keys := append(binary.LittleEndian.AppendUint32(nil, uint32(n)), 0, 0, 0, 0)
	keys = append(keys, out[4*(n+3)+valueEnd:]...)
	got := strings.Join(records(t, out), "\n") + "\n" + strings.Join(records(t, keys), "\n")
	want := `{"auction":1,"p2":10,"ts":"2023-11-14 22:13:20.5"}` + "\n" + `{"auction":2}` + "\nx\ny"
	if got != want {
		t.Fatalf("records\n%s\nwant\n%s", got, want)
	}
}

// goldenBatch is a batch of the golden sink's columns with the given notes.
func goldenBatch(notes []string, valid []bool) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "p2", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{10, 0}, []bool{true, false})
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1700000000500, 0}, []bool{true, false})
	b.Field(3).(*array.StringBuilder).AppendValues(notes, valid)
	return b.NewRecordBatch()
}

// section reads n records' ends and bytes at out[at:]: the records ("<none>" for a record
// without a value) and where the section ends.
func section(out []byte, at, n int) ([]string, int) {
	body := at + 4*(n+1)
	var recs []string
	for r := range n {
		from := binary.LittleEndian.Uint32(out[at+4*r:]) &^ recordends.NullValue
		to := binary.LittleEndian.Uint32(out[at+4*(r+1):])
		if to&recordends.NullValue != 0 {
			recs = append(recs, "<none>")
			continue
		}
		recs = append(recs, string(out[body+int(from):body+int(to)]))
	}
	return recs, body + int(binary.LittleEndian.Uint32(out[at+4*n:])&^recordends.NullValue)
}

// TestKafkaEncoderUpserts encodes the changes into an upsert-kafka table: every record keyed by
// the primary key, +I and +U with the row's value, -U and -D as tombstones (no value), and a
// batch of inserts only (no RowKind column) as values.
func TestKafkaEncoderUpserts(t *testing.T) {
	e, err := OpenKafkaEncoder(islands.UpsertKafkaSink(t, nil, false))
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int32},
		{Name: "p2", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String},
		{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8},
	}, nil)
	rows := `[{"auction": 1, "p2": 10, "note": "a", "$row_kind": 0},
		{"auction": 1, "p2": 10, "note": "a", "$row_kind": 1},
		{"auction": 1, "p2": 11, "note": "b", "$row_kind": 2},
		{"auction": 2, "note": "c", "$row_kind": 0},
		{"auction": 2, "note": "c", "$row_kind": 3},
		{"auction": 1, "p2": 11, "note": "b", "$row_kind": 3}]`
	for _, c := range []struct {
		name   string
		fields int // the batch's columns
		want   string
	}{
		{"changes", 5, `{"auction":1} => {"auction":1,"p2":10,"note":"a"}
{"auction":1} => <none>
{"auction":1} => {"auction":1,"p2":11,"note":"b"}
{"auction":2} => {"auction":2,"note":"c"}
{"auction":2} => <none>
{"auction":1} => <none>`},
		{"inserts", 4, `{"auction":1} => {"auction":1,"p2":10,"note":"a"}
{"auction":1} => {"auction":1,"p2":10,"note":"a"}
{"auction":1} => {"auction":1,"p2":11,"note":"b"}
{"auction":2} => {"auction":2,"note":"c"}
{"auction":2} => {"auction":2,"note":"c"}
{"auction":1} => {"auction":1,"p2":11,"note":"b"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			all, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
			if err != nil {
				t.Fatal(err)
			}
			defer all.Release()
			b := array.NewRecordBatch(arrow.NewSchema(schema.Fields()[:c.fields], nil), all.Columns()[:c.fields], all.NumRows())
			defer b.Release()
			out, err := e.Encode(b)
			if err != nil {
				t.Fatal(err)
			}
			n := int(binary.LittleEndian.Uint32(out))
			if flags := binary.LittleEndian.Uint32(out[4:]); flags != 1 {
				t.Fatalf("flags %d, want keys only", flags)
			}
			values, end := section(out, 8, n)
			keys, end := section(out, end, n)
			if end != len(out) {
				t.Fatalf("%d bytes after the keys", len(out)-end)
			}
			var got []string
			for r := range n {
				got = append(got, keys[r]+" => "+values[r])
			}
			if strings.Join(got, "\n") != c.want {
				t.Fatalf("records\n%s\nwant\n%s", strings.Join(got, "\n"), c.want)
			}
		})
	}
}

// TestKafkaEncoderRefusesChanges checks that a Kafka table of inserts fails on a batch of
// changes rather than writing them as inserts.
func TestKafkaEncoderRefusesChanges(t *testing.T) {
	e, err := OpenKafkaEncoder(islands.KafkaSink(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	b := goldenBatch([]string{"x", "y"}, nil)
	defer b.Release()
	kinds := array.NewInt8Builder(memory.DefaultAllocator)
	defer kinds.Release()
	kinds.AppendValues([]int8{0, 3}, nil)
	k := kinds.NewArray()
	defer k.Release()
	fields := append(b.Schema().Fields(), arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	changes := array.NewRecordBatch(arrow.NewSchema(fields, nil), append(b.Columns(), k), b.NumRows())
	defer changes.Release()
	if _, err := e.Encode(changes); err == nil || !strings.Contains(err.Error(), "inserts only") {
		t.Fatalf("error %v, want a refusal of changes", err)
	}
}
