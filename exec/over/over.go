// Package over is Flink's OVER aggregation on event time (StreamExecOverAggregate's ROW_TIME
// functions) on one subtask: every input row comes out once, when the watermark passes its
// time, with the aggregates of its frame (ROWS or RANGE, from UNBOUNDED or a bounded PRECEDING
// up to the current row) appended. Rows wait in state per key as BinaryRowData bytes; the
// accumulators are exec/agg's, one slot per key.
package over

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/keytimer"
)

// Config configures an OVER aggregation.
type Config struct {
	// Calls are the aggregate calls; a bounded frame retracts (agg.NewRetractor), an unbounded
	// one only accumulates (agg.NewAccumulator), as Flink's planner generates them.
	Calls []agg.Call
	// ArgCols holds each call's argument column in the decoded input rows (-1 for COUNT(*)).
	ArgCols []int
	// Rows is a ROWS frame (each row its own result); otherwise RANGE (the rows of one time
	// share a result).
	Rows bool
	// Bounded is a frame from a bounded PRECEDING; otherwise from UNBOUNDED PRECEDING.
	Bounded bool
	// Preceding is Flink's precedingOffset of a bounded frame: N + 1 for ROWS N PRECEDING,
	// the interval in milliseconds for RANGE.
	Preceding int64
	// TimerPerTimestamp is Flink's second unbounded OVER version
	// (RowTimeUnboundedPrecedingOverFunctionV2, table.exec.unbounded-over.version 2): a timer
	// per row time. The first version registers one timer per key at the next watermark (never
	// below 0) and processes every row the watermark passed when it fires.
	TimerPerTimestamp bool
	// ProcTime orders rows by processing time (ProcTimeUnboundedPrecedingFunction, and for a
	// bounded ROWS frame ProcTimeRowsBoundedPrecedingFunction): each row is aggregated and
	// emitted as it arrives (EmitProcTime).
	ProcTime bool
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// Row is one input row: its key group, key row bytes, BinaryRowData bytes and event time (epoch
// milliseconds; Flink reads a NULL time as 0). The slices are only read during the call.
type Row struct {
	KeyGroup int
	Key      []byte
	Row      []byte
	Rowtime  int64
}

// stored is a row in state: its time and bytes, and its place among the rows decoded for the
// current firing (idx, valid while pass is the operator's pass).
type stored struct {
	ts   int64
	row  []byte
	idx  int32
	pass uint64
}

// keyState is the state of one key, as Flink's functions keep it.
type keyState struct {
	slot int32
	// pending holds the rows waiting for their timer, by time (Flink's inputState).
	pending map[int64][]stored
	// window holds the aggregated rows a bounded frame retracts later, oldest first.
	window []stored
	// count is the number of rows in a ROWS frame (RowTimeRowsBoundedPrecedingFunction's
	// counterState), at most Preceding.
	count int64
	// lastTriggering is the time of the last timer fired (bounded frames; 0 before the first,
	// as Flink reads a missing lastTriggeringTsState): rows at or before it are late.
	lastTriggering int64
	// cleanup is the cleanup timer of a bounded RANGE frame (RowTimeRangeBoundedPrecedingFunction's
	// cleanupTsState; hasCleanup false: none).
	cleanup    int64
	hasCleanup bool
	// timers holds the key's registered event-time timers (Flink keeps one per time).
	timers map[int64]struct{}
	// round is the key's next aggregation round in the current firing (roundPass: which).
	round     int32
	roundPass uint64
}

// step is what one firing does to one key's accumulators: it retracts rows, accumulates rows
// and emits the accumulated rows with the result (one row for ROWS, a time's rows for RANGE).
// The rows are ranges of Over.retractRows and Over.accRows.
type step struct {
	slot                 int32
	round                int32
	retractFrom, retract int32
	accFrom, acc         int32
}

// Over is one subtask's OVER aggregation.
type Over struct {
	cfg        Config
	accs       []agg.GroupAccumulator
	retractors []agg.Retractor
	copyResult []func(dst, src int32)
	groups     []map[string]*keyState
	timers     keytimer.Heap
	watermark  int64
	// slots: accumulator slots in use, their capacity, and the free ones.
	slots, capacity int32
	free            []int32
	lateDropped     int64
	keys, bytes     int64

	// Per firing.
	pass   uint64
	decode [][]byte
	steps  []step
	// retractRows and accRows hold the steps' rows, as indexes of the decoded rows.
	retractRows, accRows []int32
	freed                []int32
}

// New returns an empty OVER aggregation.
func New(cfg Config) (*Over, error) {
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("over aggregate: key groups %v", cfg.KeyGroups)
	}
	if len(cfg.ArgCols) != len(cfg.Calls) {
		return nil, fmt.Errorf("over aggregate: %d argument columns for %d calls", len(cfg.ArgCols), len(cfg.Calls))
	}
	if cfg.Bounded && cfg.Preceding < 0 || cfg.Bounded && cfg.Rows && cfg.Preceding < 1 {
		return nil, fmt.Errorf("over aggregate: preceding offset %d", cfg.Preceding)
	}
	o := &Over{cfg: cfg, groups: make([]map[string]*keyState, cfg.KeyGroups.Len()), watermark: math.MinInt64}
	for _, c := range cfg.Calls {
		if cfg.Bounded {
			r, err := agg.NewRetractor(c)
			if err != nil {
				return nil, fmt.Errorf("over aggregate: %w", err)
			}
			o.accs, o.retractors, o.copyResult = append(o.accs, r), append(o.retractors, r), append(o.copyResult, r.CopyResult)
			continue
		}
		a, err := agg.NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("over aggregate: %w", err)
		}
		o.accs, o.retractors, o.copyResult = append(o.accs, a), append(o.retractors, nil), append(o.copyResult, a.Copy)
	}
	return o, nil
}

