package iceberg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/column"
)

// Part is the rows of one partition of a batch.
type Part struct {
	Partition int32
	Batch     arrow.RecordBatch
}

// Splitter splits batches by partition for the HASH distribution mode, whose shuffle sends
// each partition's rows to one writer (Flink's Iceberg sink keys the rows by the partition's
// path). Partitions are numbered as they first appear; PartitionValues gives their values.
type Splitter struct {
	part *partitioner
	mem  memory.Allocator
	sel  [][]int32
	// generation counts the times the partition numbers started over (see Split).
	generation int32
}

// splitterPartitions bounds the partitions a Splitter numbers before it starts over: a
// stream partitioned by time meets new partitions for as long as it runs.
const splitterPartitions = 4096

// NewSplitter splits rows of the given fields by the partition spec (not empty).
func NewSplitter(fields []Field, spec []PartitionField, mem memory.Allocator) (*Splitter, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if len(spec) == 0 {
		return nil, fmt.Errorf("iceberg splitter: the table is not partitioned")
	}
	p, err := newPartitioner(spec, fields)
	if err != nil {
		return nil, fmt.Errorf("iceberg splitter: %w", err)
	}
	return &Splitter{part: p, mem: mem}, nil
}

// Split returns the rows of b by partition, in the order of the partitions' numbers, each part's
// rows in b's order. The caller releases the parts' batches.
//
// Once more than splitterPartitions partitions are numbered, the numbering starts over before
// the next batch and Generation changes: numbers of an earlier generation mean nothing.
func (s *Splitter) Split(b arrow.RecordBatch) ([]Part, error) {
	if len(s.part.values) > splitterPartitions {
		s.part.index = map[string]int32{}
		s.part.values = s.part.values[:0]
		s.generation++
	}
	rows, err := s.part.rowsByPartition(b, &s.sel)
	if err != nil {
		return nil, err
	}
	var out []Part
	for p, sel := range rows {
		if len(sel) == 0 {
			continue
		}
		if len(sel) == int(b.NumRows()) {
			b.Retain()
			out = append(out, Part{Partition: int32(p), Batch: b})
			continue
		}
		sub, err := column.TakeBatch(b, sel, s.mem)
		if err != nil {
			for _, o := range out {
				o.Batch.Release()
			}
			return nil, err
		}
		out = append(out, Part{Partition: int32(p), Batch: sub})
	}
	return out, nil
}

// Generation is the number of times the partition numbering started over.
func (s *Splitter) Generation() int32 { return s.generation }

// PartitionValues returns a partition's values.
func (s *Splitter) PartitionValues(p int32) ([]Value, error) {
	return s.part.valuesOf(p)
}

// rowsByPartition assigns b's rows to partitions and returns, per partition id, its rows (sel
// is the reused scratch; empty entries are partitions without rows in b).
func (p *partitioner) rowsByPartition(b arrow.RecordBatch, sel *[][]int32) ([][]int32, error) {
	parts, err := p.assign(b)
	if err != nil {
		return nil, err
	}
	rows := *sel
	for i := range rows {
		rows[i] = rows[i][:0]
	}
	for r, id := range parts {
		for int(id) >= len(rows) {
			rows = append(rows, nil)
		}
		rows[id] = append(rows[id], int32(r))
	}
	*sel = rows
	return rows, nil
}

// valuesOf returns a partition's values.
func (p *partitioner) valuesOf(id int32) ([]Value, error) {
	if id < 0 || int(id) >= len(p.values) {
		return nil, fmt.Errorf("iceberg writer: no partition %d", id)
	}
	return p.values[id], nil
}
