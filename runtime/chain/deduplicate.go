package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/dedup"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// dedupStage runs a deduplication at the start of a chain: rows of Flink's row exchange or
// batches of a columnar exchange, keyed by the partition keys; each key's kept row is held as
// BinaryRowData bytes, which are also what it emits (with its RowKind).
type dedupStage struct {
	plan     *plan.Deduplicate
	op       *dedup.Deduplicate
	mem      memory.Allocator
	decoder  *binaryrow.Decoder
	encoder  *binaryrow.Encoder
	assigner *keygroup.Assigner
	cols     []int // the columns the stage reads: keys, then the time attribute
	groups   []int32
	rows     []dedup.Row
	encoded  []byte
	offsets  []int32
}

func openDedupStage(p *plan.Deduplicate, options map[string]string) (*dedupStage, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("deduplicate: %w", err)
	}
	op, err := dedup.New(dedup.Config{KeepLast: p.KeepLast, RowTime: p.RowtimeCol >= 0, InsertOnly: p.InsertOnly,
		GenerateUpdateBefore: p.GenerateUpdateBefore, GenerateInsert: p.GenerateInsert,
		HeapState: options[plan.OptHeapState] == "true", KeyGroups: kgs})
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	s := &dedupStage{plan: p, op: op, mem: mem, cols: append([]int(nil), p.KeyCols...)}
	if p.RowtimeCol >= 0 {
		s.cols = append(s.cols, p.RowtimeCol)
	}
	if s.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, fmt.Errorf("deduplicate: %w", err)
	}
	if s.encoder, err = binaryrow.NewEncoder(p.InTypes); err != nil {
		return nil, fmt.Errorf("deduplicate: %w", err)
	}
	if s.assigner, err = keygroup.NewAssigner(p.KeyTypes, maxP); err != nil {
		return nil, fmt.Errorf("deduplicate: %w", err)
	}
	return s, nil
}

// Process deduplicates rows of Flink's row exchange.
func (s *dedupStage) Process(data []byte, offsets []int32) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("deduplicate: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := s.decoder.Check(data, starts, ends); err != nil {
		return fmt.Errorf("deduplicate: %w", err)
	}
	b, err := decodeSparse(s.decoder, len(s.plan.InTypes), data, starts, ends, s.cols)
	if err != nil {
		return fmt.Errorf("deduplicate: %w", err)
	}
	defer b.release()
	return s.run(b.Column, data, offsets, n)
}

// ProcessBatch deduplicates a batch of a columnar exchange, encoding its rows for the state.
func (s *dedupStage) ProcessBatch(b arrow.RecordBatch) error {
	if err := checkBatchColumns("deduplicate", b, s.plan.InNames, s.plan.InTypes, s.cols); err != nil {
		return err
	}
	n := int(b.NumRows())
	var err error
	if s.encoded, s.offsets, err = encodeRows(s.encoder, b.Columns(), nil, n, s.encoded, s.offsets); err != nil {
		return fmt.Errorf("deduplicate: %w", err)
	}
	return s.run(b.Column, s.encoded, s.offsets, n)
}

// run deduplicates n rows: col gives the input's columns (those the stage reads), the rows'
// bytes are data[offsets[r]:offsets[r+1]].
func (s *dedupStage) run(col func(int) arrow.Array, data []byte, offsets []int32, n int) error {
	keys := make([]arrow.Array, len(s.plan.KeyCols))
	for i, k := range s.plan.KeyCols {
		keys[i] = col(k)
	}
	s.groups = grown(s.groups, n)
	if err := s.assigner.Assign(keys, n, s.groups, nil); err != nil {
		return fmt.Errorf("deduplicate: %w", err)
	}
	keyRows, keyOffsets := s.assigner.KeyRows()
	var times []int64
	if s.plan.RowtimeCol >= 0 {
		t := col(s.plan.RowtimeCol)
		if t.NullN() > 0 {
			return fmt.Errorf("deduplicate: a NULL event-time attribute %s", s.plan.InNames[s.plan.RowtimeCol])
		}
		times = column.Values[int64](t)
	}
	s.rows = s.rows[:0]
	for r := 0; r < n; r++ {
		row := dedup.Row{KeyGroup: int(s.groups[r]), Key: keyRows[keyOffsets[r]:keyOffsets[r+1]], Row: data[offsets[r]:offsets[r+1]]}
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
// first, insert-only).
func (s *dedupStage) AdvanceWatermark(w int64) error { return s.op.AdvanceWatermark(w) }

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *dedupStage) PrepareCheckpoint() error { return s.op.Process(nil) }

// Output returns the rows of the last call with their RowKinds.
func (s *dedupStage) Output() ([]byte, []int32, []int32) {
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
