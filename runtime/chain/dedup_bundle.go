package chain

import (
	"github.com/sluice-project/sluice/exec/bundle"
	"github.com/sluice-project/sluice/exec/dedup"
)

// dedupBundle buffers the rows of a deduplication on processing time with mini-batches (Flink's
// KeyedMapBundleOperator over ProcTimeMiniBatchDeduplicateKeepFirstRowFunction or
// ProcTimeMiniBatchDeduplicateKeepLastRowFunction): one row per key, the key's first row of the
// bundle (keep first) or its latest (keep last), until the bundle is full (after the row that
// brings it to table.exec.mini-batch.size), a watermark comes, or a checkpoint barrier. The
// finished bundle's rows are deduplicated key by key in the order of Flink's HashMap, each as
// the function without mini-batches takes a row.
type dedupBundle struct {
	keys     *bundle.Bundle
	keepLast bool
	// data holds copies of the buffered rows (batches are borrowed), kept from bundle to bundle;
	// a key's later row (keep last) is appended and the earlier one left unused until the
	// bundle finishes.
	data []byte
	// Per bundle key: where its buffered row lies in data, and its key group.
	spans  [][2]int32
	groups []int32
	// Scratch of finish.
	order []int32
	batch []dedup.Row
}

func newDedupBundle(size int64, keepLast bool) (*dedupBundle, error) {
	keys, err := bundle.New(size)
	if err != nil {
		return nil, err
	}
	return &dedupBundle{keys: keys, keepLast: keepLast}, nil
}

// add buffers a row (addInput) and reports whether it filled the bundle.
func (b *dedupBundle) add(r dedup.Row) bool {
	k, full := b.keys.Add(r.Key)
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
		span := b.spans[k]
		b.batch = append(b.batch, dedup.Row{KeyGroup: int(b.groups[k]), Key: b.keys.Key(k), Row: b.data[span[0]:span[1]:span[1]]})
	}
	err := op.Process(b.batch) // it copies what it keeps
	clear(b.batch)
	b.keys.Clear()
	b.data, b.spans, b.groups = b.data[:0], b.spans[:0], b.groups[:0]
	if err != nil {
		return err
	}
	out.append(op.Output())
	return nil
}
