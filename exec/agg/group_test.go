package agg

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/statettl"
)

// groupBatch is a batch of (key, value) rows, keys in key group 0 ("-" for a NULL value), each
// an insert or with its RowKind first ("-U a=1").
func groupBatch(rows ...string) (*GroupInput, func()) {
	mem := memory.DefaultAllocator
	vals := array.NewInt64Builder(mem)
	in := &GroupInput{KeyOffsets: []int32{0}}
	kinds := map[string]int8{"+I": changelog.Insert, "-U": changelog.UpdateBefore, "+U": changelog.UpdateAfter, "-D": changelog.Delete}
	for _, r := range rows {
		kind := changelog.Insert
		if k, rest, ok := strings.Cut(r, " "); ok {
			kind, r = kinds[k], rest
			if in.Kinds == nil {
				in.Kinds = make([]int8, len(in.KeyGroups))
			}
		}
		if in.Kinds != nil {
			in.Kinds = append(in.Kinds, kind)
		}
		k, v, _ := strings.Cut(r, "=")
		in.Keys = append(in.Keys, k...)
		in.KeyOffsets = append(in.KeyOffsets, int32(len(in.Keys)))
		in.KeyGroups = append(in.KeyGroups, 0)
		if v == "-" {
			vals.AppendNull()
		} else {
			var n int64
			fmt.Sscan(v, &n)
			vals.Append(n)
		}
	}
	col := vals.NewArray()
	in.N = len(rows)
	in.Args = []arrow.Array{nil, col, col}
	in.Filters = []arrow.Array{nil, nil, nil}
	return in, col.Release
}

// render lists changes as "+I a 1 5 5" (kind, key, then the values).
func render(t *testing.T, in *GroupInput, ch *Changes) []string {
	t.Helper()
	var out []string
	for i, k := range ch.Kinds {
		r := ch.Rows[i]
		s := [...]string{"+I", "-U", "+U", "-D"}[k] + " " + string(in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]])
		for _, v := range ch.Values {
			if v.IsNull(i) {
				s += " -"
			} else {
				s += fmt.Sprint(" ", v.(*array.Int64).Value(i))
			}
		}
		out = append(out, s)
	}
	return out
}

// checkBatches runs groupBatch batches through g and checks the changes of each.
func checkBatches(t *testing.T, g *GroupAggregate, batches, want [][]string) {
	t.Helper()
	checkInputs(t, g, batches, want, false)
}

// checkInputs runs groupBatch batches (bundles when bundle is set) through g and checks the
// changes of each.
func checkInputs(t *testing.T, g *GroupAggregate, batches, want [][]string, bundle bool) {
	t.Helper()
	for i, rows := range batches {
		in, release := groupBatch(rows...)
		in.Bundle = bundle
		ch, err := g.Process(memory.DefaultAllocator, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := render(t, in, ch); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("batch %d: got %q, want %q", i, got, want[i])
		}
		ch.Release()
		release()
	}
}

func newGroup(t *testing.T, updateBefore bool) *GroupAggregate {
	return newGroupOf(t, updateBefore, false)
}

// newGroupOf returns COUNT(*), SUM(v), MAX(v) per key, over input with retractions or not.
func newGroupOf(t *testing.T, updateBefore, retractions bool) *GroupAggregate {
	t.Helper()
	long := catalog.BigIntType(true)
	return newGroupCalls(t, []Call{{Func: CountStar, Result: catalog.BigIntType(false), Retract: retractions},
		{Func: Sum, Arg: long, Result: long, Retract: retractions}, {Func: Max, Arg: long, Result: long, Retract: retractions}},
		updateBefore, retractions)
}

