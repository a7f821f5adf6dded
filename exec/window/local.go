package window

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/column"
)

// LocalOperator is the local phase of a two-phase window aggregation (Flink's
// LocalSlicingWindowAggOperator): it keeps no state, pre-aggregates the rows of each key and
// slice that arrive between two flushes of its window buffer, and emits one partial
// accumulator per key and slice with the slice's end. The buffer flushes on a watermark at a
// trigger point once its earliest slice is due, and before every checkpoint.
//
// Flink buffers the rows and accumulates them, in arrival order, into a fresh accumulator per
// key and slice when it flushes; this operator accumulates each row on arrival into the open
// accumulator of its key and slice, which is the same computation done earlier.
type LocalOperator struct {
	accSet
	calls    []agg.Call
	assigner *Assigner
	zone     Zone
	keys     *binaryrow.Encoder
	// Flink's operator starts with watermark 0 and trigger point 0 (uninitialized longs).
	watermark, nextFlush int64

	// The accumulators opened since the last flush, per key row and slice: in a slotTable16
	// when the key is one fixed-width field (the common case, its key rows are 16 bytes), else
	// by the key row as a string.
	open       map[string][]localSlot
	open16     *slotTable16
	openRows   LocalOutput
	minPending int64
	keyOffsets []int32
	keyBuf     []byte
	rowGroups  []int32
	filtered   []int32

	out LocalOutput
}

type localSlot struct {
	end int64
	g   int32
}

// LocalOutput is what a flush of the local phase produced: one row per key and slice.
type LocalOutput struct {
	// KeyRows holds the key rows (BinaryRowData of the key types): row i is
	// KeyRows[KeyOffsets[i]:KeyOffsets[i+1]].
	KeyRows    []byte
	KeyOffsets []int32
	// Fields holds every call's accumulator fields, in order.
	Fields []arrow.Array
	// SliceEnds holds each row's slice end.
	SliceEnds []int64
	groups    []int32
}

// Len is the number of rows.
func (l *LocalOutput) Len() int { return len(l.SliceEnds) }

// Release releases the field columns.
func (l *LocalOutput) Release() { releaseAll(l.Fields) }

// NewLocal returns the local phase of spec's aggregation (the key groups are not used).
func NewLocal(spec Spec) (*LocalOperator, error) {
	if spec.Assigner == nil {
		return nil, fmt.Errorf("local window aggregate: no window")
	}
	enc, err := binaryrow.NewEncoderWithNulls(spec.KeyTypes, binaryrow.WriterNulls)
	if err != nil {
		return nil, fmt.Errorf("local window aggregate: %w", err)
	}
	l := &LocalOperator{calls: spec.Calls, assigner: spec.Assigner, zone: spec.Zone, keys: enc, minPending: 1<<63 - 1, open: map[string][]localSlot{}}
	if len(spec.KeyTypes) == 1 && fixedWidth(spec.KeyTypes[0]) {
		l.open16 = newSlotTable16()
	}
	for _, c := range spec.Calls {
		a, err := agg.NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("local window aggregate: %w", err)
		}
		l.accs = append(l.accs, a)
	}
	return l, nil
}

// FieldTypes are the Flink types of the accumulator fields the local phase emits: every call's
// fields, then one RAW distinct view per distinct argument.
func (l *LocalOperator) FieldTypes() []catalog.Type {
	var out []catalog.Type
	for _, a := range l.accs {
		out = append(out, a.FieldTypes()...)
	}
	for i := 0; i < l.distinctViews(l.calls); i++ {
		out = append(out, catalog.Type{Kind: catalog.Raw, Nullable: true})
	}
	return out
}

// Process buffers one batch of rows (Rowtime and Args as for Operator.Process).
func (l *LocalOperator) Process(in Input) error {
	n := in.Rowtime.Len()
	if len(in.Args) != len(l.accs) {
		return fmt.Errorf("local window aggregate: %d argument columns for %d aggregates", len(in.Args), len(l.accs))
	}
	if cap(l.keyOffsets) < n+1 {
		l.keyOffsets = make([]int32, n+1)
	}
	l.keyOffsets = l.keyOffsets[:n+1]
	if err := l.keys.Layout(in.Keys, n, l.keyOffsets); err != nil {
		return fmt.Errorf("local window aggregate: %w", err)
	}
	size := int(l.keyOffsets[n])
	if cap(l.keyBuf) < size {
		l.keyBuf = make([]byte, size)
	}
	l.keyBuf = l.keyBuf[:size]
	if err := l.keys.Encode(in.Keys, nil, n, l.keyOffsets, l.keyBuf); err != nil {
		return fmt.Errorf("local window aggregate: %w", err)
	}
	if in.Rowtime.NullN() > 0 {
		return fmt.Errorf("local window aggregate: a row of the batch has a null time attribute")
	}
	times := column.Values[int64](in.Rowtime)
	l.rowGroups = grown(l.rowGroups[:0], n)
	groups := l.rowGroups[:n]
	if l.open16 != nil {
		l.assignLocal16(times, groups)
	} else {
		l.assignLocal(times, groups)
	}
	batch := pendingBatch{n: n, args: in.Args, filters: in.Filters}
	batch.accumulate(l.accs, groups, &l.filtered)
	return nil
}

