package chain

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
)

// timedBatch is a batch of (id, text, ts) rows marked as one join input.
func timedBatch(side string, rows ...[2]int64) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	id, text := array.NewInt32Builder(mem), array.NewStringBuilder(mem)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	for _, r := range rows {
		id.Append(int32(r[0]))
		text.Append(fmt.Sprintf("%s%d", side[:1], r[1]))
		ts.Append(arrow.Timestamp(r[1]))
	}
	cols := []arrow.Array{id.NewArray(), text.NewArray(), ts.NewArray()}
	names := []string{"id", "text", "ts"}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: names[i], Type: c.DataType(), Nullable: true}
	}
	meta := arrow.NewMetadata([]string{plan.JoinSideMetadata}, []string{side})
	return array.NewRecordBatch(arrow.NewSchema(fields, &meta), cols, int64(len(rows)))
}

// The interval join of Flink's restore test interval-join-event-time (orders and shipments on
// id, order_ts within 5 seconds of shipment_ts) as a native chain: rows join as they arrive,
// and the watermarks it passes on are held back by 5 seconds.
func TestIntervalJoinChain(t *testing.T) {
	opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127"}
	ch, err := Open(islands.WithOptions(t, islands.Read(t, "interval_join_event_time.json"), opts))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		batch arrow.RecordBatch
		wm    int64
		want  []string
	}{
		{batch: timedBatch(plan.JoinSideLeft, [2]int64{1, 10000}, [2]int64{2, 20000}, [2]int64{3, 21000})},
		{batch: timedBatch(plan.JoinSideRight, [2]int64{1, 12000}, [2]int64{1, 16000}, [2]int64{2, 30000}, [2]int64{3, 26000}),
			want: []string{"1 l10000 | 1 r12000", "3 l21000 | 3 r26000"}},
		{wm: 20000},
		{batch: timedBatch(plan.JoinSideLeft, [2]int64{2, 27000}, [2]int64{1, 9000}),
			want: []string{"2 l27000 | 2 r30000"}},
	}
	for i, st := range steps {
		if st.batch != nil {
			err = ch.ProcessBatch(st.batch)
			st.batch.Release()
		} else {
			err = ch.AdvanceWatermark(st.wm)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := timedRows(t, ch)
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(st.want) {
			t.Errorf("step %d: got %q, want %q", i, got, st.want)
		}
		if st.batch == nil {
			if m := ch.Markers(); len(m) != 1 || m[0].Watermark != st.wm-5000 {
				t.Errorf("step %d: markers %v, want the watermark %d held back to %d", i, m, st.wm, st.wm-5000)
			}
		}
	}
	if ch.StateKeys() == 0 {
		t.Error("no keys in state")
	}
	if err := ch.ProcessBatch(timedBatch("x", [2]int64{1, 1})); err == nil {
		t.Error("a batch without its side should be an error")
	}
}

// timedRows renders the chain's output rows of two (id, text, ts) inputs as "id text | id text".
func timedRows(t *testing.T, ch *Chain) []string {
	t.Helper()
	data, offsets, _ := ch.Output()
	var types []catalog.Type
	var names []string
	for i := 0; i < 6; i++ {
		names = append(names, fmt.Sprint("f", i))
		types = append(types, [...]catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.TimestampType(3, true)}[i%3])
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
	side := func(r, from int) string {
		id := b.Column(from).(*array.Int32)
		if id.IsNull(r) {
			return "-"
		}
		return fmt.Sprint(id.Value(r), " ", b.Column(from+1).(*array.String).Value(r))
	}
	for r := 0; r < int(b.NumRows()); r++ {
		out = append(out, side(r, 0)+" | "+side(r, 3))
	}
	return out
}

// The same join on processing time: rows take the arrival times Java passes with each batch,
// the cleanup timers fire on the clock (a LEFT join would pad there; this INNER one only drops
// rows), and watermarks pass unchanged.
func TestIntervalJoinChainProcTime(t *testing.T) {
	opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127"}
	island := bytes.Replace(islands.Read(t, "interval_join_event_time.json"), []byte(`"isEventTime": true`), []byte(`"isEventTime": false`), 1)
	ch, err := Open(islands.WithOptions(t, island, opts))
	if err != nil {
		t.Fatal(err)
	}
	// The rows' own ts values no longer matter: only the clock does.
	process := func(at int64, b arrow.RecordBatch) []string {
		t.Helper()
		defer b.Release()
		if err := ch.SetArrivals([]Arrival{{FirstRow: 0, Time: at}}); err != nil {
			t.Fatal(err)
		}
		if err := ch.ProcessBatch(b); err != nil {
			t.Fatal(err)
		}
		got := timedRows(t, ch)
		sort.Strings(got)
		return got
	}
	if got := process(100_000, timedBatch(plan.JoinSideLeft, [2]int64{1, 1}, [2]int64{2, 2})); len(got) != 0 {
		t.Fatalf("first input joined %q", got)
	}
	if next := ch.NextProcessingTimer(); next != 100_000+5000+1 {
		t.Errorf("next processing-time timer %d, want %d", next, 100_000+5000+1)
	}
	// 4 s later both left rows are still within 5 s: key 1 joins.
	if got, want := process(104_000, timedBatch(plan.JoinSideRight, [2]int64{1, 3})), []string{"1 l1 | 1 r3"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := ch.AdvanceWatermark(1 << 40); err != nil {
		t.Fatal(err)
	}
	if m := ch.Markers(); len(m) != 1 || m[0].Watermark != 1<<40 {
		t.Errorf("markers %v, want the watermark passed unchanged", m)
	}
	if ch.StateKeys() == 0 {
		t.Fatal("no keys in state")
	}
	// The clock passes both caches' cleanup timers (left rows at 105001, the right one at
	// 109001): the state is empty and no timer is left.
	if err := ch.AdvanceProcessingTime(110_000); err != nil {
		t.Fatal(err)
	}
	if n := ch.StateKeys(); n != 0 {
		t.Errorf("%d keys in state after the cleanups", n)
	}
	if next := ch.NextProcessingTimer(); next != math.MaxInt64 {
		t.Errorf("next processing-time timer %d after the cleanups", next)
	}
	if err := ch.ProcessBatch(timedBatch(plan.JoinSideLeft, [2]int64{1, 5})); err == nil {
		t.Error("a processing-time batch without arrival times should be an error")
	}
}
