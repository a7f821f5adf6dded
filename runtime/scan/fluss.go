package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/flusslog"
)

// EarliestOffset is the fetch offset of a Fluss bucket read from its log's start (Fluss's
// LogScanner.EARLIEST_OFFSET), which the tablet server resolves; no row is dropped then.
const EarliestOffset = -2

// FlussFetch decodes the log batches of one Fluss bucket's fetch into one batch of the scan's
// columns: Fluss's split reader fetches the bucket's log raw from its leader and hands the
// answer's bytes over in one call (see docs/internals/fluss-source.md).
type FlussFetch struct {
	plan   *plan.FlussScan
	dec    *flusslog.Decoder
	schema *arrow.Schema
	mem    memory.Allocator
}

// OpenFlussFetch compiles the island JSON of a Fluss scan node for decoding its fetches.
func OpenFlussFetch(scanJSON []byte) (*FlussFetch, error) {
	p, err := plan.CompileNodeIsland(scanJSON, "fluss scan", plan.CompileFlussScan)
	if err != nil {
		return nil, err
	}
	dec, err := p.Decoder()
	if err != nil {
		return nil, fmt.Errorf("fluss table %s: %w", p.Table, err)
	}
	fields := make([]arrow.Field, len(p.Order))
	for i, o := range p.Order {
		fields[i] = dec.Schema().Field(o)
	}
	if p.Changelog {
		fields = append(fields, arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	}
	return &FlussFetch{plan: p, dec: dec, schema: arrow.NewSchema(fields, nil), mem: bufpool.New()}, nil
}

// Decode decodes the whole log batches of records (a partial one at the end is left, as Fluss's
// reader leaves it) into one batch of the scan's columns in its order, from log offset from on
// (the bucket's offset the fetch asked for: the rows of a batch that starts before it are
// dropped; EarliestOffset drops none). It returns the batch and the offset after the last whole
// log batch (from, when there is none).
func (f *FlussFetch) Decode(records []byte, from int64) (arrow.RecordBatch, int64, error) {
	var parts []arrow.RecordBatch
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	next := from
	for at := 0; at < len(records); {
		b, size, ok, err := flusslog.Next(records[at:])
		if err != nil {
			return nil, 0, fmt.Errorf("fluss table %s: %w", f.plan.Table, err)
		}
		if !ok {
			break
		}
		at += size
		if from != EarliestOffset && b.NextOffset() <= from {
			continue // a batch before the offset, which a fetch may start with
		}
		start := 0
		if from != EarliestOffset && from > b.BaseOffset {
			start = int(min(from-b.BaseOffset, int64(b.RecordCount)))
		}
		next = b.NextOffset()
		if start == int(b.RecordCount) {
			continue
		}
		rows, err := f.dec.Decode(&b, start, int(b.RecordCount), f.mem)
		if err != nil {
			return nil, 0, fmt.Errorf("fluss table %s: %w", f.plan.Table, err)
		}
		parts = append(parts, f.reorder(rows))
	}
	out, err := f.concat(parts)
	if err != nil {
		return nil, 0, fmt.Errorf("fluss table %s: %w", f.plan.Table, err)
	}
	return out, next, nil
}

// reorder lays a decoded batch (the fetched columns in the table's order, then the RowKinds)
// out in the scan's order; it releases rows.
func (f *FlussFetch) reorder(rows arrow.RecordBatch) arrow.RecordBatch {
	defer rows.Release()
	cols := make([]arrow.Array, 0, f.schema.NumFields())
	for _, o := range f.plan.Order {
		cols = append(cols, rows.Column(o))
	}
	if f.plan.Changelog {
		cols = append(cols, rows.Column(int(rows.NumCols())-1))
	}
	return array.NewRecordBatch(f.schema, cols, rows.NumRows())
}

// concat makes one batch of the parts (they stay the caller's).
func (f *FlussFetch) concat(parts []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(parts) == 0 {
		return emptyBatch(f.schema, f.mem), nil
	}
	return concatBatches(f.schema, parts, f.mem)
}
