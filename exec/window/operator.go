package window

import (
	"container/heap"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// Spec describes one window aggregation.
type Spec struct {
	Assigner *Assigner
	// KeyTypes are the grouping keys' types, in order.
	KeyTypes []catalog.Type
	// Calls are the aggregate calls, in output order.
	Calls []agg.Call
	// MaxParallelism is the number of key groups.
	MaxParallelism int
	// KeyGroups is the range of key groups this subtask owns.
	KeyGroups keygroup.Range
	// Sliced marks the global phase of a two-phase aggregation: input rows are partial
	// accumulators (every call's fields) with the end of their slice, not raw rows.
	Sliced bool
	// Zone is the session time zone when the time attribute is a TIMESTAMP_LTZ (windows then
	// align to that zone's wall clock), else UTC (FixedZone(0), also the zero value's meaning).
	Zone Zone
	// ProcTime marks processing-time windows: each row's time is when it arrived (Rowtime
	// holds the arrival times), no row is late, and windows fire on processing-time timers
	// (AdvanceProcessingTime), not on watermarks.
	ProcTime bool
}

// Input is one batch of rows to aggregate.
type Input struct {
	// Keys holds the grouping key columns.
	Keys []arrow.Array
	// Rowtime holds each row's event time (a TIMESTAMP(3) column, epoch milliseconds), or
	// for a Sliced spec the end of the row's slice (BIGINT).
	Rowtime arrow.Array
	// Args holds each call's argument column (nil for COUNT(*)), or for a Sliced spec every
	// call's accumulator fields in order.
	Args []arrow.Array
	// Filters holds each call's FILTER (WHERE ...) column (BOOLEAN; a row counts where it is
	// true), nil for a call without filter or for a Sliced spec (partials are filtered already).
	Filters []arrow.Array
}

// Fired is the output of windows that fired: one row per window and key.
type Fired struct {
	// KeyRows holds the key rows as BinaryRowData (key types of the Spec): row i is
	// KeyRows[KeyOffsets[i]:KeyOffsets[i+1]].
	KeyRows    []byte
	KeyOffsets []int32
	// Aggs holds one result column per call.
	Aggs []arrow.Array
	// Starts and Ends are the windows' bounds (epoch milliseconds).
	Starts, Ends []int64
}

// Len is the number of fired rows.
func (f *Fired) Len() int { return len(f.Ends) }

// Release releases the result columns.
func (f *Fired) Release() {
	for _, a := range f.Aggs {
		a.Release()
	}
}

// slot is the accumulator group of one slice of one key.
type slot struct {
	end int64
	g   int32
}

// keyState is everything kept for one key: its slices' accumulators and pending window timers.
type keyState struct {
	key    string // the key row's BinaryRowData bytes
	kg     int32
	slices []slot
	timers []int64
}

func (k *keyState) find(end int64) (int32, bool) {
	for _, s := range k.slices {
		if s.end == end {
			return s.g, true
		}
	}
	return -1, false
}

// Operator aggregates rows per key and window with Flink's slicing window semantics (the
// event-time path of WindowAggOperator with SliceUnshared/SliceSharedSyncStateWindowAggProcessor).
// State lives per key group; Snapshot and Restore move one key group at a time.
type Operator struct {
	spec     Spec
	assigner *Assigner
	zone     Zone
	hasher   *keygroup.Assigner
	accSet
	countStar int

	keys      []map[string]*keyState // by key group - KeyGroups.Start
	watermark int64
	timers    timerQueue
	seq       uint64

	lateDropped int64
	// err is a failure found while flushing (a corrupt distinct view), reported by the next call.
	err error

	// The window buffer: rows not yet in state, and the watermark that flushes it next.
	pending     []pendingBatch
	pendingKeys []byte
	nextFlush   int64
	minPending  int64 // the earliest target slice in the buffer (MaxInt64 when empty)
	pendingRows int

	// Per-batch scratch.
	kgs, rowGroups, filtered []int32
	slices                   []int64

	// Output pending since the last TakeFired.
	outKeys    []byte
	outOffsets []int32
	outGroups  []int32
	outStarts  []int64
	outEnds    []int64
}

// New returns an operator for spec.
func New(spec Spec) (*Operator, error) {
	if spec.Assigner == nil {
		return nil, fmt.Errorf("window aggregate: no window")
	}
	if spec.Assigner.Kind == Session {
		return nil, fmt.Errorf("window aggregate: SESSION windows are not sliced (see NewSessions)")
	}
	if err := keygroup.CheckParallelism(spec.MaxParallelism, 1); err != nil {
		return nil, fmt.Errorf("window aggregate: %w", err)
	}
	if spec.KeyGroups.Start < 0 || spec.KeyGroups.End >= spec.MaxParallelism || spec.KeyGroups.Len() <= 0 {
		return nil, fmt.Errorf("window aggregate: key groups %v outside [0, %d)", spec.KeyGroups, spec.MaxParallelism)
	}
	h, err := keygroup.NewAssigner(spec.KeyTypes, spec.MaxParallelism)
	if err != nil {
		return nil, fmt.Errorf("window aggregate: %w", err)
	}
	o := &Operator{spec: spec, assigner: spec.Assigner, zone: spec.Zone, hasher: h, countStar: -1, watermark: -1 << 63, nextFlush: -1 << 63, minPending: 1<<63 - 1}
	for i, c := range spec.Calls {
		a, err := agg.NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("window aggregate: %w", err)
		}
		// Flink decides that a window is empty only for HOP windows, by an unfiltered COUNT(*)
		// (AggregateUtil inserts one when the query has none; Sluice then falls back).
		if spec.Assigner.Kind == Hop && c.Func == agg.CountStar && !c.Filtered && o.countStar < 0 {
			o.countStar = i
		}
		o.accs = append(o.accs, a)
	}
	for _, c := range spec.Calls {
		if c.Distinct && c.Func != agg.Count && spec.Assigner.Kind != Tumble {
			return nil, fmt.Errorf("window aggregate: %s(DISTINCT) on a %s window is not supported natively: Flink merges the slices' distinct values by retraction, which %s cannot do (the job fails on Flink)", c.Func, spec.Assigner.Kind, c.Func)
		}
		if (c.Func == agg.FirstValue || c.Func == agg.LastValue) && spec.Assigner.Kind != Tumble {
			return nil, fmt.Errorf("window aggregate: %s on a %s window is not supported natively (Flink would merge slices it cannot merge)", c.Func, spec.Assigner.Kind)
		}
	}
	if spec.Assigner.Kind == Hop && o.countStar < 0 { // e.g. only a filtered COUNT(*)
		return nil, fmt.Errorf("window aggregate: a HOP window without an unfiltered COUNT(*) is not supported natively yet (Flink adds a hidden one to detect empty windows)")
	}
	o.keys = make([]map[string]*keyState, spec.KeyGroups.Len())
	for i := range o.keys {
		o.keys[i] = map[string]*keyState{}
	}
	return o, nil
}