func (o *Over) group(kg int) (map[string]*keyState, error) {
	if !o.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("over aggregate: key group %d outside %v", kg, o.cfg.KeyGroups)
	}
	i := kg - o.cfg.KeyGroups.Start
	if o.groups[i] == nil {
		o.groups[i] = map[string]*keyState{}
	}
	return o.groups[i], nil
}

// alloc returns a slot with the functions' initial accumulators.
func (o *Over) alloc() int32 {
	var s int32
	if n := len(o.free); n > 0 {
		s, o.free = o.free[n-1], o.free[:n-1]
	} else {
		if o.slots == o.capacity {
			o.capacity = max(64, 2*o.capacity)
			for _, a := range o.accs {
				a.Grow(int(o.capacity))
			}
		}
		s = o.slots
		o.slots++
	}
	for _, a := range o.accs {
		a.Reset(s)
	}
	return s
}

// newKey creates a key's state.
func (o *Over) newKey(m map[string]*keyState, key string) *keyState {
	k := &keyState{slot: o.alloc(), pending: map[int64][]stored{}, timers: map[int64]struct{}{}}
	m[key] = k
	o.keys++
	o.bytes += int64(len(key))
	return k
}

// register registers a key's event-time timer (once per time, as Flink's timer service).
func (o *Over) register(k *keyState, kg int, key string, at int64) {
	if _, ok := k.timers[at]; ok {
		return
	}
	k.timers[at] = struct{}{}
	o.timers.Add(keytimer.Timer{At: at, KeyGroup: kg, Key: key})
}

// Process takes input rows, in order: rows that are not late wait in state for the watermark.
func (o *Over) Process(rows []Row) error {
	for _, r := range rows {
		m, err := o.group(r.KeyGroup)
		if err != nil {
			return err
		}
		if len(r.Row) == 0 || r.Row[0] != byte(changelog.Insert) {
			return fmt.Errorf("over aggregate: a row that is not an insert (Flink's OVER aggregation takes inserts only)")
		}
		k := m[string(r.Key)]
		// Late rows: at or before the watermark (unbounded frames), at or before the key's
		// last timer (bounded frames, 0 for a key without state).
		late := r.Rowtime <= o.watermark
		if o.cfg.Bounded {
			last := int64(0)
			if k != nil {
				last = k.lastTriggering
			}
			late = r.Rowtime <= last
		}
		if late {
			o.lateDropped++
			continue
		}
		key := string(r.Key)
		if k == nil {
			k = o.newKey(m, key)
		}
		rows, known := k.pending[r.Rowtime]
		k.pending[r.Rowtime] = append(rows, stored{ts: r.Rowtime, row: append([]byte(nil), r.Row...)})
		o.bytes += int64(len(r.Row))
		switch {
		case !o.cfg.Bounded && !o.cfg.TimerPerTimestamp:
			// AbstractRowTimeUnboundedPrecedingOver: one timer at the next watermark.
			at := int64(0)
			if o.watermark >= 0 {
				at = o.watermark + 1
			}
			o.register(k, r.KeyGroup, key, at)
		case !known:
			o.register(k, r.KeyGroup, key, r.Rowtime)
		}
		if o.cfg.Bounded && !o.cfg.Rows {
			// RowTimeRangeBoundedPrecedingFunction#registerCleanupTimer.
			least := r.Rowtime + o.cfg.Preceding + 1
			if !k.hasCleanup || k.cleanup < least {
				at := r.Rowtime + int64(float64(o.cfg.Preceding)*1.5) + 1
				o.register(k, r.KeyGroup, key, at)
				k.cleanup, k.hasCleanup = at, true
			}
		}
	}
	return nil
}

