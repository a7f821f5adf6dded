package window

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/keygroup"
)

func TestAssigners(t *testing.T) {
	tumble, _ := NewTumble(10, 0)
	tumbleOff, _ := NewTumble(10, 3)
	hop, _ := NewHop(10, 4, 0) // invalid: 10 % 4 != 0
	if hop != nil {
		t.Fatal("HOP(10, 4) accepted")
	}
	hop, _ = NewHop(10, 5, 0)
	cum, _ := NewCumulate(10, 5, 0)
	cases := []struct {
		a                               *Assigner
		ts, sliceEnd, lastEnd, mergeTgt int64
		windowSlices, expired           []int64 // for the window ending at sliceEnd
	}{
		{tumble, 7, 10, 10, 10, []int64{10}, []int64{10}},
		{tumble, -1, 0, 0, 0, []int64{0}, []int64{0}},
		{tumbleOff, 2, 3, 3, 3, []int64{3}, []int64{3}},
		{tumbleOff, 3, 13, 13, 13, []int64{13}, []int64{13}},
		{hop, 7, 10, 15, 10, []int64{10, 5}, []int64{5}},
		{cum, 3, 5, 10, 5, nil, nil},
		{cum, 7, 10, 10, 5, []int64{10}, []int64{10, 5}},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s ts=%d", c.a, c.ts)
		se := c.a.SliceEnd(c.ts)
		if se != c.sliceEnd || c.a.LastWindowEnd(se) != c.lastEnd || c.a.MergeTarget(se) != c.mergeTgt {
			t.Errorf("%s: slice end %d last window end %d merge target %d", name, se, c.a.LastWindowEnd(se), c.a.MergeTarget(se))
		}
		if got := c.a.AppendWindowSlices(nil, se); fmt.Sprint(got) != fmt.Sprint(c.windowSlices) {
			t.Errorf("%s: window slices %v, want %v", name, got, c.windowSlices)
		}
		if got := c.a.AppendExpiredSlices(nil, se); fmt.Sprint(got) != fmt.Sprint(c.expired) {
			t.Errorf("%s: expired %v, want %v", name, got, c.expired)
		}
	}
	if _, err := NewTumble(10, 10); err == nil {
		t.Error("offset >= size accepted")
	}
	if n, ok := cum.NextTrigger(5, true); !ok || n != 10 {
		t.Errorf("cumulate next trigger after 5: %d %v", n, ok)
	}
	if _, ok := cum.NextTrigger(10, false); ok {
		t.Error("cumulate triggers after its max window")
	}
	if _, ok := hop.NextTrigger(10, true); ok {
		t.Error("hop triggers after an empty window")
	}
}

type row struct {
	key string
	ts  int64
	v   any // int64 or nil
}

