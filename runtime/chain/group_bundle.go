package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/bundle"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// groupBundle buffers the rows of a group aggregation with mini-batches (Flink's
// KeyedMapBundleOperator over MiniBatchGroupAggFunction in one phase, MapBundleOperator over
// MiniBatchLocalGroupAggFunction and KeyedMapBundleOperator over MiniBatchGlobalGroupAggFunction
// in two): copies of the columns the aggregation reads, each row's RowKind and key, until the
// bundle is full (after the row that brings it to table.exec.mini-batch.size), a watermark
// comes, or a checkpoint barrier. The finished bundle is aggregated key by key in the order of
// Flink's HashMap.
type groupBundle struct {
	keys *bundle.Bundle
	mem  memory.Allocator
	// used marks the input columns the aggregation reads (keys, arguments, filters).
	used []bool
	// parts holds, per used column, the copied slices of the batches since the bundle began.
	parts [][]arrow.Array
	// Per buffered row, in arrival order: its RowKind and its key's number in the bundle.
	kinds  []int8
	rowKey []int32
	// keyGroup is each bundle key's key group.
	keyGroup  []int32
	changelog bool
	// Scratch of finish.
	order, place, start, sel []int32
	keyRows                  []byte
	keyOffsets, groups       []int32
}

func newGroupBundle(p *plan.GroupAggregate, mem memory.Allocator) (*groupBundle, error) {
	keys, err := bundle.New(p.MiniBatchSize)
	if err != nil {
		return nil, err
	}
	b := &groupBundle{keys: keys, mem: mem, used: make([]bool, len(p.InTypes)), parts: make([][]arrow.Array, len(p.InTypes))}
	for _, c := range p.KeyCols {
		b.used[c] = true
	}
	if p.Phase == plan.GlobalPhase {
		for c := len(p.KeyCols); c < len(p.InTypes); c++ {
			b.used[c] = true // the partial accumulators
		}
		return b, nil
	}
	for i := range p.Calls {
		if c := p.ArgCols[i]; c >= 0 {
			b.used[c] = true
		}
		if c := p.FilterCols[i]; c >= 0 {
			b.used[c] = true
		}
	}
	return b, nil
}