// Watermark is the operator's current event-time progress.
func (o *Operator) Watermark() int64 { return o.watermark }

// LateDropped counts the rows dropped because every window they belong to had fired.
func (o *Operator) LateDropped() int64 { return o.lateDropped }

// InitializeWatermark sets the progress restored from a checkpoint, before any row.
func (o *Operator) InitializeWatermark(w int64) { o.watermark = w }

func (o *Operator) keyState(kg int32, key []byte, create bool) *keyState {
	m := o.keys[int(kg)-o.spec.KeyGroups.Start]
	if ks, ok := m[string(key)]; ok || !create {
		return ks
	}
	ks := &keyState{key: string(key), kg: kg}
	m[ks.key] = ks
	return ks
}

func (o *Operator) sliceGroup(ks *keyState, end int64) int32 {
	if g, ok := ks.find(end); ok {
		return g
	}
	g := o.newGroup()
	ks.slices = append(ks.slices, slot{end, g})
	return g
}

// register adds a timer for the window ending at end, once per key and window.
func (o *Operator) register(ks *keyState, end int64) {
	for _, t := range ks.timers {
		if t == end {
			return
		}
	}
	ks.timers = append(ks.timers, end)
	o.seq++
	heap.Push(&o.timers, timer{end: end, seq: o.seq, ks: ks})
}