// EmitProcTime aggregates rows on processing time, in order: each row accumulates into its
// key's accumulators (a bounded ROWS frame first retracts its oldest row once it holds
// Preceding rows) and comes out with the result. It returns nil for no rows.
func (o *Over) EmitProcTime(mem memory.Allocator, rows []Row, decode Decoder) (*Fired, error) {
	if !o.cfg.ProcTime {
		return nil, fmt.Errorf("over aggregate: rows on processing time into an event-time aggregation")
	}
	o.beginPass()
	for _, r := range rows {
		m, err := o.group(r.KeyGroup)
		if err != nil {
			return nil, err
		}
		if len(r.Row) == 0 || r.Row[0] != byte(changelog.Insert) {
			return nil, fmt.Errorf("over aggregate: a row that is not an insert (Flink's OVER aggregation takes inserts only)")
		}
		key := string(r.Key)
		k := m[key]
		if k == nil {
			k = o.newKey(m, key)
		}
		s := o.newStep(k)
		row := stored{row: append([]byte(nil), r.Row...)}
		if o.cfg.Bounded {
			o.slideRows(k, s)
		}
		o.accRows = append(o.accRows, o.decoded(&row))
		s.acc++
		if o.cfg.Bounded {
			k.window = append(k.window, row)
			o.bytes += int64(len(row.row))
		}
	}
	if len(o.steps) == 0 {
		return nil, nil
	}
	f, err := o.aggregate(mem, decode)
	o.release()
	return f, err
}

// Fired is what a watermark fired: the decoded rows it read (Batch), the rows it emits (Rows,
// indexes into Batch, in order) and their aggregate values (one array per call, a value per
// emitted row). Release releases the arrays.
type Fired struct {
	Batch  arrow.RecordBatch
	Rows   []int32
	Values []arrow.Array
}

// Release releases the batch and the values.
func (f *Fired) Release() {
	if f.Batch != nil {
		f.Batch.Release()
	}
	for _, v := range f.Values {
		v.Release()
	}
}

// Decoder decodes BinaryRowData rows (with their RowKind headers) into a batch of the input's
// columns.
type Decoder func(rows [][]byte) (arrow.RecordBatch, error)

// AdvanceWatermark moves event time to w and fires the timers due, in time order: the rows
// they release are aggregated and come out with their frames' results. It returns nil when
// nothing fired.
func (o *Over) AdvanceWatermark(mem memory.Allocator, w int64, decode Decoder) (*Fired, error) {
	if w <= o.watermark {
		return nil, nil
	}
	o.watermark = w
	o.beginPass()
	for len(o.timers) > 0 && o.timers[0].At <= w {
		t := o.timers.Next()
		m, err := o.group(t.KeyGroup)
		if err != nil {
			return nil, err
		}
		k := m[t.Key]
		if k == nil {
			continue
		}
		if _, ok := k.timers[t.At]; !ok {
			continue
		}
		delete(k.timers, t.At)
		o.fire(m, t, k)
	}
	if len(o.steps) == 0 {
		o.release()
		return nil, nil
	}
	f, err := o.aggregate(mem, decode)
	o.release()
	return f, err
}

// beginPass starts a firing (or a call on processing time): no steps or decoded rows yet.
func (o *Over) beginPass() {
	o.pass++
	o.decode, o.steps, o.retractRows, o.accRows, o.freed = o.decode[:0], o.steps[:0], o.retractRows[:0], o.accRows[:0], o.freed[:0]
}

// release frees the slots of the keys cleaned up by the firing.
func (o *Over) release() {
	for _, s := range o.freed {
		for _, a := range o.accs {
			a.Reset(s)
		}
	}
	o.free = append(o.free, o.freed...)
	o.freed = o.freed[:0]
}