// newGroupCalls returns a group aggregation of calls over key group 0.
func newGroupCalls(t *testing.T, calls []Call, updateBefore, retractions bool) *GroupAggregate {
	t.Helper()
	g, err := NewGroupAggregate(GroupConfig{Calls: calls, GenerateUpdateBefore: updateBefore, Retractions: retractions,
		KeyGroups: keygroup.Range{Start: 0, End: 0}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The changes of COUNT(*), SUM(v), MAX(v) per key as GroupAggHelper emits them, row by row,
// also for several rows of one key in a batch (rounds) and across batches.
func TestGroupAggregateChanges(t *testing.T) {
	for _, c := range []struct {
		name         string
		updateBefore bool
		batches      [][]string
		want         [][]string
	}{
		{"first rows insert, later ones update", true,
			[][]string{{"a=1", "b=2", "a=3"}, {"b=-", "a=2"}},
			[][]string{{"+I a 1 1 1", "+I b 1 2 2", "-U a 1 1 1", "+U a 2 4 3"}, {"-U b 1 2 2", "+U b 2 2 2", "-U a 2 4 3", "+U a 3 6 3"}}},
		{"without update-before", false,
			[][]string{{"a=1", "a=1", "a=1"}},
			[][]string{{"+I a 1 1 1", "+U a 2 2 1", "+U a 3 3 1"}}},
		{"one key for a whole batch", true,
			[][]string{{"k=5", "k=-", "k=1", "k=7"}},
			[][]string{{"+I k 1 5 5", "-U k 1 5 5", "+U k 2 5 5", "-U k 2 5 5", "+U k 3 6 5", "-U k 3 6 5", "+U k 4 13 7"}}},
	} {
		t.Run(c.name, func(t *testing.T) { checkBatches(t, newGroup(t, c.updateBefore), c.batches, c.want) })
	}
}

// Over input with retractions: -U/-D rows are retracted (MAX falls back to the largest value
// left), a key whose rows are all retracted is deleted (-D of its last result) with its state,
// and a retraction of a key without state is dropped, as GroupAggHelper does.
func TestGroupAggregateRetractions(t *testing.T) {
	for _, c := range []struct {
		name    string
		batches [][]string
		want    [][]string
	}{
		{"retracting the last row deletes the key", [][]string{{"a=1", "b=2", "-U a=1", "+U a=5"}, {"-D z=3", "-D b=2"}},
			[][]string{{"+I a 1 1 1", "+I b 1 2 2", "-D a 1 1 1", "+I a 1 5 5"}, {"-D b 1 2 2"}}},
		{"MAX falls back to the next value", [][]string{{"a=5", "a=7", "-U a=7"}, {"-U a=5", "+U a=-"}},
			[][]string{{"+I a 1 5 5", "-U a 1 5 5", "+U a 2 12 7", "-U a 2 12 7", "+U a 1 5 5"},
				{"-D a 1 5 5", "+I a 1 - -"}}},
		{"a retraction first is dropped", [][]string{{"-D a=4", "-U a=4", "a=2"}}, [][]string{{"+I a 1 2 2"}}},
		{"deleted and inserted again in one batch, many rounds", [][]string{{"k=1", "-D k=1", "k=2", "k=3", "-U k=2", "-D k=3", "-D k=3"}},
			[][]string{{"+I k 1 1 1", "-D k 1 1 1", "+I k 1 2 2", "-U k 1 2 2", "+U k 2 5 3", "-U k 2 5 3", "+U k 1 3 3", "-D k 1 3 3"}}},
		{"retracting a value below MAX", [][]string{{"a=4", "a=0", "-U a=0"}},
			[][]string{{"+I a 1 4 4", "-U a 1 4 4", "+U a 2 4 4", "-U a 2 4 4", "+U a 1 4 4"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGroupOf(t, true, true)
			checkBatches(t, g, c.batches, c.want)
			if got := g.StateKeys(); got != int64(g.groups[0].table.Len()) {
				t.Errorf("%d keys counted, %d in state", got, g.groups[0].table.Len())
			}
		})
	}
}

// An aggregation planned for input without retractions refuses them.
func TestGroupAggregateRefusesUnplannedRetractions(t *testing.T) {
	in, release := groupBatch("a=1", "-U a=1")
	defer release()
	if _, err := newGroup(t, true).Process(memory.DefaultAllocator, in); err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("got %v, want an error naming row 1", err)
	}
}

// A row that leaves every result as it was emits nothing (no state TTL): here MAX alone.
func TestGroupAggregateEqualResults(t *testing.T) {
	long := catalog.BigIntType(true)
	g, err := NewGroupAggregate(GroupConfig{Calls: []Call{{Func: Max, Arg: long, Result: long}}, GenerateUpdateBefore: true,
		KeyGroups: keygroup.Range{Start: 0, End: 0}})
	if err != nil {
		t.Fatal(err)
	}
	in, release := groupBatch("a=5", "a=3", "a=-", "a=9", "a=9")
	defer release()
	in.Args, in.Filters = in.Args[1:2], in.Filters[:1]
	ch, err := g.Process(memory.DefaultAllocator, in)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Release()
	if got, want := render(t, in, ch), []string{"+I a 5", "-U a 5", "+U a 9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A snapshot restored into a new aggregation goes on as the one it was taken from; corrupt
// state is refused with the key group named.
func TestGroupAggregateSnapshotRestore(t *testing.T) {
	g := newGroup(t, true)
	in, release := groupBatch("a=1", "b=2", "a=3")
	defer release()
	ch, err := g.Process(memory.DefaultAllocator, in)
	if err != nil {
		t.Fatal(err)
	}
	ch.Release()
	blob, err := g.Snapshot(0)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored := newGroup(t, true)
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	if restored.StateKeys() != 2 {
		t.Errorf("%d keys restored, want 2", restored.StateKeys())
	}
	next, release2 := groupBatch("a=10", "c=1")
	defer release2()
	for _, op := range []*GroupAggregate{g, restored} {
		ch, err := op.Process(memory.DefaultAllocator, next)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := render(t, next, ch), []string{"-U a 2 4 3", "+U a 3 14 10", "+I c 1 1 1"}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
		ch.Release()
	}
	blob[len(blob)-1] ^= 1
	if err := newGroup(t, true).Restore(0, blob); err == nil || !strings.Contains(err.Error(), "key group 0") {
		t.Errorf("corrupt state: %v", err)
	}
	if _, err := g.Snapshot(3); err == nil {
		t.Error("a snapshot of another subtask's key group should be an error")
	}
}

// The state of an aggregation over retractions (row counts, MAX's values with their counts)
// restores into one that goes on as the original.
func TestGroupAggregateRetractionsSnapshotRestore(t *testing.T) {
	checkRestore(t, func() *GroupAggregate { return newGroupOf(t, true, true) }, []string{"a=5", "a=7", "a=7", "b=1"},
		[]string{"-U a=7", "-D a=7", "-D b=1"}, []string{"-U a 3 19 7", "+U a 2 12 7", "-U a 2 12 7", "+U a 1 5 5", "-D b 1 1 1"})
}

// checkRestore runs the rows first through a new aggregation, restores its snapshot into
// another, and checks that next gives the changes want in both.
func checkRestore(t *testing.T, newAgg func() *GroupAggregate, first, next, want []string) {
	t.Helper()
	g := newAgg()
	in, release := groupBatch(first...)
	defer release()
	ch, err := g.Process(memory.DefaultAllocator, in)
	if err != nil {
		t.Fatal(err)
	}
	ch.Release()
	blob, err := g.Snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	restored := newAgg()
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	nextIn, release2 := groupBatch(next...)
	defer release2()
	for _, op := range []*GroupAggregate{g, restored} {
		ch, err := op.Process(memory.DefaultAllocator, nextIn)
		if err != nil {
			t.Fatal(err)
		}
		if got := render(t, nextIn, ch); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
		ch.Release()
	}
}

// BenchmarkGroupAggregate aggregates COUNT(*), SUM, MAX over 1024-row batches of 10,000 keys.
func BenchmarkGroupAggregate(b *testing.B) {
	benchmarkGroupAggregate(b, 10000)
}

// BenchmarkGroupAggregateOneKey is BenchmarkGroupAggregate for a global aggregation: every row
// of a batch has the same key (1024 rounds).
func BenchmarkGroupAggregateOneKey(b *testing.B) {
	benchmarkGroupAggregate(b, 1)
}

func benchmarkGroupAggregate(b *testing.B, keys int) {
	long := catalog.BigIntType(true)
	g, err := NewGroupAggregate(GroupConfig{Calls: []Call{{Func: CountStar, Result: catalog.BigIntType(false)},
		{Func: Sum, Arg: long, Result: long}, {Func: Max, Arg: long, Result: long}},
		GenerateUpdateBefore: true, KeyGroups: keygroup.Range{Start: 0, End: 0}})
	if err != nil {
		b.Fatal(err)
	}
	var rows []string
	for i := 0; i < 1024; i++ {
		rows = append(rows, fmt.Sprintf("key%d=%d", i*7919%keys, i))
	}
	in, release := groupBatch(rows...)
	defer release()
	b.ReportAllocs()
	for b.Loop() {
		ch, err := g.Process(memory.DefaultAllocator, in)
		if err != nil {
			b.Fatal(err)
		}
		ch.Release()
	}
}

// newDistinctGroup returns COUNT(*), COUNT(DISTINCT v), SUM(DISTINCT v) per key.
func newDistinctGroup(t *testing.T, retractions bool) *GroupAggregate {
	t.Helper()
	long := catalog.BigIntType(true)
	return newGroupCalls(t, []Call{{Func: CountStar, Result: catalog.BigIntType(false), Retract: retractions},
		{Func: Count, Arg: long, Result: catalog.BigIntType(false), Distinct: true, Retract: retractions},
		{Func: Sum, Arg: long, Result: long, Distinct: true, Retract: retractions}}, true, retractions)
}

// DISTINCT calls count each value per key (Flink's MapView of counts): a value reaches the
// inner COUNT and SUM when its count goes from 0 to 1 and leaves them when it comes back to 0;
// a value retracted before it was accumulated counts below 0 and is not accumulated by the
// next row of it. NULLs are not counted.
func TestGroupAggregateDistinct(t *testing.T) {
	for _, c := range []struct {
		name        string
		retractions bool
		batches     [][]string
		want        [][]string
	}{
		{"repeated values count once", false, [][]string{{"a=1", "a=1", "a=2", "a=-"}, {"a=2", "b=2"}},
			[][]string{{"+I a 1 1 1", "-U a 1 1 1", "+U a 2 1 1", "-U a 2 1 1", "+U a 3 2 3", "-U a 3 2 3", "+U a 4 2 3"},
				{"-U a 4 2 3", "+U a 5 2 3", "+I b 1 1 2"}}},
		{"a value leaves when its last row is retracted", true, [][]string{{"a=1", "a=1", "a=2", "-U a=1"}, {"-D a=1", "+U a=3"}},
			[][]string{{"+I a 1 1 1", "-U a 1 1 1", "+U a 2 1 1", "-U a 2 1 1", "+U a 3 2 3", "-U a 3 2 3", "+U a 2 2 3"},
				{"-U a 2 2 3", "+U a 1 1 2", "-U a 1 1 2", "+U a 2 2 5"}}},
		{"a value retracted before it came", true, [][]string{{"a=1", "a=2", "-D a=5", "a=5", "a=5"}},
			[][]string{{"+I a 1 1 1", "-U a 1 1 1", "+U a 2 2 3", "-U a 2 2 3", "+U a 1 2 3", "-U a 1 2 3", "+U a 2 2 3",
				"-U a 2 2 3", "+U a 3 3 8"}}},
		{"a key's last row retracted clears its counts", true, [][]string{{"a=1", "-D a=5", "a=5"}},
			[][]string{{"+I a 1 1 1", "-D a 1 1 1", "+I a 1 1 5"}}},
	} {
		t.Run(c.name, func(t *testing.T) { checkBatches(t, newDistinctGroup(t, c.retractions), c.batches, c.want) })
	}
}

// The value counts of DISTINCT calls restore with the key's accumulators.
func TestGroupAggregateDistinctSnapshotRestore(t *testing.T) {
	checkRestore(t, func() *GroupAggregate { return newDistinctGroup(t, true) }, []string{"a=5", "a=7", "a=7", "b=1"},
		[]string{"-U a=7", "-D a=7", "b=1"}, []string{"-U a 3 2 12", "+U a 2 2 12", "-U a 2 2 12", "+U a 1 1 5", "-U b 1 1 1", "+U b 2 1 1"})
}

// With a state TTL, as GroupAggFunction with StateTtlConfig: every update is emitted, equal
// results too; a key whose state was last written a TTL ago or more is gone (its next row
// inserts, a retraction of it is dropped), and snapshots leave expired keys out.
func TestGroupAggregateStateTTL(t *testing.T) {
	long := catalog.BigIntType(true)
	var clock int64
	newMax := func() *GroupAggregate {
		g, err := NewGroupAggregate(GroupConfig{Calls: []Call{{Func: CountStar, Result: catalog.BigIntType(false), Retract: true},
			{Func: Max, Arg: long, Result: long, Retract: true}, {Func: Max, Arg: long, Result: long, Retract: true}},
			GenerateUpdateBefore: true, Retractions: true, KeyGroups: keygroup.Range{Start: 0, End: 0},
			StateTTL: statettl.TTL{Millis: 100, Clock: func() int64 { return clock }}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := newMax()
	process := func(op *GroupAggregate, at int64, rows ...string) []string {
		t.Helper()
		clock = at
		in, release := groupBatch(rows...)
		defer release()
		ch, err := op.Process(memory.DefaultAllocator, in)
		if err != nil {
			t.Fatal(err)
		}
		defer ch.Release()
		return render(t, in, ch)
	}
	for _, step := range []struct {
		at   int64
		rows []string
		want []string
	}{
		{1000, []string{"a=5", "b=1", "-U b=1", "b=1"}, []string{"+I a 1 5 5", "+I b 1 1 1", "-D b 1 1 1", "+I b 1 1 1"}},
		// a's MAX stays 5 and the update is emitted all the same.
		{1099, []string{"a=3", "-U a=3"}, []string{"-U a 1 5 5", "+U a 2 5 5", "-U a 2 5 5", "+U a 1 5 5"}},
		// a was written at 1099, b at 1000: b is gone, its retraction dropped.
		{1100, []string{"-D b=1", "a=9"}, []string{"-U a 1 5 5", "+U a 2 9 9"}},
		{1200, []string{"a=1", "b=2"}, []string{"+I a 1 1 1", "+I b 1 2 2"}},
	} {
		if got := process(g, step.at, step.rows...); !reflect.DeepEqual(got, step.want) {
			t.Errorf("at %d: got %q, want %q", step.at, got, step.want)
		}
	}
	// b written at 1200 and a at 1200; at 1299 both live, a restored copy goes on alike.
	clock = 1299
	blob, err := g.Snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	restored := newMax()
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	for _, op := range []*GroupAggregate{g, restored} {
		if got, want := process(op, 1299, "a=4"), []string{"-U a 1 1 1", "+U a 2 4 4"}; !reflect.DeepEqual(got, want) {
			t.Errorf("after restore: got %q, want %q", got, want)
		}
	}
	// At 1300 b has expired: the snapshot leaves it out.
	clock = 1300
	if blob, err = g.Snapshot(0); err != nil {
		t.Fatal(err)
	}
	if got := g.StateKeys(); got != 1 {
		t.Errorf("%d keys after b expired, want 1", got)
	}
	restored = newMax()
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	if got, want := process(restored, 1300, "b=7", "a=4"), []string{"+I b 1 7 7", "-U a 2 4 4", "+U a 3 4 4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("restored after expiry: got %q, want %q", got, want)
	}
}

// A DISTINCT call keeps its string values in memory of its own: the batch's buffers are
// recycled (overwritten here) after the call.
func TestGroupDistinctOwnsStrings(t *testing.T) {
	for _, retract := range []bool{false, true} {
		acc, err := NewGroupDistinct(Call{Func: Count, Arg: catalog.StringType(true), Result: catalog.BigIntType(false),
			Distinct: true, Retract: retract}, retract)
		if err != nil {
			t.Fatal(err)
		}
		acc.Grow(1)
		acc.Reset(0)
		// The second "ab" finds the first (a map assignment would store its key again).
		for _, v := range []string{"ab", "ab", "cd", "ab"} {
			b := array.NewStringBuilder(memory.DefaultAllocator)
			b.Append(v)
			col := b.NewStringArray()
			acc.Accumulate(col, []int32{0})
			data := col.ValueBytes()
			for i := range data {
				data[i] = 'z' // the buffer reused by a later batch
			}
			col.Release()
		}
		res, err := acc.Result(memory.DefaultAllocator, []int32{0})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.(*array.Int64).Value(0); got != 2 {
			t.Errorf("retract %v: COUNT(DISTINCT) of ab, ab, cd, ab = %d, want 2", retract, got)
		}
		res.Release()
	}
}

// The changes of COUNT(*), SUM(v), MAX(v) per key of mini-batch bundles, as
// MiniBatchGroupAggFunction#finishBundle emits them: each key once for all its rows (rows of a
// key together, keys in the bundle's order), its count judged after its last row, leading
// retractions of a key without state dropped, and the bundle cut short at a key without state
// whose rows all retract.
func TestGroupAggregateBundles(t *testing.T) {
	for _, c := range []struct {
		name         string
		retractions  bool
		updateBefore bool
		bundles      [][]string
		want         [][]string
	}{
		{name: "each key once", updateBefore: true,
			bundles: [][]string{{"b=1", "b=2", "a=5", "c=-"}, {"a=1", "a=2", "b=0"}},
			want:    [][]string{{"+I b 2 3 2", "+I a 1 5 5", "+I c 1 - -"}, {"-U a 1 5 5", "+U a 3 8 5", "-U b 2 3 2", "+U b 3 3 2"}}},
		{name: "NULLs change the count alone",
			bundles: [][]string{{"a=5"}, {"a=-", "a=-"}},
			want:    [][]string{{"+I a 1 5 5"}, {"+U a 3 5 5"}}},
		{name: "count through zero keeps the key", retractions: true, updateBefore: true,
			bundles: [][]string{{"a=5"}, {"-D a=5", "-D a=5", "a=7", "a=7"}},
			want:    [][]string{{"+I a 1 5 5"}, {"-U a 1 5 5", "+U a 1 9 7"}}},
		{name: "last row retracted deletes", retractions: true,
			bundles: [][]string{{"a=5", "b=1"}, {"-D a=5", "b=2"}},
			want:    [][]string{{"+I a 1 5 5", "+I b 1 1 1"}, {"-D a 1 5 5", "+U b 2 3 2"}}},
		{name: "leading retractions of a new key dropped", retractions: true,
			bundles: [][]string{{"-U a=5", "-D a=1", "a=2", "b=3"}},
			want:    [][]string{{"+I a 1 2 2", "+I b 1 3 3"}}},
		{name: "new key of retractions only cuts the bundle", retractions: true,
			bundles: [][]string{{"a=1", "-U b=5", "-D b=1", "c=3"}, {"c=4", "a=1"}},
			want:    [][]string{{"+I a 1 1 1"}, {"+I c 1 4 4", "+U a 2 2 1"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkInputs(t, newGroupOf(t, c.updateBefore, c.retractions), c.bundles, c.want, true)
		})
	}
}