// run feeds batches separated by watermarks and returns the fired rows as strings.
func run(t *testing.T, a *Assigner, steps []any, snapshotAt int) []string {
	t.Helper()
	spec := Spec{
		Assigner: a,
		KeyTypes: []catalog.Type{catalog.StringType(true)},
		Calls: []agg.Call{
			{Func: agg.CountStar, Result: catalog.BigIntType(false)},
			{Func: agg.Sum, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
			{Func: agg.Max, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
			{Func: agg.Avg, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
			{Func: agg.Count, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(false)},
		},
		MaxParallelism: 128,
		KeyGroups:      keygroup.Range{Start: 0, End: 127},
	}
	op, err := Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	var out []string
	for i, s := range steps {
		if i == snapshotAt {
			op = snapshotRestore(t, op, spec)
		}
		switch s := s.(type) {
		case []row:
			kb, tb, vb := array.NewStringBuilder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond}), array.NewInt64Builder(mem)
			for _, r := range s {
				kb.Append(r.key)
				tb.Append(arrow.Timestamp(r.ts))
				if r.v == nil {
					vb.AppendNull()
				} else {
					vb.Append(r.v.(int64))
				}
			}
			k, ts, v := kb.NewArray(), tb.NewArray(), vb.NewArray()
			if err := op.Process(Input{Keys: []arrow.Array{k}, Rowtime: ts, Args: []arrow.Array{nil, v, v, v, v}}); err != nil {
				t.Fatal(err)
			}
		case int64:
			op.AdvanceWatermark(s)
			f, err := op.TakeFired(mem)
			if err != nil {
				t.Fatal(err)
			}
			dec, _ := binaryrow.NewDecoder([]string{"k"}, spec.KeyTypes, mem)
			keys, err := dec.Decode(f.KeyRows, f.KeyOffsets)
			if err != nil {
				t.Fatal(err)
			}
			var fired []string
			for r := 0; r < f.Len(); r++ {
				vals := []string{keys.Column(0).ValueStr(r)}
				for _, c := range f.Aggs {
					vals = append(vals, c.ValueStr(r))
				}
				fired = append(fired, fmt.Sprintf("wm%d %s [%d,%d)", s, strings.Join(vals, " "), f.Starts[r], f.Ends[r]))
			}
			sort.Strings(fired)
			out = append(out, fired...)
			f.Release()
		}
	}
	return out
}

func snapshotRestore(t *testing.T, op Aggregation, spec Spec) Aggregation {
	t.Helper()
	fresh, err := Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	fresh.InitializeWatermark(op.Watermark())
	for kg := spec.KeyGroups.Start; kg <= spec.KeyGroups.End; kg++ {
		blob, err := op.Snapshot(kg)
		if err != nil {
			t.Fatal(err)
		}
		if err := fresh.Restore(kg, blob); err != nil {
			t.Fatal(err)
		}
	}
	if fresh.Keys() != op.Keys() {
		t.Fatalf("restored %d keys of %d", fresh.Keys(), op.Keys())
	}
	return fresh
}

func TestOperator(t *testing.T) {
	tumble, _ := NewTumble(10, 0)
	hop, _ := NewHop(10, 5, 0)
	cum, _ := NewCumulate(10, 5, 0)
	steps := []any{
		[]row{{"a", 1, int64(5)}, {"b", 2, nil}, {"a", 8, int64(-2)}, {"a", 12, int64(7)}},
		int64(9), // fires [0,10)
		[]row{{"a", 3, int64(100)}, {"b", 11, int64(1)}}, // a@3 is late for TUMBLE and CUMULATE, not for HOP [-5,5)? (fired) and [0,10) (fired) -> late too
		int64(100),
	}
	cases := []struct {
		name string
		a    *Assigner
		want []string
	}{
		{"tumble", tumble, []string{
			"wm9 a 2 3 5 1 2 [0,10)", "wm9 b 1 (null) (null) (null) 0 [0,10)",
			"wm100 a 1 7 7 7 1 [10,20)", "wm100 b 1 1 1 1 1 [10,20)",
		}},
		{"hop", hop, []string{
			"wm9 a 1 5 5 5 1 [-5,5)", "wm9 a 2 3 5 1 2 [0,10)", "wm9 b 1 (null) (null) (null) 0 [-5,5)", "wm9 b 1 (null) (null) (null) 0 [0,10)",
			"wm100 a 1 7 7 7 1 [10,20)", "wm100 a 2 5 7 2 2 [5,15)", "wm100 b 1 1 1 1 1 [10,20)", "wm100 b 1 1 1 1 1 [5,15)",
		}},
		{"cumulate", cum, []string{
			"wm9 a 1 5 5 5 1 [0,5)", "wm9 a 2 3 5 1 2 [0,10)", "wm9 b 1 (null) (null) (null) 0 [0,10)", "wm9 b 1 (null) (null) (null) 0 [0,5)",
			"wm100 a 1 7 7 7 1 [10,15)", "wm100 a 1 7 7 7 1 [10,20)", "wm100 b 1 1 1 1 1 [10,15)", "wm100 b 1 1 1 1 1 [10,20)",
		}},
	}
	for _, c := range cases {
		for _, snap := range []int{-1, 1, 2, 3} {
			t.Run(fmt.Sprintf("%s/snapshot@%d", c.name, snap), func(t *testing.T) {
				got := run(t, c.a, steps, snap)
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
				}
			})
		}
	}
}