// fire runs one timer of a key.
func (o *Over) fire(m map[string]*keyState, t keytimer.Timer, k *keyState) {
	switch {
	case !o.cfg.Bounded && !o.cfg.TimerPerTimestamp:
		// AbstractRowTimeUnboundedPrecedingOver#onTimer: every row the watermark passed, in
		// time order; a timer at the next watermark for the others.
		var times []int64
		early := false
		for ts := range k.pending {
			if ts <= o.watermark {
				times = append(times, ts)
			} else {
				early = true
			}
		}
		slices.Sort(times)
		for _, ts := range times {
			o.emitTime(k, ts)
		}
		if early {
			o.register(k, t.KeyGroup, t.Key, o.watermark+1)
		}
	case !o.cfg.Bounded:
		// RowTimeUnboundedPrecedingOverFunctionV2: the rows of the timer's time.
		o.emitTime(k, t.At)
	case o.cfg.Rows:
		o.emitRows(k, t.At)
		k.lastTriggering = t.At
	default:
		if k.hasCleanup && k.cleanup <= t.At {
			// The cleanup timer: Flink clears all of the key's state.
			o.dropKey(m, t.Key, k)
			return
		}
		o.emitRange(k, t.At)
		k.lastTriggering = t.At
	}
}

// dropKey deletes a key's state.
func (o *Over) dropKey(m map[string]*keyState, key string, k *keyState) {
	for ts, rows := range k.pending {
		o.dropRows(rows)
		delete(k.pending, ts)
	}
	o.dropRows(k.window)
	for at := range k.timers {
		delete(k.timers, at) // the heap's entries are skipped when they pop
	}
	delete(m, key)
	o.keys--
	o.bytes -= int64(len(key))
	o.freed = append(o.freed, k.slot)
}

func (o *Over) dropRows(rows []stored) {
	for _, r := range rows {
		o.bytes -= int64(len(r.row))
	}
}

// decoded returns a stored row's index among the firing's decoded rows, adding it.
func (o *Over) decoded(r *stored) int32 {
	if r.pass != o.pass {
		r.pass, r.idx = o.pass, int32(len(o.decode))
		o.decode = append(o.decode, r.row)
	}
	return r.idx
}

// newStep starts a step of key k (its next round).
func (o *Over) newStep(k *keyState) *step {
	if k.roundPass != o.pass {
		k.roundPass, k.round = o.pass, 0
	}
	o.steps = append(o.steps, step{slot: k.slot, round: k.round,
		retractFrom: int32(len(o.retractRows)), retract: int32(len(o.retractRows)),
		accFrom: int32(len(o.accRows)), acc: int32(len(o.accRows))})
	k.round++
	return &o.steps[len(o.steps)-1]
}

// emitTime emits the rows of one time of an unbounded frame: ROWS one step per row, RANGE one
// step for them all.
func (o *Over) emitTime(k *keyState, ts int64) {
	rows, ok := k.pending[ts]
	if !ok {
		return
	}
	delete(k.pending, ts)
	var s *step
	for i := range rows {
		if s == nil || o.cfg.Rows {
			s = o.newStep(k)
		}
		o.accRows = append(o.accRows, o.decoded(&rows[i]))
		s.acc++
		o.bytes -= int64(len(rows[i].row))
	}
}

// emitRows is RowTimeRowsBoundedPrecedingFunction#onTimer: each row of the time, in arrival
// order, retracts the frame's oldest row once the frame holds Preceding rows.
func (o *Over) emitRows(k *keyState, ts int64) {
	rows, ok := k.pending[ts]
	if !ok {
		return
	}
	delete(k.pending, ts)
	for i := range rows {
		s := o.newStep(k)
		o.slideRows(k, s)
		o.accRows = append(o.accRows, o.decoded(&rows[i]))
		s.acc++
		k.window = append(k.window, rows[i])
	}
}

// slideRows makes room in a bounded ROWS frame for step s's row: once the frame holds
// Preceding rows the step retracts the oldest, otherwise the frame counts one more.
func (o *Over) slideRows(k *keyState, s *step) {
	if k.count < o.cfg.Preceding {
		k.count++
		return
	}
	o.retractOldest(k, s)
}

// retractOldest makes step s retract the frame's oldest row, which leaves the frame.
func (o *Over) retractOldest(k *keyState, s *step) {
	old := &k.window[0]
	o.retractRows = append(o.retractRows, o.decoded(old))
	s.retract++
	o.bytes -= int64(len(old.row))
	k.window[0] = stored{}
	k.window = k.window[1:]
}

// emitRange is RowTimeRangeBoundedPrecedingFunction#onTimer: the rows older than the frame
// are retracted, the time's rows accumulated and emitted with one result.
func (o *Over) emitRange(k *keyState, ts int64) {
	rows, ok := k.pending[ts]
	if !ok {
		return
	}
	delete(k.pending, ts)
	s := o.newStep(k)
	for len(k.window) > 0 && ts-k.window[0].ts > o.cfg.Preceding {
		o.retractOldest(k, s)
	}
	for i := range rows {
		o.accRows = append(o.accRows, o.decoded(&rows[i]))
		s.acc++
		k.window = append(k.window, rows[i])
	}
}

