package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/dedup"
	"github.com/sluice-project/sluice/exec/statettl"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// dedupStage runs a deduplication (or a ChangelogNormalize, the last row of each key of a
// changelog) at the start of a chain: rows of Flink's row exchange or batches of a columnar
// exchange, keyed by the partition keys (the unique key); each key's kept row is held as
// BinaryRowData bytes, which are also what it emits (with its RowKind). With mini-batches the
// rows wait in a bundle, deduplicated when it finishes.
type dedupStage struct {
	plan *plan.Deduplicate
	op   *dedup.Deduplicate
	in   *keyedRows
	rows []dedup.Row
	// bundle buffers the rows of a mini-batch (nil without mini-batches); out then gathers the
	// rows of the bundles finished during a call.
	bundle *dedupBundle
	out    rowOutput
}

func openDedupStage(p *plan.Deduplicate, options map[string]string) (*dedupStage, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("deduplicate: %w", err)
	}
	op, err := dedup.New(dedup.Config{KeepLast: p.KeepLast, RowTime: p.RowtimeCol >= 0, InsertOnly: p.InsertOnly, Changelog: p.Changelog,
		GenerateUpdateBefore: p.GenerateUpdateBefore, GenerateInsert: p.GenerateInsert,
		HeapState: options[plan.OptHeapState] == "true", KeyGroups: kgs, StateTTL: statettl.TTL{Millis: p.StateTTL}})
	if err != nil {
		return nil, err
	}
	s := &dedupStage{plan: p, op: op}
	if p.MiniBatchSize > 0 {
		if p.InsertOnly {
			return nil, fmt.Errorf("deduplicate: an insert-only deduplication with mini-batches")
		}
		if s.bundle, err = newDedupBundle(p.MiniBatchSize, p.KeepLast, p.RowtimeCol >= 0); err != nil {
			return nil, fmt.Errorf("deduplicate: %w", err)
		}
	}
	cols := append([]int(nil), p.KeyCols...)
	if p.RowtimeCol >= 0 {
		cols = append(cols, p.RowtimeCol)
	}
	if s.in, err = newKeyedRows("deduplicate", p.InNames, p.InTypes, p.KeyCols, p.KeyTypes, cols, maxP, bufpool.New()); err != nil {
		return nil, err
	}
	return s, nil
}

// Process deduplicates rows of Flink's row exchange.
func (s *dedupStage) Process(data []byte, offsets []int32) error {
	s.out.reset()
	return s.in.rows(data, offsets, s.run)
}

// ProcessBatch deduplicates a batch of a columnar exchange, encoding its rows for the state.
func (s *dedupStage) ProcessBatch(b arrow.RecordBatch) error {
	s.out.reset()
	return s.in.batch(b, s.run)
}

// run deduplicates a batch's rows.
func (s *dedupStage) run(b *keyedBatch) error {
	var times []int64
	if s.plan.RowtimeCol >= 0 {
		t := b.Col(s.plan.RowtimeCol)
		if t.NullN() > 0 {
			return fmt.Errorf("deduplicate: a NULL event-time attribute %s", s.plan.InNames[s.plan.RowtimeCol])
		}
		times = column.Values[int64](t)
	}
	if s.bundle != nil {
		for r := 0; r < b.N; r++ {
			row := dedup.Row{KeyGroup: int(b.Groups[r]), Key: b.Key(r), Row: b.Row(r)}
			if times != nil {
				row.Rowtime = times[r]
			}
			if s.bundle.add(row) {
				if err := s.bundle.finish(s.op, &s.out); err != nil {
					return err
				}
			}
		}
		return nil
	}
	s.rows = s.rows[:0]
	for r := 0; r < b.N; r++ {
		row := dedup.Row{KeyGroup: int(b.Groups[r]), Key: b.Key(r), Row: b.Row(r)}
		if times != nil {
			row.Rowtime = times[r]
		}
		s.rows = append(s.rows, row)
	}
	err := s.op.Process(s.rows)
	clear(s.rows)
	return err
}

// AdvanceWatermark fires the waiting rows whose time the watermark passed (event-time keep
// first, insert-only); with mini-batches it finishes the bundle
// (AbstractMapBundleOperator#processWatermark).
func (s *dedupStage) AdvanceWatermark(w int64) error {
	if s.bundle != nil {
		s.out.reset()
		return s.bundle.finish(s.op, &s.out)
	}
	return s.op.AdvanceWatermark(w)
}

// PrepareCheckpoint has nothing to flush without mini-batches (rows are in state as they
// arrive); with them it finishes the bundle (AbstractMapBundleOperator#prepareSnapshotPreBarrier).
func (s *dedupStage) PrepareCheckpoint() error {
	if s.bundle != nil {
		s.out.reset()
		return s.bundle.finish(s.op, &s.out)
	}
	return s.op.Process(nil)
}

// Output returns the rows of the last call with their RowKinds.
func (s *dedupStage) Output() ([]byte, []int32, []int32) {
	if s.bundle != nil {
		return s.out.data, s.out.offsets, nil
	}
	data, offsets := s.op.Output()
	return data, offsets, nil
}

// InitializeWatermark restores the event time.
func (s *dedupStage) InitializeWatermark(w int64) { s.op.InitializeWatermark(w) }

// Snapshot serializes one key group of the deduplication's state.
func (s *dedupStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the deduplication's state.
func (s *dedupStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// LateDropped counts the late rows dropped.
func (s *dedupStage) LateDropped() int64 { return s.op.LateDropped() }

// StateBytes is the size of the keys and rows in state.
func (s *dedupStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys in state.
func (s *dedupStage) StateKeys() int64 { return s.op.StateKeys() }