func TestRestoreRejectsBadState(t *testing.T) {
	a, _ := NewTumble(10, 0)
	spec := Spec{Assigner: a, KeyTypes: []catalog.Type{catalog.BigIntType(true)},
		Calls:          []agg.Call{{Func: agg.CountStar, Result: catalog.BigIntType(false)}},
		MaxParallelism: 4, KeyGroups: keygroup.Range{Start: 0, End: 3}}
	op, _ := New(spec)
	mem := memory.NewGoAllocator()
	kb, tb := array.NewInt64Builder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	for i := 0; i < 20; i++ {
		kb.Append(int64(i))
		tb.Append(arrow.Timestamp(i))
	}
	if err := op.Process(Input{Keys: []arrow.Array{kb.NewArray()}, Rowtime: tb.NewArray(), Args: []arrow.Array{nil}}); err != nil {
		t.Fatal(err)
	}
	var blob []byte
	kg := 0
	for ; blob == nil; kg++ {
		blob, _ = op.Snapshot(kg)
	}
	kg--
	other, _ := NewTumble(20, 0)
	otherSpec := spec
	otherSpec.Assigner = other
	for name, c := range map[string]struct {
		spec Spec
		blob []byte
		want string
	}{
		"truncated":  {spec, blob[:len(blob)-3], "checksum"},
		"cut":        {spec, append(append([]byte{}, blob[:len(blob)-9]...), blob[len(blob)-4:]...), "checksum"},
		"flipped":    {spec, flip(blob, 20), "checksum"},
		"other plan": {otherSpec, blob, "different window aggregation"},
		"garbage":    {spec, []byte("not state at all, really not"), "bad magic"},
	} {
		fresh, _ := New(c.spec)
		err := fresh.Restore(kg, c.blob)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
		}
		if fresh.Keys() != 0 {
			t.Errorf("%s: a failed restore left %d keys", name, fresh.Keys())
		}
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte{}, b...)
	c[i] ^= 0x40
	return c
}

