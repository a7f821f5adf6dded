package iceberg

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/column"
)

// Chunk is file bytes produced for one partition's open data file.
type Chunk struct {
	Partition int32
	Bytes     []byte
}

// FanoutWriter writes batches into one open data file per partition, as Iceberg's
// PartitionedFanoutWriter does (an unpartitioned table has one partition, 0). The caller owns
// where each file's bytes go and when a file is finished (rolled or completed).
type FanoutWriter struct {
	fields []Field
	schema string
	opts   Options
	mem    memory.Allocator
	part   *partitioner // nil for an unpartitioned table
	open   map[int32]*partFile
	// finished keeps the float metrics of each partition's last finished file.
	finished map[int32][]FloatMetrics
	sel      [][]int32
}

type partFile struct {
	w   *Writer
	buf bytes.Buffer
}

// NewFanoutWriter writes rows of the given fields, partitioned by spec (empty: unpartitioned).
func NewFanoutWriter(fields []Field, spec []PartitionField, schemaJSON string, opts Options, mem memory.Allocator) (*FanoutWriter, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	f := &FanoutWriter{fields: fields, schema: schemaJSON, opts: opts, mem: mem,
		open: map[int32]*partFile{}, finished: map[int32][]FloatMetrics{}}
	for _, c := range fields {
		if err := c.Writable(); err != nil {
			return nil, fmt.Errorf("iceberg writer: column %s: %w", c.Name, err)
		}
	}
	if len(spec) > 0 {
		p, err := newPartitioner(spec, fields)
		if err != nil {
			return nil, fmt.Errorf("iceberg writer: %w", err)
		}
		f.part = p
	}
	return f, nil
}

// Write adds a batch's rows to their partitions' files and returns the bytes each file
// produced (a file started by this batch begins with its header).
func (f *FanoutWriter) Write(b arrow.RecordBatch) ([]Chunk, error) {
	if f.part == nil {
		if err := f.writeTo(0, b); err != nil {
			return nil, err
		}
		return f.take(), nil
	}
	byPartition, err := f.part.rowsByPartition(b, &f.sel)
	if err != nil {
		return nil, err
	}
	for p, rows := range byPartition {
		if len(rows) == 0 {
			continue
		}
		if len(rows) == int(b.NumRows()) {
			err = f.writeTo(int32(p), b)
		} else {
			err = f.writeRows(int32(p), b, rows)
		}
		if err != nil {
			return nil, err
		}
	}
	return f.take(), nil
}

// writeRows writes the selected rows of a batch to a partition's file.
func (f *FanoutWriter) writeRows(p int32, b arrow.RecordBatch, rows []int32) error {
	sub, err := column.TakeBatch(b, rows, f.mem)
	if err != nil {
		return fmt.Errorf("iceberg writer: %w", err)
	}
	defer sub.Release()
	return f.writeTo(p, sub)
}

func (f *FanoutWriter) writeTo(p int32, b arrow.RecordBatch) error {
	pf := f.open[p]
	if pf == nil {
		pf = &partFile{}
		w, err := NewWriter(f.fields, f.schema, f.opts, &pf.buf, f.mem)
		if err != nil {
			return err
		}
		pf.w = w
		f.open[p] = pf
	}
	return pf.w.Write(b)
}

// take returns the bytes the open files produced since the last call.
func (f *FanoutWriter) take() []Chunk {
	var out []Chunk
	for p, pf := range f.open {
		if pf.buf.Len() > 0 {
			out = append(out, Chunk{Partition: p, Bytes: append([]byte(nil), pf.buf.Bytes()...)})
			pf.buf.Reset()
		}
	}
	return out
}

// Finish completes a partition's open file and returns its last bytes; the file's float
// metrics are then FloatMetrics(p). The partition's next rows start a new file.
func (f *FanoutWriter) Finish(p int32) ([]byte, error) {
	pf := f.open[p]
	if pf == nil {
		return nil, fmt.Errorf("iceberg writer: partition %d has no open file", p)
	}
	delete(f.open, p)
	if err := pf.w.Close(); err != nil {
		return nil, err
	}
	f.finished[p] = pf.w.FloatMetrics()
	return pf.buf.Bytes(), nil
}

// FloatMetrics returns the float metrics of a partition's last finished file.
func (f *FanoutWriter) FloatMetrics(p int32) []FloatMetrics {
	return f.finished[p]
}

// PartitionValues returns a partition's values (nil for an unpartitioned table).
func (f *FanoutWriter) PartitionValues(p int32) ([]Value, error) {
	if f.part == nil {
		return nil, nil
	}
	return f.part.valuesOf(p)
}

// Close drops the open files' buffered rows (files that will not be finished).
func (f *FanoutWriter) Close() error {
	for p, pf := range f.open {
		pf.w.Discard()
		delete(f.open, p)
	}
	return nil
}