// AdvanceWatermark flushes the buffer when w reaches a trigger point and the earliest buffered
// slice is due.
func (l *LocalOperator) AdvanceWatermark(w int64) {
	if w <= l.watermark {
		return
	}
	l.watermark = w
	if w >= l.nextFlush {
		if l.zone.IsFired(l.minPending, w) {
			l.flush()
		}
		l.nextFlush = l.zone.NextTrigger(w, l.assigner.slice)
	}
}

// PrepareCheckpoint flushes the buffer, as Flink does before a checkpoint barrier.
func (l *LocalOperator) PrepareCheckpoint() { l.flush() }

// assignLocal finds or opens the accumulator of each row's key and slice.
func (l *LocalOperator) assignLocal(times []int64, groups []int32) {
	var ends sliceEnds
	for r := range groups {
		end := ends.of(l.assigner, l.zone.ToUTC(times[r]))
		key := l.keyBuf[l.keyOffsets[r]:l.keyOffsets[r+1]]
		g := int32(-1)
		slots := l.open[string(key)]
		for _, s := range slots {
			if s.end == end {
				g = s.g
				break
			}
		}
		if g < 0 {
			g = l.openGroup(key, end)
			l.open[string(key)] = append(slots, localSlot{end, g})
		}
		groups[r] = g
	}
}

// assignLocal16 is assignLocal for 16-byte key rows, through the slot table.
func (l *LocalOperator) assignLocal16(times []int64, groups []int32) {
	t := l.open16
	var ends sliceEnds
	for r := range groups {
		end := ends.of(l.assigner, l.zone.ToUTC(times[r]))
		key := l.keyBuf[l.keyOffsets[r]:l.keyOffsets[r+1]]
		g, at := t.find(key, end)
		if g < 0 {
			g = l.openGroup(key, end)
			t.insert(at, g)
		}
		groups[r] = g
	}
}

// openGroup opens the accumulator of a key row and slice end: a new group, recorded in the
// order of opening for the next flush.
func (l *LocalOperator) openGroup(key []byte, end int64) int32 {
	g := l.newGroup()
	o := &l.openRows
	if len(o.KeyOffsets) == 0 {
		o.KeyOffsets = append(o.KeyOffsets, 0)
	}
	o.KeyRows = append(o.KeyRows, key...)
	o.KeyOffsets = append(o.KeyOffsets, int32(len(o.KeyRows)))
	o.SliceEnds = append(o.SliceEnds, end)
	o.groups = append(o.groups, g)
	l.minPending = min(l.minPending, end)
	return g
}

// fixedWidth reports whether a key field lives entirely in its BinaryRowData slot, so that a
// one-field key row is exactly 16 bytes.
func fixedWidth(t catalog.Type) bool {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float,
		catalog.Double, catalog.Date, catalog.Time:
		return true
	case catalog.Timestamp, catalog.TimestampLTZ:
		return t.Precision <= 3
	case catalog.Decimal:
		return t.IsCompactDecimal()
	}
	return false
}

// flush closes the open accumulators: they become output (LocalAggCombiner#combine).
func (l *LocalOperator) flush() {
	o := &l.openRows
	if len(o.groups) == 0 {
		return
	}
	out := &l.out
	if len(out.KeyOffsets) == 0 {
		out.KeyOffsets = append(out.KeyOffsets, 0)
	}
	base := int32(len(out.KeyRows))
	out.KeyRows = append(out.KeyRows, o.KeyRows...)
	for _, off := range o.KeyOffsets[1:] {
		out.KeyOffsets = append(out.KeyOffsets, base+off)
	}
	out.SliceEnds = append(out.SliceEnds, o.SliceEnds...)
	out.groups = append(out.groups, o.groups...)
	l.openRows = LocalOutput{KeyRows: o.KeyRows[:0], KeyOffsets: o.KeyOffsets[:0], SliceEnds: o.SliceEnds[:0], groups: o.groups[:0]}
	clear(l.open)
	if l.open16 != nil {
		l.open16.reset()
	}
	l.minPending = 1<<63 - 1
}

// TakeOutput returns the partial aggregates flushed since the last call.
func (l *LocalOperator) TakeOutput(mem memory.Allocator) (*LocalOutput, error) {
	out := l.out
	l.out = LocalOutput{}
	if len(out.KeyOffsets) == 0 {
		out.KeyOffsets = []int32{0}
	}
	for _, acc := range l.accs {
		cols, err := acc.Fields(mem, out.groups)
		if err != nil {
			out.Release()
			return nil, fmt.Errorf("local window aggregate: %w", err)
		}
		out.Fields = append(out.Fields, cols...)
	}
	out.Fields = append(out.Fields, l.viewColumns(mem, l.calls, out.groups)...)
	for _, g := range out.groups {
		l.freeGroup(g)
	}
	return &out, nil
}
