package chain

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
)

// sideBatch is a batch of (id, num, name, window_start, window_end) rows of 5-second windows,
// marked as one join input.
func sideBatch(t *testing.T, side string, rows ...[3]any) arrow.RecordBatch {
	t.Helper()
	mem := memory.DefaultAllocator
	id, num, name := array.NewStringBuilder(mem), array.NewInt32Builder(mem), array.NewStringBuilder(mem)
	ts := &arrow.TimestampType{Unit: arrow.Millisecond}
	ws, we := array.NewTimestampBuilder(mem, ts), array.NewTimestampBuilder(mem, ts)
	for i, r := range rows {
		id.Append(fmt.Sprintf("%s%d", side[:1], i))
		num.Append(int32(i))
		if r[0] == nil {
			name.AppendNull()
		} else {
			name.Append(r[0].(string))
		}
		end := r[1].(int64)
		ws.Append(arrow.Timestamp(end - 5000))
		we.Append(arrow.Timestamp(end))
	}
	cols := []arrow.Array{id.NewArray(), num.NewArray(), name.NewArray(), ws.NewArray(), we.NewArray()}
	names := []string{"id", "num", "name", "window_start", "window_end"}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: names[i], Type: c.DataType(), Nullable: true}
	}
	meta := arrow.NewMetadata([]string{plan.JoinSideMetadata}, []string{side})
	return array.NewRecordBatch(arrow.NewSchema(fields, &meta), cols, int64(len(rows)))
}

// The window joins of Flink's restore tests window-join-inner/full-outer-tumble-event-time
// (5-second TUMBLE windows joined on name) as native chains: batches of both inputs by key group,
// then a watermark fires the windows; NULL names match nothing, rows of fired windows are late.
func TestWindowJoinChain(t *testing.T) {
	opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127",
		plan.OptAutoWatermarkInterval: "200"}
	for _, c := range []struct {
		island string
		want   []string
	}{
		{"window_join_inner.json", []string{"l0 a | r0 a", "l0 a | r2 a", "l2 b | r1 b"}},
		{"window_join_full.json", []string{"- | r3 <nil>", "l0 a | r0 a", "l0 a | r2 a", "l1 <nil> | -", "l2 b | r1 b", "l3 c | -"}},
	} {
		ch, err := Open(islands.WithOptions(t, islands.Read(t, c.island), opts))
		if err != nil {
			t.Fatalf("%s: %v", c.island, err)
		}
		for _, b := range []arrow.RecordBatch{
			sideBatch(t, plan.JoinSideLeft, [3]any{"a", int64(5000)}, [3]any{nil, int64(5000)}, [3]any{"b", int64(5000)}, [3]any{"c", int64(5000)}),
			sideBatch(t, plan.JoinSideRight, [3]any{"a", int64(5000)}, [3]any{"b", int64(5000)}, [3]any{"a", int64(5000)}, [3]any{nil, int64(5000)}),
		} {
			if err := ch.ProcessBatch(b); err != nil {
				t.Fatal(err)
			}
			b.Release()
		}
		if err := ch.AdvanceWatermark(4999); err != nil {
			t.Fatal(err)
		}
		got := joinRows(t, ch)
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %q, want %q", c.island, got, c.want)
		}
		late := sideBatch(t, plan.JoinSideLeft, [3]any{"a", int64(5000)})
		if err := ch.ProcessBatch(late); err != nil {
			t.Fatal(err)
		}
		if ch.LateDropped() != 1 {
			t.Errorf("%s: %d late rows dropped, want 1", c.island, ch.LateDropped())
		}
		unmarked := sideBatch(t, "x", [3]any{"a", int64(9000)})
		if err := ch.ProcessBatch(unmarked); err == nil {
			t.Errorf("%s: a batch without its side should be an error", c.island)
		}
		changelog := withKinds(sideBatch(t, plan.JoinSideLeft, [3]any{"a", int64(9000)}), catalog.RowKindColumn)
		if err := ch.ProcessBatch(changelog); err == nil || !strings.Contains(err.Error(), "it reads inserts only") {
			t.Errorf("%s: a changelog batch: %v", c.island, err)
		}
		misnamed := withKinds(sideBatch(t, plan.JoinSideLeft, [3]any{"a", int64(9000)}), "kind")
		if err := ch.ProcessBatch(misnamed); err == nil || !strings.Contains(err.Error(), "a batch of 6 columns for an input of 5 fields") {
			t.Errorf("%s: a batch with an extra column: %v", c.island, err)
		}
	}
}

// withKinds appends an int8 column (all +I) named name to a batch, keeping its metadata.
func withKinds(b arrow.RecordBatch, name string) arrow.RecordBatch {
	kb := array.NewInt8Builder(memory.DefaultAllocator)
	for r := int64(0); r < b.NumRows(); r++ {
		kb.Append(0)
	}
	meta := b.Schema().Metadata()
	fields := append(b.Schema().Fields(), arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int8})
	return array.NewRecordBatch(arrow.NewSchema(fields, &meta), append(b.Columns(), kb.NewArray()), b.NumRows())
}

// joinRows renders the chain's output rows as "id name | id name" ("-" for a NULL side).
func joinRows(t *testing.T, ch *Chain) []string {
	t.Helper()
	data, offsets, _ := ch.Output()
	types := make([]catalog.Type, 10)
	names := make([]string, 10)
	for i := range types {
		names[i] = fmt.Sprint("f", i)
		switch i % 5 {
		case 1:
			types[i] = catalog.IntType(true)
		case 3, 4:
			types[i] = catalog.TimestampType(3, true)
		default:
			types[i] = catalog.StringType(true)
		}
	}
	d, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Decode(data, offsets)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	var out []string
	side := func(r int, from int) string {
		id := b.Column(from).(*array.String)
		if id.IsNull(r) {
			return "-"
		}
		name := b.Column(from + 2).(*array.String)
		n := "<nil>"
		if name.IsValid(r) {
			n = name.Value(r)
		}
		return id.Value(r) + " " + n
	}
	for r := 0; r < int(b.NumRows()); r++ {
		out = append(out, side(r, 0)+" | "+side(r, 5))
	}
	return out
}
