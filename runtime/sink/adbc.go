package sink

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/adbc"
)

// AdbcWriter is one subtask's writer of an ADBC sink: batches from a native chain, or Flink's
// rows as BinaryRowData bytes, are bulk-ingested by sinks/adbc.
type AdbcWriter struct {
	s   *plan.AdbcSink
	w   *adbc.Writer
	dec *binaryrow.Decoder // rows → batches (the row path)
}

// OpenAdbcWriter opens a sink writer from the sink's island JSON (native path: its NOT NULL
// columns are checked here, as Flink's ConstraintEnforcer) or from its description alone (row
// path: Flink checks them). sinkID identifies the sink across its job's attempts.
func OpenAdbcWriter(data []byte, sinkID string, subtask, parallelism int, restoredCheckpoint int64) (*AdbcWriter, error) {
	s, err := openAdbcSink(data)
	if err != nil {
		return nil, err
	}
	w, err := adbc.OpenWriter(context.Background(), s.Cfg, adbc.Attempt{
		SinkID: sinkID, Subtask: subtask, Parallelism: parallelism, RestoredCheckpoint: restoredCheckpoint})
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return &AdbcWriter{s: s, w: w}, nil
}

// openAdbcSink compiles an island JSON of the sink node, or a bare description.
func openAdbcSink(data []byte) (*plan.AdbcSink, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("adbc sink: %w", err)
	}
	if head.Type == plan.AdbcSinkType {
		return plan.ParseAdbcSink(data)
	}
	return plan.CompileNodeIsland(data, "sink", plan.CompileAdbcSink)
}

// WriteBatch writes a batch of the native chain (it stays the caller's); a batch of changes
// carries its RowKinds as a last column (exec/changelog), which an upsert table takes by key.
func (a *AdbcWriter) WriteBatch(b arrow.RecordBatch) error {
	if a.s.NotNull != nil {
		checked, err := a.s.NotNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("table %s: %w", a.s.Table, err)
		}
		if checked == nil {
			return nil
		}
		defer checked.Release()
		b = checked
	}
	rows, kinds, split, err := changelog.Split("table "+a.s.Table, b, len(a.s.Names))
	if err != nil {
		return err
	}
	if split {
		defer rows.Release()
	}
	return a.w.WriteChanges(context.Background(), rows, kinds)
}

// WriteRows writes rows Flink made (BinaryRowData bytes, row i at data[offsets[i]:offsets[i+1]]).
func (a *AdbcWriter) WriteRows(data []byte, offsets []int32) error {
	if a.dec == nil {
		d, err := binaryrow.NewDecoder(a.s.Names, a.s.Types, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("table %s: %w", a.s.Table, err)
		}
		a.dec = d
	}
	b, err := a.dec.Decode(data, offsets)
	if err != nil {
		return fmt.Errorf("table %s: %w", a.s.Table, err)
	}
	defer b.Release()
	// The decoder's last column is the RowKind.
	rows, kinds, split, err := changelog.Split("table "+a.s.Table, b, len(a.s.Names))
	if err != nil {
		return err
	}
	if split {
		defer rows.Release()
	}
	return a.w.WriteChanges(context.Background(), rows, kinds)
}

// Flush ingests the buffered rows (sink.buffer-flush.interval, end of input).
func (a *AdbcWriter) Flush() error {
	return a.w.Flush(context.Background())
}

// PrepareCommit ends the writer's checkpoint: it returns the committable (JSON) or nil.
func (a *AdbcWriter) PrepareCommit() ([]byte, error) {
	c, err := a.w.PrepareCommit(context.Background())
	if err != nil || c == nil {
		return nil, err
	}
	return json.Marshal(c)
}

// Snapshotted tells the writer that Flink took checkpoint id (see adbc.Writer#Snapshotted).
func (a *AdbcWriter) Snapshotted(id int64) {
	a.w.Snapshotted(id)
}

// Close rolls back what was not committed and disconnects.
func (a *AdbcWriter) Close() error {
	return a.w.Close()
}

// AdbcCommitter commits the checkpoints of an exactly-once ADBC sink.
type AdbcCommitter struct {
	s *plan.AdbcSink
	c *adbc.Committer
}

// OpenAdbcCommitter opens a committer from the sink's island JSON or description.
func OpenAdbcCommitter(data []byte) (*AdbcCommitter, error) {
	s, err := openAdbcSink(data)
	if err != nil {
		return nil, err
	}
	c, err := adbc.OpenCommitter(context.Background(), s.Cfg)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return &AdbcCommitter{s: s, c: c}, nil
}

// Commit commits one committable (as PrepareCommit returned it); false: it was committed
// before.
func (a *AdbcCommitter) Commit(committable []byte) (bool, error) {
	var c adbc.Committable
	if err := json.Unmarshal(committable, &c); err != nil {
		return false, fmt.Errorf("table %s: committable: %w", a.s.Table, err)
	}
	return a.c.Commit(context.Background(), c)
}

// Close disconnects.
func (a *AdbcCommitter) Close() error {
	return a.c.Close()
}