// add buffers n rows, finishing the bundle after each row that fills it.
func (b *groupBundle) add(s *groupAggStage, cols []arrow.Array, kinds []int8, n int, keyRows []byte, keyOffsets []int32) error {
	from := 0
	for r := 0; r < n; r++ {
		k, full := b.keys.Add(keyRows[keyOffsets[r]:keyOffsets[r+1]])
		if int(k) == len(b.keyGroup) {
			b.keyGroup = append(b.keyGroup, s.groups[r])
		}
		b.rowKey = append(b.rowKey, k)
		kind := changelog.Insert
		if kinds != nil {
			kind = kinds[r]
			b.changelog = true
		}
		b.kinds = append(b.kinds, kind)
		if full || r == n-1 {
			if err := b.keep(cols, from, r+1); err != nil {
				return err
			}
			from = r + 1
		}
		if full {
			if err := b.finish(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// keep copies rows [from, to) of the used columns: the batch is borrowed.
func (b *groupBundle) keep(cols []arrow.Array, from, to int) error {
	for c, used := range b.used {
		if !used {
			continue
		}
		slice := array.NewSlice(cols[c], int64(from), int64(to))
		owned, err := array.Concatenate([]arrow.Array{slice}, b.mem)
		slice.Release()
		if err != nil {
			return fmt.Errorf("group aggregate bundle: %w", err)
		}
		b.parts[c] = append(b.parts[c], owned)
	}
	return nil
}

// finish aggregates the bundle's rows key by key, in the order of Flink's HashMap, and empties
// the bundle.
func (b *groupBundle) finish(s *groupAggStage) error {
	if len(b.rowKey) == 0 {
		b.keys.Clear()
		return nil
	}
	defer b.clear()
	// place is each key's place in the order.
	b.order = b.keys.Order(b.order[:0])
	b.place = grown(b.place, len(b.order))[:len(b.order)]
	for i, k := range b.order {
		b.place[k] = int32(i)
	}
	switch s.plan.Phase {
	case plan.LocalPhase:
		return b.finishLocal(s)
	case plan.GlobalPhase:
		return b.finishGlobal(s)
	}
	return b.finishOnePhase(s)
}

// finishOnePhase runs the bundle's rows, each key's together in arrival order, keys in order,
// through the aggregation (MiniBatchGroupAggFunction#finishBundle).
func (b *groupBundle) finishOnePhase(s *groupAggStage) error {
	n, keys := len(b.rowKey), len(b.order)
	// The rows by key: a counting sort of the rows by their key's place.
	b.start = grown(b.start, keys+1)[:keys+1]
	clear(b.start)
	for _, k := range b.rowKey {
		b.start[b.place[k]+1]++
	}
	for i := 1; i <= keys; i++ {
		b.start[i] += b.start[i-1]
	}
	b.sel = grown(b.sel, n)[:n]
	next := append([]int32(nil), b.start[:keys]...)
	for r, k := range b.rowKey {
		p := b.place[k]
		b.sel[next[p]] = int32(r)
		next[p]++
	}
	in := &agg.GroupInput{N: n, Bundle: true}
	if b.changelog {
		in.Kinds = make([]int8, n)
	}
	b.keyRows, b.keyOffsets, b.groups = b.keyRows[:0], append(b.keyOffsets[:0], 0), b.groups[:0]
	for i, r := range b.sel {
		k := b.rowKey[r]
		if in.Kinds != nil {
			in.Kinds[i] = b.kinds[r]
		}
		b.keyRows = append(b.keyRows, b.keys.Key(k)...)
		b.keyOffsets = append(b.keyOffsets, int32(len(b.keyRows)))
		b.groups = append(b.groups, b.keyGroup[k])
	}
	in.Keys, in.KeyOffsets, in.KeyGroups = b.keyRows, b.keyOffsets, b.groups
	cols, err := b.columns(b.sel)
	defer releaseArrays(cols)
	if err != nil {
		return err
	}
	return s.run(in, cols)
}

// finishLocal aggregates the bundle's rows into each key's partial accumulators and emits
// them, keys in order (MiniBatchLocalGroupAggFunction#finishBundle).
func (b *groupBundle) finishLocal(s *groupAggStage) error {
	cols, err := b.columns(nil)
	defer releaseArrays(cols)
	if err != nil {
		return err
	}
	groups := b.keyPlaces()
	args, filters := make([]arrow.Array, len(s.plan.Calls)), make([]arrow.Array, len(s.plan.Calls))
	for i := range s.plan.Calls {
		if c := s.plan.ArgCols[i]; c >= 0 {
			args[i] = cols[c]
		}
		if c := s.plan.FilterCols[i]; c >= 0 {
			filters[i] = cols[c]
		}
	}
	var kinds []int8 // none: every row accumulates
	if b.changelog {
		kinds = b.kinds
	}
	fields, err := s.local.Aggregate(s.mem, len(b.order), groups, kinds, args, filters)
	if err != nil {
		return err
	}
	defer releaseArrays(fields)
	return s.emit(cols, b.firstRows(), fields, nil)
}

// finishGlobal merges the bundle's partial accumulators into the keys' state and emits the
// keys' changes (MiniBatchGlobalGroupAggFunction#finishBundle).
func (b *groupBundle) finishGlobal(s *groupAggStage) error {
	cols, err := b.columns(nil)
	defer releaseArrays(cols)
	if err != nil {
		return err
	}
	in := &agg.PartialBundle{RowKey: b.keyPlaces()}
	b.keyRows, b.keyOffsets, b.groups = b.keyRows[:0], append(b.keyOffsets[:0], 0), b.groups[:0]
	for _, k := range b.order {
		b.keyRows = append(b.keyRows, b.keys.Key(k)...)
		b.keyOffsets = append(b.keyOffsets, int32(len(b.keyRows)))
		b.groups = append(b.groups, b.keyGroup[k])
	}
	in.Keys, in.KeyOffsets, in.KeyGroups = b.keyRows, b.keyOffsets, b.groups
	for i, c := range s.plan.FieldCols {
		end := s.plan.FieldEnd // a local phase's appended COUNT(*) may follow
		if i+1 < len(s.plan.FieldCols) {
			end = s.plan.FieldCols[i+1]
		}
		in.Fields = append(in.Fields, cols[c:end])
	}
	ch, err := s.op.MergeBundle(s.mem, in)
	if err != nil {
		return err
	}
	defer ch.Release()
	if len(ch.Kinds) == 0 {
		return nil
	}
	first := b.firstRows()
	rows := make([]int32, len(ch.Rows))
	for i, k := range ch.Rows {
		rows[i] = first[k]
	}
	return s.emit(cols, rows, ch.Values, ch.Kinds)
}

// keyPlaces returns each row's key's place in the order.
func (b *groupBundle) keyPlaces() []int32 {
	groups := make([]int32, len(b.rowKey))
	for r, k := range b.rowKey {
		groups[r] = b.place[k]
	}
	return groups
}

// firstRows returns the first row of each key, keys in order.
func (b *groupBundle) firstRows() []int32 {
	first := make([]int32, len(b.order))
	for i := range first {
		first[i] = -1
	}
	for r, k := range b.rowKey {
		if p := b.place[k]; first[p] < 0 {
			first[p] = int32(r)
		}
	}
	return first
}

// columns returns the bundle's used columns (nil for the others), each of its rows in arrival
// order, or taken at sel when sel is not nil. The caller releases them.
func (b *groupBundle) columns(sel []int32) ([]arrow.Array, error) {
	cols := make([]arrow.Array, len(b.used))
	for c, used := range b.used {
		if !used {
			continue
		}
		var whole arrow.Array
		if len(b.parts[c]) == 1 {
			whole = b.parts[c][0]
			whole.Retain()
		} else {
			var err error
			if whole, err = array.Concatenate(b.parts[c], b.mem); err != nil {
				return cols, fmt.Errorf("group aggregate bundle: %w", err)
			}
		}
		if sel == nil {
			cols[c] = whole
			continue
		}
		taken, err := column.TakeOrNull(whole, sel, b.mem)
		whole.Release()
		if err != nil {
			return cols, fmt.Errorf("group aggregate bundle: %w", err)
		}
		cols[c] = taken
	}
	return cols, nil
}

// clear empties the bundle.
func (b *groupBundle) clear() {
	b.keys.Clear()
	for c := range b.parts {
		releaseArrays(b.parts[c])
		b.parts[c] = b.parts[c][:0]
	}
	b.kinds, b.rowKey, b.keyGroup, b.changelog = b.kinds[:0], b.rowKey[:0], b.keyGroup[:0], false
}