// Process takes one batch of rows. Rows whose windows have all fired are dropped; the others
// wait in the window buffer until the next flush, as in Flink's RecordsWindowBuffer: a row
// reaches its window's state, and registers the window's timer, only when the buffer is
// flushed (on a watermark that reaches the next trigger point, or before a checkpoint).
func (o *Operator) Process(in Input) error {
	n := in.Rowtime.Len()
	want := len(o.accs)
	if o.spec.Sliced {
		want = o.fieldCount() + o.distinctViews(o.spec.Calls)
	}
	if len(in.Args) != want {
		return fmt.Errorf("window aggregate: %d input columns for aggregates that read %d", len(in.Args), want)
	}
	o.kgs = grown(o.kgs[:0], n)
	if err := o.hasher.Assign(in.Keys, n, o.kgs, nil); err != nil {
		return fmt.Errorf("window aggregate: %w", err)
	}
	keyRows, keyOffsets := o.hasher.KeyRows()
	if in.Rowtime.NullN() > 0 {
		for r := 0; r < n; r++ {
			if in.Rowtime.IsNull(r) {
				return fmt.Errorf("window aggregate: row %d of the batch has a null time attribute", r)
			}
		}
	}
	times := column.Values[int64](in.Rowtime)
	a, wm := o.assigner, o.watermark
	batch := pendingBatch{n: n}
	for r := 0; r < n; r++ {
		kg := o.kgs[r]
		if !o.spec.KeyGroups.Contains(int(kg)) {
			return fmt.Errorf("window aggregate: row %d has key group %d, outside this subtask's %v: rows are not routed as Flink routes them", r, kg, o.spec.KeyGroups)
		}
		key := keyRows[keyOffsets[r]:keyOffsets[r+1]]
		sliceEnd := times[r]
		if !o.spec.Sliced {
			sliceEnd = a.SliceEnd(o.zone.ToUTC(sliceEnd)) // TimeWindowUtil#toUtcTimestampMills
		}
		if o.spec.ProcTime {
			// Flink registers a processing-time timer for every row as it arrives, even for
			// a slice whose timer has already fired (AbstractSliceSyncStateWindowAggProcessor).
			o.register(o.keyState(kg, key, true), sliceEnd)
		}
		target := sliceEnd
		if !o.spec.ProcTime && o.zone.IsFired(sliceEnd, wm) {
			if o.zone.IsFired(a.LastWindowEnd(sliceEnd), wm) {
				o.lateDropped++
				continue
			}
			// A late row for a window that has not fired yet: it goes to the merge target and
			// the first unfired window gets its timer now (AbstractSliceSyncStateWindowAggProcessor).
			target = a.MergeTarget(sliceEnd)
			unfired := sliceEnd
			for o.zone.IsFired(unfired, wm) {
				unfired += a.slice
			}
			o.register(o.keyState(kg, key, true), unfired)
		}
		batch.rows = append(batch.rows, pendingRow{
			row: int32(r), kg: kg, keyStart: int32(len(o.pendingKeys)), keyEnd: int32(len(o.pendingKeys) + len(key)), target: target,
		})
		o.pendingKeys = append(o.pendingKeys, key...)
		o.minPending = min(o.minPending, target)
	}
	if len(batch.rows) == 0 {
		return nil
	}
	batch.retain(in)
	o.pending = append(o.pending, batch)
	o.pendingRows += len(batch.rows)
	if o.pendingRows >= maxPendingRows {
		// Flink's buffer flushes early when its managed memory fills up; this one when it
		// holds maxPendingRows rows. See docs/divergences.md.
		o.flush()
	}
	return nil
}

// maxPendingRows bounds the window buffer of one operator.
const maxPendingRows = 1 << 19

