package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/bundle"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// groupBundle buffers the rows of a one-phase group aggregation with mini-batches (Flink's
// KeyedMapBundleOperator over MiniBatchGroupAggFunction): copies of the columns the
// aggregation reads, each row's RowKind and key, until the bundle is full (after the row that
// brings it to table.exec.mini-batch.size), a watermark comes, or a checkpoint barrier. The
// finished bundle is aggregated key by key in the order of Flink's HashMap.
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
		kind := agg.Insert
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

// finish aggregates the bundle's rows key by key, in the order of Flink's HashMap, each key's
// rows in arrival order, and empties the bundle.
func (b *groupBundle) finish(s *groupAggStage) error {
	n := len(b.rowKey)
	if n == 0 {
		b.keys.Clear()
		return nil
	}
	defer b.clear()
	// The rows by key: a counting sort of the rows by their key's place in the order.
	b.order = b.keys.Order(b.order[:0])
	keys := len(b.order)
	b.place = grown(b.place, keys)[:keys]
	place := b.place
	for i, k := range b.order {
		place[k] = int32(i)
	}
	b.start = grown(b.start, keys+1)[:keys+1]
	clear(b.start)
	for _, k := range b.rowKey {
		b.start[place[k]+1]++
	}
	for i := 1; i <= keys; i++ {
		b.start[i] += b.start[i-1]
	}
	b.sel = grown(b.sel, n)[:n]
	next := append([]int32(nil), b.start[:keys]...)
	for r, k := range b.rowKey {
		p := place[k]
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
	cols := make([]arrow.Array, len(b.used))
	defer func() { releaseArrays(cols) }()
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
				return fmt.Errorf("group aggregate bundle: %w", err)
			}
		}
		taken, err := column.TakeOrNull(whole, b.sel, b.mem)
		whole.Release()
		if err != nil {
			return fmt.Errorf("group aggregate bundle: %w", err)
		}
		cols[c] = taken
	}
	return s.run(in, cols)
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
