package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/filesystem"
	"github.com/sluice-project/sluice/sources/parquet"
)

// FileReader opens Parquet splits of one native scan.
type FileReader struct {
	plan *plan.FileScan
}

// OpenFileScan compiles the island JSON of a scan node for reading its splits. zoneOffsetSeconds is
// the fixed offset of the reading JVM's default time zone (ok false when it has none).
func OpenFileScan(data []byte, zoneOffsetSeconds int64, zoneFixed bool) (*FileReader, error) {
	p, err := plan.CompileNodeIsland(data, "scan", plan.CompileFileScan)
	if err != nil {
		return nil, err
	}
	if !p.Opts.UTCTimestamps {
		if !zoneFixed {
			for _, t := range p.Schema.Types {
				if t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ {
					return nil, fmt.Errorf("scan of %s: this JVM's default time zone has no fixed offset, and Flink's Parquet reader would read timestamps in it", p.Table)
				}
			}
		}
		p.Opts.ZoneOffsetSeconds = zoneOffsetSeconds
	}
	return &FileReader{plan: p}, nil
}

// SplitBatches reads the batches of one split.
type SplitBatches interface {
	// Next returns the next batch, or nil after the last one. The caller releases it.
	Next() (arrow.RecordBatch, error)
	// Close releases the split's file.
	Close() error
}

// OpenSplit opens one split of the scan's files, skipping its first skipRows rows.
func (s *FileReader) OpenSplit(path string, offset, length, skipRows int64) (SplitBatches, error) {
	p := s.plan
	r, err := parquet.OpenSplit(parquet.Split{Path: path, Offset: offset, Length: length}, p.File, p.Opts, skipRows, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", p.Table, err)
	}
	if len(p.Partitions) == 0 {
		return r, nil
	}
	// Partition values are the same for every row of the split: one column of a full batch's
	// length per partition key, sliced to each batch's length.
	spec := filesystem.PartitionSpec(path)
	ps := &partitionedSplit{SplitReader: r, plan: p, consts: make([]arrow.Array, len(p.Partitions))}
	for i, pc := range p.Partitions {
		v, ok := spec[pc.Key]
		if !ok {
			ps.release()
			r.Close()
			return nil, fmt.Errorf("table %s: cannot find the partition value from path %s for partition %s", p.Table, path, pc.Key)
		}
		if ps.consts[i], err = filesystem.PartitionColumn(pc.Key, v, p.DefaultName, pc.Typ, p.Opts.BatchRows, memory.DefaultAllocator); err != nil {
			ps.release()
			r.Close()
			return nil, fmt.Errorf("table %s, file %s: %w", p.Table, path, err)
		}
	}
	return ps, nil
}

// partitionedSplit adds the partition columns to the batches of a split's file columns.
type partitionedSplit struct {
	*parquet.SplitReader
	plan   *plan.FileScan
	consts []arrow.Array
}

// Next returns the next batch with the partition columns in their produced positions.
func (s *partitionedSplit) Next() (arrow.RecordBatch, error) {
	b, err := s.SplitReader.Next()
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	n := b.NumRows()
	cols := make([]arrow.Array, len(s.plan.Schema.Names))
	fields := make([]arrow.Field, len(cols))
	file := 0
	part := 0
	for i := range cols {
		if part < len(s.plan.Partitions) && s.plan.Partitions[part].Pos == i {
			cols[i] = array.NewSlice(s.consts[part], 0, n)
			part++
		} else {
			cols[i] = b.Column(file)
			cols[i].Retain()
			file++
		}
		fields[i] = arrow.Field{Name: s.plan.Schema.Names[i], Type: cols[i].DataType(), Nullable: true}
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// Close closes the file and releases the partition columns.
func (s *partitionedSplit) Close() error {
	s.release()
	return s.SplitReader.Close()
}

func (s *partitionedSplit) release() {
	for _, c := range s.consts {
		if c != nil {
			c.Release()
		}
	}
}