// TestTwoPhaseMatchesOnePhase runs the same rows through the local and global phases and
// through one phase: with integer aggregates and no late rows the results are the same.
func TestTwoPhaseMatchesOnePhase(t *testing.T) {
	mem := memory.NewGoAllocator()
	hop, _ := NewHop(10, 5, 0)
	calls := []agg.Call{
		{Func: agg.CountStar, Result: catalog.BigIntType(false)},
		{Func: agg.Sum, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
		{Func: agg.Avg, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
		{Func: agg.Min, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
		{Func: agg.Count, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(false), Distinct: true, DistinctGroup: 0},
	}
	for i := range calls[:4] {
		calls[i].DistinctGroup = -1
	}
	keyTypes := []catalog.Type{catalog.StringType(true)}
	spec := Spec{Assigner: hop, KeyTypes: keyTypes, Calls: calls, MaxParallelism: 128, KeyGroups: keygroup.Range{Start: 0, End: 127}}
	one, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	local, _ := NewLocal(spec)
	globalSpec := spec
	globalSpec.Sliced = true
	global, err := New(globalSpec)
	if err != nil {
		t.Fatal(err)
	}
	keyDec, _ := binaryrow.NewDecoder([]string{"k"}, keyTypes, mem)
	render := func(f *Fired) []string {
		keys, err := keyDec.Decode(f.KeyRows, f.KeyOffsets)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for r := 0; r < f.Len(); r++ {
			s := fmt.Sprintf("%s [%d,%d)", keys.Column(0).ValueStr(r), f.Starts[r], f.Ends[r])
			for _, c := range f.Aggs {
				s += " " + c.ValueStr(r)
			}
			out = append(out, s)
		}
		sort.Strings(out)
		return out
	}
	var gotOne, gotTwo []string
	for step := 0; step < 6; step++ {
		kb, tb, vb := array.NewStringBuilder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond}), array.NewInt64Builder(mem)
		for i := 0; i < 50; i++ {
			kb.Append(string(rune('a' + (i*7+step)%5)))
			tb.Append(arrow.Timestamp(int64(step*10 + i%10)))
			if i%9 == 0 {
				vb.AppendNull()
			} else {
				vb.Append(int64(i*31%17 - 8))
			}
		}
		k, ts, v := kb.NewArray(), tb.NewArray(), vb.NewArray()
		in := Input{Keys: []arrow.Array{k}, Rowtime: ts, Args: []arrow.Array{nil, v, v, v, v}}
		if err := one.Process(in); err != nil {
			t.Fatal(err)
		}
		if err := local.Process(in); err != nil {
			t.Fatal(err)
		}
		wm := int64(step*10 + 9)
		one.AdvanceWatermark(wm)
		local.AdvanceWatermark(wm)
		if step%2 == 1 {
			local.PrepareCheckpoint()
		}
		lo, err := local.TakeOutput(mem)
		if err != nil {
			t.Fatal(err)
		}
		lkeys, err := keyDec.Decode(lo.KeyRows, lo.KeyOffsets)
		if err != nil {
			t.Fatal(err)
		}
		eb := array.NewInt64Builder(mem)
		eb.AppendValues(lo.SliceEnds, nil)
		if err := global.Process(Input{Keys: []arrow.Array{lkeys.Column(0)}, Rowtime: eb.NewArray(), Args: lo.Fields}); err != nil {
			t.Fatal(err)
		}
		global.AdvanceWatermark(wm)
		f1, _ := one.TakeFired(mem)
		f2, _ := global.TakeFired(mem)
		gotOne, gotTwo = append(gotOne, render(f1)...), append(gotTwo, render(f2)...)
	}
	if len(gotOne) == 0 || strings.Join(gotOne, "\n") != strings.Join(gotTwo, "\n") {
		t.Errorf("one phase:\n%s\ntwo phases:\n%s", strings.Join(gotOne, "\n"), strings.Join(gotTwo, "\n"))
	}
}

// benchmarkSpec is the window benchmark's aggregation: a 10 s TUMBLE by one key of the given
// type with COUNT(*), SUM, MAX and AVG of a BIGINT, over 128 key groups.
func benchmarkSpec(key catalog.Type) Spec {
	tumble, _ := NewTumble(10_000, 0)
	return Spec{Assigner: tumble, KeyTypes: []catalog.Type{key},
		Calls: []agg.Call{
			{Func: agg.CountStar, Result: catalog.BigIntType(false)},
			{Func: agg.Sum, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
			{Func: agg.Max, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
			{Func: agg.Avg, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(true)},
		},
		MaxParallelism: 128, KeyGroups: keygroup.Range{Start: 0, End: 127}}
}

// BenchmarkWindowState aggregates 100,000 keys into open windows and reports the state's
// memory per key (bytes/key), as the operator's sluiceStateBytes metric measures it.
func BenchmarkWindowState(b *testing.B) {
	mem := memory.NewGoAllocator()
	spec := benchmarkSpec(catalog.BigIntType(true))
	const keys = 100_000
	kb, tb := array.NewInt64Builder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	for i := 0; i < keys; i++ {
		kb.Append(int64(i))
		tb.Append(arrow.Timestamp(i % 10_000))
	}
	k, ts := kb.NewArray(), tb.NewArray()
	var op *Operator
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op, _ = New(spec)
		if err := op.Process(Input{Keys: []arrow.Array{k}, Rowtime: ts, Args: []arrow.Array{nil, k, k, k}}); err != nil {
			b.Fatal(err)
		}
		op.PrepareCheckpoint()
	}
	b.ReportMetric(float64(op.StateBytes())/float64(op.Keys()), "bytes/key")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/row")
}

func TestStateBytesFollowKeys(t *testing.T) {
	mem := memory.NewGoAllocator()
	tumble, _ := NewTumble(10, 0)
	spec := Spec{Assigner: tumble, KeyTypes: []catalog.Type{catalog.BigIntType(true)},
		Calls:          []agg.Call{{Func: agg.CountStar, Result: catalog.BigIntType(false)}},
		MaxParallelism: 128, KeyGroups: keygroup.Range{Start: 0, End: 127}}
	op, _ := New(spec)
	sizes := []int64{op.StateBytes()}
	for _, n := range []int{10, 1000} {
		kb, tb := array.NewInt64Builder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
		for i := 0; i < n; i++ {
			kb.Append(int64(i))
			tb.Append(1)
		}
		if err := op.Process(Input{Keys: []arrow.Array{kb.NewArray()}, Rowtime: tb.NewArray(), Args: []arrow.Array{nil}}); err != nil {
			t.Fatal(err)
		}
		op.PrepareCheckpoint()
		sizes = append(sizes, op.StateBytes())
	}
	if sizes[0] != 0 || sizes[1] <= 0 || sizes[2] < 50*sizes[1] {
		t.Errorf("state sizes for 0, 10, 1000 keys: %v", sizes)
	}
	op.AdvanceWatermark(100)
	if op.Keys() != 0 || op.StateBytes() != 0 {
		t.Errorf("after the windows fired: %d keys, %d bytes", op.Keys(), op.StateBytes())
	}
}

// TestRestoresVersion1State: savepoints written before distinct sets carried a kind byte
// (state version 1) still restore: blobs without distinct sets are unchanged, and distinct
// sets are read without the byte.
func TestRestoresVersion1State(t *testing.T) {
	tumble, _ := NewTumble(10, 0)
	spec := Spec{Assigner: tumble, KeyTypes: []catalog.Type{catalog.StringType(true)},
		Calls:          []agg.Call{{Func: agg.CountStar, Result: catalog.BigIntType(false)}},
		MaxParallelism: 128, KeyGroups: keygroup.Range{Start: 0, End: 127}}
	op, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	kb, tb := array.NewStringBuilder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	kb.AppendValues([]string{"a", "b", "a"}, nil)
	tb.AppendValues([]arrow.Timestamp{1, 2, 3}, nil)
	k, ts := kb.NewArray(), tb.NewArray()
	defer k.Release()
	defer ts.Release()
	if err := op.Process(Input{Keys: []arrow.Array{k}, Rowtime: ts, Args: []arrow.Array{nil}}); err != nil {
		t.Fatal(err)
	}
	op.PrepareCheckpoint()
	fresh, _ := New(spec)
	for kg := 0; kg < 128; kg++ {
		blob, err := op.Snapshot(kg)
		if err != nil {
			t.Fatal(err)
		}
		if blob == nil {
			continue
		}
		binary.LittleEndian.PutUint16(blob[4:], 1) // as version 1 wrote it
		binary.LittleEndian.PutUint32(blob[len(blob)-4:], crc32.Checksum(blob[:len(blob)-4], castagnoli))
		if err := fresh.Restore(kg, blob); err != nil {
			t.Fatalf("key group %d: %v", kg, err)
		}
	}
	if fresh.Keys() != 2 {
		t.Fatalf("restored %d keys, want 2", fresh.Keys())
	}

}

// BenchmarkLocalProcess runs the local phase over batches of 8,192 rows with 10,000 INT keys in
// random order and event times advancing 100 rows per millisecond (the window benchmark's
// bids), flushing every 10 seconds of event time; reports ns/row.
func BenchmarkLocalProcess(b *testing.B) {
	mem := memory.NewGoAllocator()
	spec := benchmarkSpec(catalog.IntType(true))
	const batch, batches = 8192, 64
	var keys, prices, times []arrow.Array
	for j := 0; j < batches; j++ {
		kb, pb := array.NewInt32Builder(mem), array.NewInt64Builder(mem)
		tb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
		for i := 0; i < batch; i++ {
			row := uint64(j*batch + i)
			h := row * 0x9E3779B97F4A7C15
			kb.Append(int32((h >> 17) % 10_000))
			pb.Append(int64(1 + row*31%100_000))
			tb.Append(arrow.Timestamp(int64(row/100) - int64((h>>40)%3000)))
		}
		keys, prices, times = append(keys, kb.NewArray()), append(prices, pb.NewArray()), append(times, tb.NewArray())
	}
	local, err := NewLocal(spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % batches
		if err := local.Process(Input{Keys: []arrow.Array{keys[j]}, Rowtime: times[j], Args: []arrow.Array{nil, prices[j], prices[j], prices[j]}}); err != nil {
			b.Fatal(err)
		}
		if j == batches-1 {
			local.PrepareCheckpoint()
			out, err := local.TakeOutput(mem)
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/row")
}

// TestSliceEndsMatchesSliceEnd checks the remembered slice of sliceEnds against
// Assigner.SliceEnd over runs of nearby times, jumps, negative times and times at the ends of
// the int64 range (where a slice's bounds overflow).
func TestSliceEndsMatchesSliceEnd(t *testing.T) {
	tumble, err1 := NewTumble(10_000, 0)
	hop, err2 := NewHop(10_000, 2_000, 700)
	cumulate, err3 := NewCumulate(60_000, 6_000, -2_000)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(7))
	var times []int64
	for i := 0; i < 20_000; i++ {
		switch rnd.Intn(10) {
		case 0:
			times = append(times, rnd.Int63n(1<<62)-1<<61)
		case 1:
			times = append(times, math.MaxInt64-rnd.Int63n(20_000), math.MinInt64+rnd.Int63n(20_000))
		default:
			times = append(times, int64(i*3)-30_000+rnd.Int63n(5_000))
		}
	}
	for name, a := range map[string]*Assigner{"tumble": tumble, "hop": hop, "cumulate": cumulate} {
		var ends sliceEnds
		for _, ts := range times {
			if got, want := ends.of(a, ts), a.SliceEnd(ts); got != want {
				t.Fatalf("%s: slice end of %d: %d, want %d", name, ts, got, want)
			}
		}
	}
}

// Sessions as Flink's MergingWindowSet keeps them: a row's window [t, t+gap) joins the sessions
// it touches (a row at 8 bridges [0,8) and [9,17)), a late row is dropped unless its window
// touches a live session, and sessions fire at end - 1; with a snapshot and restore between
// any two steps.
func TestSessions(t *testing.T) {
	a, err := NewSession(5)
	if err != nil {
		t.Fatal(err)
	}
	steps := []any{
		[]row{{"a", 0, int64(1)}, {"a", 3, int64(2)}, {"a", 20, int64(4)}, {"a", 12, int64(8)}},
		[]row{{"a", 9, int64(16)}, {"a", 8, int64(32)}, {"b", 1, nil}},
		int64(16),
		[]row{{"a", 2, int64(100)}, {"a", 15, int64(64)}},
		int64(100),
	}
	want := []string{
		"wm16 a 5 59 32 11 5 [0,17)", "wm16 b 1 (null) (null) (null) 0 [1,6)",
		"wm100 a 2 68 64 34 2 [15,25)",
	}
	for _, snap := range []int{-1, 1, 2, 3, 4} {
		got := run(t, a, steps, snap)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("snapshot@%d: got\n%s\nwant\n%s", snap, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if _, err := New(Spec{Assigner: a}); err == nil {
		t.Error("the slicing operator took a SESSION window")
	}
	if _, err := NewSession(0); err == nil {
		t.Error("a session gap of 0 accepted")
	}
}

// BenchmarkSessions aggregates batches of 1,024 rows of 1,000 keys into 2 s sessions, the
// watermark firing the sessions behind it after every batch.
func BenchmarkSessions(b *testing.B) {
	mem := memory.NewGoAllocator()
	spec := benchmarkSpec(catalog.BigIntType(true))
	spec.Assigner, _ = NewSession(2000)
	const rows = 1024
	kb, tb := array.NewInt64Builder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	op, err := NewSessions(spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < rows; r++ {
			kb.Append(int64((i*rows + r) % 1000))
			tb.Append(arrow.Timestamp(int64(i*rows+r) / 4))
		}
		k, ts := kb.NewArray(), tb.NewArray()
		if err := op.Process(Input{Keys: []arrow.Array{k}, Rowtime: ts, Args: []arrow.Array{nil, k, k, k}}); err != nil {
			b.Fatal(err)
		}
		op.AdvanceWatermark(int64(i*rows)/4 - 3000)
		f, err := op.TakeFired(mem)
		if err != nil {
			b.Fatal(err)
		}
		f.Release()
		k.Release()
		ts.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
}

// The HashSet buckets of windows as Flink's TimeWindow#hashCode and HashMap#hash give them
// (computed on the JVM), which decide which of two merged sessions is the target.
func TestHashSetBucket(t *testing.T) {
	for _, c := range []struct {
		start, end int64
		bucket     int32
	}{{0, 5, 13}, {1709294400123, 1709294402123, 5}, {-5000, -3000, 9}, {1709294409223, 1709294411223, 3}, {123456789012, 123456799012, 3}} {
		if got := hashSetBucket(session{start: c.start, end: c.end}); got != c.bucket {
			t.Errorf("[%d, %d): bucket %d, want %d", c.start, c.end, got, c.bucket)
		}
	}
}