// aggregate runs the firing's steps over the accumulators, round by round (round j holds the
// j-th step of every key, so that each key's steps run in order), snapshotting each step's
// result, and reads the results.
func (o *Over) aggregate(mem memory.Allocator, decode Decoder) (*Fired, error) {
	batch, err := decode(o.decode)
	if err != nil {
		return nil, fmt.Errorf("over aggregate: %w", err)
	}
	f := &Fired{Batch: batch}
	ok := false
	defer func() {
		if !ok {
			f.Release()
		}
	}()
	rounds := int32(0)
	for _, s := range o.steps {
		rounds = max(rounds, s.round+1)
	}
	// The steps of each round (a counting sort), and each step's snapshot slot.
	start := make([]int32, rounds+1)
	for _, s := range o.steps {
		start[s.round+1]++
	}
	for j := int32(1); j <= rounds; j++ {
		start[j] += start[j-1]
	}
	order := make([]int32, len(o.steps))
	fill := slices.Clone(start[:rounds])
	for i, s := range o.steps {
		order[fill[s.round]] = int32(i)
		fill[s.round]++
	}
	snaps := make([]int32, len(o.steps))
	var retIdx, retSlots, accIdx, accSlots []int32
	for j := int32(0); j < rounds; j++ {
		retIdx, retSlots, accIdx, accSlots = retIdx[:0], retSlots[:0], accIdx[:0], accSlots[:0]
		for _, i := range order[start[j]:start[j+1]] {
			s := &o.steps[i]
			for _, r := range o.retractRows[s.retractFrom:s.retract] {
				retIdx, retSlots = append(retIdx, r), append(retSlots, s.slot)
			}
			for _, r := range o.accRows[s.accFrom:s.acc] {
				accIdx, accSlots = append(accIdx, r), append(accSlots, s.slot)
			}
		}
		for c := range o.accs {
			if err := o.run(mem, batch, c, retIdx, retSlots, accIdx, accSlots); err != nil {
				return nil, err
			}
		}
		for _, i := range order[start[j]:start[j+1]] {
			snaps[i] = o.alloc()
			for _, cp := range o.copyResult {
				cp(snaps[i], o.steps[i].slot)
			}
		}
	}
	defer func() { o.freed = append(o.freed, snaps...) }()
	var outSnaps []int32
	for i, s := range o.steps {
		for _, r := range o.accRows[s.accFrom:s.acc] {
			f.Rows, outSnaps = append(f.Rows, r), append(outSnaps, snaps[i])
		}
	}
	for c, a := range o.accs {
		v, err := a.Result(mem, outSnaps)
		if err != nil {
			return nil, fmt.Errorf("over aggregate %s: %w", o.cfg.Calls[c].Func, err)
		}
		f.Values = append(f.Values, v)
	}
	ok = true
	return f, nil
}

// run retracts and then accumulates call c's rows (indexes into batch) into their slots.
func (o *Over) run(mem memory.Allocator, batch arrow.RecordBatch, c int, retIdx, retSlots, accIdx, accSlots []int32) error {
	var arg arrow.Array
	if col := o.cfg.ArgCols[c]; col >= 0 {
		if col >= int(batch.NumCols()) {
			return fmt.Errorf("over aggregate: argument column %d of %d", col, batch.NumCols())
		}
		arg = batch.Column(col)
	}
	taken := func(idx []int32) (arrow.Array, func(), error) {
		if arg == nil {
			return nil, func() {}, nil
		}
		a, err := column.Take(arg, idx, mem)
		if err != nil {
			return nil, nil, fmt.Errorf("over aggregate: %w", err)
		}
		return a, a.Release, nil
	}
	if len(retIdx) > 0 {
		a, done, err := taken(retIdx)
		if err != nil {
			return err
		}
		o.retractors[c].Retract(a, retSlots)
		done()
	}
	if len(accIdx) > 0 {
		a, done, err := taken(accIdx)
		if err != nil {
			return err
		}
		o.accs[c].Accumulate(a, accSlots)
		done()
	}
	return nil
}

// InitializeWatermark restores the operator's event time after a restore.
func (o *Over) InitializeWatermark(w int64) { o.watermark = w }

// LateDropped counts the late rows dropped.
func (o *Over) LateDropped() int64 { return o.lateDropped }

// StateKeys is the number of keys in state.
func (o *Over) StateKeys() int64 { return o.keys }

// StateBytes is the size of the keys and rows in state.
func (o *Over) StateBytes() int64 { return o.bytes }
