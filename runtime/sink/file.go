package sink

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/constraint"
	sinkfs "github.com/sluice-project/sluice/sinks/filesystem"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
)

// FilePartitioner prepares the batches a filesystem sink receives before Flink's file writer
// puts them into buckets: it checks the NOT NULL columns (as Flink's ConstraintEnforcer) and
// splits a partitioned table's rows by partition.
type FilePartitioner struct {
	table   string
	p       *sinkfs.Partitioner // nil for a table without partitions
	notNull *constraint.NotNull
}

// OpenFilePartitioner compiles the island JSON of a sink node that is partitioned or has
// NOT NULL columns.
func OpenFilePartitioner(data []byte) (*FilePartitioner, error) {
	p, err := plan.CompileFileSinkIsland(data)
	if err != nil {
		return nil, err
	}
	s := &FilePartitioner{table: p.Table, notNull: p.NotNull}
	if len(p.PartitionKeys) > 0 {
		if s.p, err = sinkfs.NewPartitioner(p.Names, p.Types, p.PartitionKeys, p.DefaultName, nil); err != nil {
			return nil, fmt.Errorf("table %s: %w", p.Table, err)
		}
	}
	return s, nil
}

// Split returns the rows of a batch to write, by partition (see filesystem.Partitioner#Split);
// a table without partitions has one part with an empty path, or none when every row was
// dropped by the NOT NULL check.
func (s *FilePartitioner) Split(b arrow.RecordBatch) ([]sinkfs.Part, error) {
	if s.notNull != nil {
		checked, err := s.notNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", s.table, err)
		}
		if checked == nil {
			return nil, nil
		}
		defer checked.Release()
		b = checked
	}
	if s.p == nil {
		if b.NumRows() == 0 {
			return nil, nil // no part file for no rows
		}
		b.Retain()
		return []sinkfs.Part{{Batch: b}}, nil
	}
	parts, err := s.p.Split(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return parts, nil
}

// FileWriter writes one Parquet part file natively; Flink's file sink owns the file's
// lifecycle (in-progress, pending, committed) and receives the bytes.
type FileWriter struct {
	w   *sinkparquet.Writer
	buf bytes.Buffer
}

// OpenFileWriter compiles the island JSON of a sink node and starts a file. zoneOffsetSeconds
// is the fixed offset of the writing JVM's default time zone (zoneFixed false: none).
func OpenFileWriter(data []byte, zoneOffsetSeconds int64, zoneFixed bool) (*FileWriter, error) {
	p, err := plan.CompileFileSinkIsland(data)
	if err != nil {
		return nil, err
	}
	names, types := p.FileColumns()
	if !p.Opts.UTCTimestamps {
		if !zoneFixed {
			for _, t := range types {
				if plan.HoldsTimestamps(t) {
					return nil, fmt.Errorf("sink %s: this JVM's default time zone has no fixed offset, and Flink's Parquet writer would write timestamps in it", p.Table)
				}
			}
		}
		p.Opts.ZoneOffsetSeconds = zoneOffsetSeconds
	}
	sw := &FileWriter{}
	if sw.w, err = sinkparquet.NewWriter(names, types, p.Opts, &sw.buf, nil); err != nil {
		return nil, fmt.Errorf("table %s: %w", p.Table, err)
	}
	return sw, nil
}

// Write adds a batch to the file and returns the file's bytes produced since the last call
// (the first call's include the header written when the file started).
func (s *FileWriter) Write(b arrow.RecordBatch) ([]byte, error) {
	if err := s.w.Write(b); err != nil {
		return nil, err
	}
	return s.take(), nil
}

// Finish completes the file and returns its last bytes.
func (s *FileWriter) Finish() ([]byte, error) {
	if err := s.w.Close(); err != nil {
		return nil, err
	}
	return s.take(), nil
}

// take returns the buffered file bytes and empties the buffer.
func (s *FileWriter) take() []byte {
	out := append([]byte(nil), s.buf.Bytes()...)
	s.buf.Reset()
	return out
}