// pendingBatch is a batch of rows in the window buffer: the aggregates' argument columns and,
// per buffered row, its key and target slice.
type pendingBatch struct {
	n       int
	args    []arrow.Array
	filters []arrow.Array
	rows    []pendingRow
}

// retain keeps the input's argument and filter columns until the batch is flushed.
func (b *pendingBatch) retain(in Input) {
	for _, a := range in.Args {
		if a != nil {
			a.Retain()
		}
	}
	for _, f := range in.Filters {
		if f != nil {
			f.Retain()
		}
	}
	b.args, b.filters = in.Args, in.Filters
}

func (b *pendingBatch) release() {
	releaseAll(b.args)
	releaseAll(b.filters)
}

// accumulate adds the batch's rows to groups (row r to groups[r]) for every call, each call
// counting only the rows its filter keeps; scratch holds the filtered groups.
func (b *pendingBatch) accumulate(accs []agg.Accumulator, groups []int32, scratch *[]int32) {
	for i, acc := range accs {
		g := groups
		if i < len(b.filters) && b.filters[i] != nil {
			*scratch = agg.FilterGroups((*scratch)[:0], groups, b.filters[i])
			g = *scratch
		}
		acc.Accumulate(b.args[i], g)
	}
}

type pendingRow struct {
	row              int32
	kg               int32
	keyStart, keyEnd int32 // in Operator.pendingKeys
	target           int64
}

// flush moves the buffered rows into the windows' state (AggCombiner#combine): each row is
// accumulated into its key's slice, in arrival order per key and slice, and the slice's timer
// is registered unless the current watermark has already passed it.
func (o *Operator) flush() {
	if o.spec.Sliced {
		o.flushPartials()
		return
	}
	for _, b := range o.pending {
		groups := o.batchGroups(b.n)
		for _, p := range b.rows {
			ks := o.keyState(p.kg, o.pendingKeys[p.keyStart:p.keyEnd], true)
			groups[p.row] = o.sliceGroup(ks, p.target)
			// Processing-time timers were registered when the rows arrived.
			if !o.spec.ProcTime && !o.zone.IsFired(p.target, o.watermark) {
				o.register(ks, p.target)
			}
		}
		b.accumulate(o.accs, groups, &o.filtered)
		b.release()
	}
	o.emptyBuffer()
}

// batchGroups returns the scratch group ids of a buffered batch of n rows, all -1 (skipped).
func (o *Operator) batchGroups(n int) []int32 {
	o.rowGroups = grown(o.rowGroups[:0], n)
	groups := o.rowGroups[:n]
	for i := range groups {
		groups[i] = -1
	}
	return groups
}

// emptyBuffer forgets the flushed rows of the window buffer.
func (o *Operator) emptyBuffer() {
	o.pending = o.pending[:0]
	o.pendingKeys = o.pendingKeys[:0]
	o.minPending = 1<<63 - 1
	o.pendingRows = 0
}

// flushPartials is flush for the global phase (GlobalAggCombiner#combine): within one flush,
// the partial accumulators of each key and slice are merged, in arrival order, into a fresh
// accumulator, which is then merged into the slice's state.
func (o *Operator) flushPartials() {
	type partial struct {
		ks     *keyState
		target int64
		g      int32
	}
	var order []partial
	index := map[*keyState][]int{} // positions in order, per key
	for _, b := range o.pending {
		groups := o.batchGroups(b.n)
		for _, p := range b.rows {
			ks := o.keyState(p.kg, o.pendingKeys[p.keyStart:p.keyEnd], true)
			g := int32(-1)
			for _, i := range index[ks] {
				if order[i].target == p.target {
					g = order[i].g
					break
				}
			}
			if g < 0 {
				g = o.newGroup()
				index[ks] = append(index[ks], len(order))
				order = append(order, partial{ks, p.target, g})
			}
			groups[p.row] = g
		}
		fields := o.fieldCount()
		o.mergeFields(b.args[:fields], groups)
		if err := o.mergeViews(o.spec.Calls, b.args[fields:], groups); err != nil {
			o.err = err
		}
		b.release()
	}
	for _, p := range order {
		o.merge(o.sliceGroup(p.ks, p.target), p.g)
		o.freeGroup(p.g)
		if !o.zone.IsFired(p.target, o.watermark) {
			o.register(p.ks, p.target)
		}
	}
	o.emptyBuffer()
}

