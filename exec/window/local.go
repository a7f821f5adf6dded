package window

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/sinks/rowdata"
)

// LocalOperator is the local phase of a two-phase window aggregation (Flink's
// LocalSlicingWindowAggOperator): it keeps no state, pre-aggregates the rows of each key and
// slice that arrive between two flushes of its window buffer, and emits one partial
// accumulator per key and slice with the slice's end. The buffer flushes on a watermark at a
// trigger point once its earliest slice is due, and before every checkpoint.
type LocalOperator struct {
	accSet
	assigner *Assigner
	keys     *rowdata.Encoder
	// Flink's operator starts with watermark 0 and trigger point 0 (uninitialized longs).
	watermark, nextFlush int64

	pending     []pendingBatch
	pendingKeys []byte
	minPending  int64
	keyOffsets  []int32
	keyBuf      []byte

	out LocalOutput
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
	enc, err := rowdata.NewEncoderWithNulls(spec.KeyTypes, rowdata.WriterNulls)
	if err != nil {
		return nil, fmt.Errorf("local window aggregate: %w", err)
	}
	l := &LocalOperator{assigner: spec.Assigner, keys: enc, minPending: 1<<63 - 1}
	for _, c := range spec.Calls {
		a, err := newAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("local window aggregate: %w", err)
		}
		l.accs = append(l.accs, a)
	}
	return l, nil
}

// FieldTypes are the Flink types of the accumulator fields the local phase emits.
func (l *LocalOperator) FieldTypes() []catalog.Type {
	var out []catalog.Type
	for _, a := range l.accs {
		out = append(out, a.fieldTypes()...)
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
	batch := pendingBatch{n: n, rows: make([]pendingRow, 0, n)}
	for r := 0; r < n; r++ {
		end := l.assigner.SliceEnd(times[r])
		key := l.keyBuf[l.keyOffsets[r]:l.keyOffsets[r+1]]
		batch.rows = append(batch.rows, pendingRow{
			row: int32(r), keyStart: int32(len(l.pendingKeys)), keyEnd: int32(len(l.pendingKeys) + len(key)), target: end,
		})
		l.pendingKeys = append(l.pendingKeys, key...)
		l.minPending = min(l.minPending, end)
	}
	batch.retain(in)
	l.pending = append(l.pending, batch)
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
		if IsFired(l.minPending, w) {
			l.flush()
		}
		l.nextFlush = nextTrigger(w, l.assigner.slice)
	}
}

// PrepareCheckpoint flushes the buffer, as Flink does before a checkpoint barrier.
func (l *LocalOperator) PrepareCheckpoint() { l.flush() }

// flush pre-aggregates the buffered rows per key and slice (LocalAggCombiner#combine: a fresh
// accumulator per key and slice, the rows accumulated in arrival order).
func (l *LocalOperator) flush() {
	type slot struct {
		end int64
		g   int32
	}
	index := map[string][]slot{}
	var groups []int32
	for _, b := range l.pending {
		rowGroups := make([]int32, b.n)
		for i := range rowGroups {
			rowGroups[i] = -1
		}
		for _, p := range b.rows {
			key := l.pendingKeys[p.keyStart:p.keyEnd]
			g := int32(-1)
			for _, s := range index[string(key)] {
				if s.end == p.target {
					g = s.g
					break
				}
			}
			if g < 0 {
				g = l.newGroup()
				index[string(key)] = append(index[string(key)], slot{p.target, g})
				if len(l.out.KeyOffsets) == 0 {
					l.out.KeyOffsets = append(l.out.KeyOffsets, 0)
				}
				l.out.KeyRows = append(l.out.KeyRows, key...)
				l.out.KeyOffsets = append(l.out.KeyOffsets, int32(len(l.out.KeyRows)))
				l.out.SliceEnds = append(l.out.SliceEnds, p.target)
				groups = append(groups, g)
			}
			rowGroups[p.row] = g
		}
		var scratch []int32
		b.accumulate(l.accs, rowGroups, &scratch)
		b.release()
	}
	l.out.groups = append(l.out.groups, groups...)
	l.pending = l.pending[:0]
	l.pendingKeys = l.pendingKeys[:0]
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
		cols, err := acc.fields(mem, out.groups)
		if err != nil {
			out.Release()
			return nil, fmt.Errorf("local window aggregate: %w", err)
		}
		out.Fields = append(out.Fields, cols...)
	}
	for _, g := range out.groups {
		l.freeGroup(g)
	}
	return &out, nil
}
