package chain

import (
	"github.com/sluice-project/sluice/exec/bundle"
	"github.com/sluice-project/sluice/exec/dedup"
)

// dedupBundle buffers the rows of a deduplication with mini-batches (Flink's
// KeyedMapBundleOperator) until the bundle is full (after the row that brings it to
// table.exec.mini-batch.size), a watermark comes, or a checkpoint barrier. On processing time
// (ProcTimeMiniBatchDeduplicateKeepFirstRowFunction, ProcTimeMiniBatchDeduplicateKeepLastRowFunction)
// it holds one row per key, the key's first row of the bundle (keep first) or its latest (keep
// last); on event time (RowTimeMiniBatchDeduplicateFunction) every row, in arrival order. The
// finished bundle's rows are deduplicated key by key in the order of Flink's HashMap, each as
// the function without mini-batches takes a row.
type dedupBundle struct {
	keys     *bundle.Bundle
	keepLast bool
	rowTime  bool
	// data holds copies of the buffered rows (batches are borrowed), kept from bundle to bundle;
	// a key's later row (keep last) is appended and the earlier one left unused until the
	// bundle finishes.
	data []byte
	// Per bundle key: its buffered row's place in data (processing time) or its first and last
	// row (event time), and its key group.
	spans  [][2]int32
	groups []int32
	// The rows buffered on event time: where each lies in data, its time and the key's next.
	rows []bufferedRow
	// Scratch of finish.
	order []int32
	batch []dedup.Row
}

// bufferedRow is a row buffered on event time.
type bufferedRow struct {
	span    [2]int32
	rowtime int64
	next    int32
}

func newDedupBundle(size int64, keepLast, rowTime bool) (*dedupBundle, error) {
	keys, err := bundle.New(size)
	if err != nil {
		return nil, err
	}
	return &dedupBundle{keys: keys, keepLast: keepLast, rowTime: rowTime}, nil
}

// add buffers a row (addInput) and reports whether it filled the bundle.
func (b *dedupBundle) add(r dedup.Row) bool {
	k, full := b.keys.Add(r.Key)
	if b.rowTime {
		// RowTimeMiniBatchDeduplicateFunction#addInput: the row joins its key's list.
		i := int32(len(b.rows))
		b.rows = append(b.rows, bufferedRow{span: b.keep(r.Row), rowtime: r.Rowtime, next: -1})
		if int(k) == len(b.spans) {
			b.spans = append(b.spans, [2]int32{i, i})
			b.groups = append(b.groups, int32(r.KeyGroup))
		} else {
			b.rows[b.spans[k][1]].next = i
			b.spans[k][1] = i
		}
		return full
	}
	switch {
	case int(k) == len(b.spans):
		b.spans = append(b.spans, b.keep(r.Row))
		b.groups = append(b.groups, int32(r.KeyGroup))
	case b.keepLast:
		b.spans[k] = b.keep(r.Row)
	}
	return full
}

// keep copies a row into data and returns where it lies.
func (b *dedupBundle) keep(row []byte) [2]int32 {
	start := int32(len(b.data))
	b.data = append(b.data, row...)
	return [2]int32{start, int32(len(b.data))}
}

// finish deduplicates the buffered rows, keys in the HashMap's order (finishBundle), through
// op, appends what op emits to out, and empties the bundle.
func (b *dedupBundle) finish(op *dedup.Deduplicate, out *rowOutput) error {
	if b.keys.Rows() == 0 {
		return nil
	}
	b.order = b.keys.Order(b.order[:0])
	b.batch = b.batch[:0]
	for _, k := range b.order {
		row := dedup.Row{KeyGroup: int(b.groups[k]), Key: b.keys.Key(k)}
		if !b.rowTime {
			span := b.spans[k]
			row.Row = b.data[span[0]:span[1]:span[1]]
			b.batch = append(b.batch, row)
			continue
		}
		for i := b.spans[k][0]; i >= 0; i = b.rows[i].next {
			span := b.rows[i].span
			row.Row, row.Rowtime = b.data[span[0]:span[1]:span[1]], b.rows[i].rowtime
			b.batch = append(b.batch, row)
		}
	}
	err := op.Process(b.batch) // it copies what it keeps
	clear(b.batch)
	b.keys.Clear()
	b.data, b.spans, b.groups, b.rows = b.data[:0], b.spans[:0], b.groups[:0], b.rows[:0]
	if err != nil {
		return err
	}
	out.append(op.Output())
	return nil
}
