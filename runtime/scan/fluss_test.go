package scan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/flussbatch"
)

// flussScanJSON is the island of a native scan of a Fluss table (id INT, name STRING, v BIGINT)
// reading name and id, in that order.
func flussScanJSON(t *testing.T, primaryKey bool) []byte {
	t.Helper()
	exec, err := json.Marshal(map[string]any{"id": 0, "type": plan.FlussScanType, "table": "fluss.db.t",
		"columns": "ROW<`id` INT, `name` STRING, `v` BIGINT>", "projection": []int{1, 0}, "primaryKey": primaryKey,
		"streaming": true, "startupMode": "earliest", "logFormat": "ARROW"})
	if err != nil {
		t.Fatal(err)
	}
	is, err := json.Marshal(map[string]any{"version": 1, "nodes": []any{map[string]any{"name": "TableSourceScan#0", "exec": json.RawMessage(exec)}}, "options": map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	return is
}

// fetchedBatch is a log batch of the fetched columns (id, name; the server's projection keeps
// the table's order) with the given ids, named "n<id>".
func fetchedBatch(t *testing.T, base int64, ids []int32, changeTypes []byte) []byte {
	t.Helper()
	s := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for _, id := range ids {
		b.Field(0).(*array.Int32Builder).Append(id)
		b.Field(1).(*array.StringBuilder).Append("n" + string(rune('0'+id)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return flussbatch.Encode(t, base, rec, changeTypes)
}

// A fetch's batches become one batch in the scan's column order; rows before the fetch's offset
// (a split restored inside a batch) are dropped, batches before it skipped, a partial batch at
// the end left for the next fetch; a changelog's rows carry their RowKinds.
func TestFlussFetch(t *testing.T) {
	for _, c := range []struct {
		name      string
		changelog bool
		from      int64
		want      string
		next      int64
	}{
		{"from the start", false, EarliestOffset, "n1|1 n2|2 n3|3 n4|4 n5|5", 15},
		{"inside the first batch", false, 11, "n2|2 n3|3 n4|4 n5|5", 15},
		{"past the first batch", false, 13, "n4|4 n5|5", 15},
		{"changelog", true, 12, "n3|3|2 n4|4|3 n5|5|0", 15},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := OpenFlussFetch(flussScanJSON(t, c.changelog))
			if err != nil {
				t.Fatal(err)
			}
			var first, second []byte
			if c.changelog {
				first, second = []byte{1, 2, 3}, []byte{4, 1}
			}
			records := append(fetchedBatch(t, 10, []int32{1, 2, 3}, first), fetchedBatch(t, 13, []int32{4, 5}, second)...)
			partial := fetchedBatch(t, 15, []int32{6}, nil)
			records = append(records, partial[:len(partial)-3]...)
			b, next, err := f.Decode(records, c.from)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			var rows []string
			for r := 0; r < int(b.NumRows()); r++ {
				var row []string
				for _, col := range b.Columns() {
					row = append(row, col.ValueStr(r))
				}
				rows = append(rows, strings.Join(row, "|"))
			}
			if strings.Join(rows, " ") != c.want || next != c.next {
				t.Fatalf("rows %v, next %d; want %s, %d", rows, next, c.want, c.next)
			}
		})
	}
}