func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		if c != nil {
			c.Release()
		}
	}
}

// AdvanceWatermark moves event time to w: the window buffer is flushed if w reaches the next
// trigger point and the earliest buffered slice is due, then every window whose end - 1 <= w fires. The results wait in the operator
// until TakeFired.
func (o *Operator) AdvanceWatermark(w int64) {
	if w <= o.watermark {
		return
	}
	if w >= o.nextFlush {
		// RecordsWindowBuffer#advanceProgress: flush once the earliest buffered slice is due.
		if o.zone.IsFired(o.minPending, w) {
			o.flush()
		}
		o.nextFlush = o.zone.NextTrigger(w, o.assigner.slice)
	}
	o.watermark = w
	o.fireDue(w)
}

// fireDue fires every window whose timer is due at progress w.
func (o *Operator) fireDue(w int64) {
	for o.timers.Len() > 0 && o.zone.IsFired(o.timers[0].end, w) {
		t := heap.Pop(&o.timers).(timer)
		ks := t.ks
		for i, e := range ks.timers {
			if e == t.end {
				ks.timers = append(ks.timers[:i], ks.timers[i+1:]...)
				break
			}
		}
		o.fire(ks, t.end)
		o.clear(ks, t.end)
		if len(ks.slices) == 0 && len(ks.timers) == 0 {
			delete(o.keys[int(ks.kg)-o.spec.KeyGroups.Start], ks.key)
		}
	}
}

// AdvanceProcessingTime fires the windows of a processing-time aggregation whose timers are
// due at processing time t (epoch milliseconds), as Flink's WindowAggOperator#onProcessingTime:
// progress moves (flushing the window buffer when a buffered slice is due) only when t is
// later than the last timer's time, then the due windows fire. A row that arrives in the last
// millisecond of a slice whose timer has fired registers a timer that is due at once: it fires
// the window again from its state, without that row, which is still in the buffer (Flink's
// behaviour; the row counts in the later windows that share its slice).
func (o *Operator) AdvanceProcessingTime(t int64) {
	if t > o.watermark {
		o.watermark = t
		if t >= o.nextFlush {
			if o.zone.IsFired(o.minPending, t) {
				o.flush()
			}
			o.nextFlush = o.zone.NextTrigger(t, o.assigner.slice)
		}
	}
	o.fireDue(t)
}

// NextTimer is the processing time (epoch milliseconds) at which the earliest pending window
// of a processing-time aggregation fires; MaxInt64 when none is.
func (o *Operator) NextTimer() int64 {
	if o.timers.Len() == 0 {
		return 1<<63 - 1
	}
	return o.zone.TimerEpoch(o.timers[0].end - 1) // SlicingWindowTimerServiceImpl
}

// PrepareCheckpoint flushes the window buffer, as Flink does before a checkpoint barrier.
func (o *Operator) PrepareCheckpoint() { o.flush() }

func (o *Operator) empty(g int32) bool {
	return o.countStar >= 0 && o.accs[o.countStar].Count(g) == 0
}

// fire computes the window ending at end for one key (fireWindow of Flink's processors).
func (o *Operator) fire(ks *keyState, end int64) {
	a := o.assigner
	var g int32
	scratch := false
	switch a.Kind {
	case Tumble:
		var ok bool
		if g, ok = ks.find(end); !ok {
			g, scratch = o.newGroup(), true
		}
	case Hop:
		g, scratch = o.newGroup(), true
		o.slices = a.AppendWindowSlices(o.slices[:0], end)
		for _, s := range o.slices {
			if sg, ok := ks.find(s); ok {
				for _, acc := range o.accs {
					acc.Merge(g, sg)
				}
			}
		}
	case Cumulate:
		g = o.sliceGroup(ks, a.MergeTarget(end))
		o.slices = a.AppendWindowSlices(o.slices[:0], end)
		for _, s := range o.slices {
			if sg, ok := ks.find(s); ok {
				for _, acc := range o.accs {
					acc.Merge(g, sg)
				}
			}
		}
	}
	empty := o.empty(g)
	if !empty {
		out := o.newGroup()
		for _, acc := range o.accs {
			acc.Copy(out, g)
		}
		if len(o.outOffsets) == 0 {
			o.outOffsets = append(o.outOffsets, 0)
		}
		o.outKeys = append(o.outKeys, ks.key...)
		o.outOffsets = append(o.outOffsets, int32(len(o.outKeys)))
		o.outGroups = append(o.outGroups, out)
		o.outStarts = append(o.outStarts, a.WindowStart(end))
		o.outEnds = append(o.outEnds, end)
	}
	if scratch {
		o.freeGroup(g)
	}
	if next, ok := a.NextTrigger(end, empty); ok {
		o.register(ks, next)
	}
}

// clear drops the slices that no later window needs (clearWindow).
func (o *Operator) clear(ks *keyState, end int64) {
	o.slices = o.assigner.AppendExpiredSlices(o.slices[:0], end)
	for _, e := range o.slices {
		for i, s := range ks.slices {
			if s.end == e {
				o.freeGroup(s.g)
				ks.slices = append(ks.slices[:i], ks.slices[i+1:]...)
				break
			}
		}
	}
}

// TakeFired returns the rows of the windows fired since the last call.
func (o *Operator) TakeFired(mem memory.Allocator) (*Fired, error) {
	if o.err != nil {
		return nil, fmt.Errorf("window aggregate: %w", o.err)
	}
	f := &Fired{
		KeyRows: o.outKeys, KeyOffsets: o.outOffsets, Starts: o.outStarts, Ends: o.outEnds,
	}
	if len(f.KeyOffsets) == 0 {
		f.KeyOffsets = []int32{0}
	}
	for _, acc := range o.accs {
		col, err := acc.Result(mem, o.outGroups)
		if err != nil {
			f.Release()
			return nil, fmt.Errorf("window aggregate: %w", err)
		}
		f.Aggs = append(f.Aggs, col)
	}
	for _, g := range o.outGroups {
		o.freeGroup(g)
	}
	o.outKeys, o.outOffsets, o.outGroups, o.outStarts, o.outEnds = nil, nil, o.outGroups[:0], nil, nil
	return f, nil
}

// StateBytes estimates the memory the operator's state takes: accumulators of every group in
// use, key rows, and per key and slice the bookkeeping (map entry, key state, slots, timers).
func (o *Operator) StateBytes() int64 {
	perGroup := 0
	for _, a := range o.accs {
		perGroup += a.GroupBytes()
	}
	const keyOverhead = 48 + 80 // map entry + keyState
	var n int64
	for _, m := range o.keys {
		for k, ks := range m {
			n += int64(len(k)) + keyOverhead + int64(len(ks.slices))*(12+int64(perGroup)) + int64(len(ks.timers))*(8+32)
		}
	}
	return n
}

// Keys is the number of keys with state, for metrics and tests.
func (o *Operator) Keys() int {
	n := 0
	for _, m := range o.keys {
		n += len(m)
	}
	return n
}

// timer is a pending window firing for one key; seq keeps registration order among equal ends.
type timer struct {
	end int64
	seq uint64
	ks  *keyState
}

type timerQueue []timer

func (q timerQueue) Len() int { return len(q) }
func (q timerQueue) Less(i, j int) bool {
	if q[i].end != q[j].end {
		return q[i].end < q[j].end
	}
	return q[i].seq < q[j].seq
}
func (q timerQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *timerQueue) Push(x any)   { *q = append(*q, x.(timer)) }
func (q *timerQueue) Pop() any {
	old := *q
	t := old[len(old)-1]
	*q = old[:len(old)-1]
	return t
}

// grown returns s extended with zero values to at least n elements.
func grown[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}
