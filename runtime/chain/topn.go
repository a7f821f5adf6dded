package chain

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/topn"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// topNStage runs a Top-N at the start of a chain: rows of Flink's row exchange or batches of a
// columnar exchange, keyed by the partition keys. Kept rows are BinaryRowData bytes; without
// rank numbers they are emitted as they are (with their RowKind), with rank numbers they are
// decoded and encoded again with the rank as a last BIGINT field.
type topNStage struct {
	plan     *plan.Rank
	op       *topn.TopN
	mem      memory.Allocator
	in       *keyedRows
	ranked   *binaryrow.Encoder // the output rows with rank numbers
	sortKeys [][]byte
	rows     []topn.Row
	out      []byte
	outOffs  []int32
}

func openTopNStage(p *plan.Rank, options map[string]string) (*topNStage, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	op, err := topn.New(topn.Config{RankStart: p.RankStart, RankEnd: p.RankEnd, OutputRankNumber: p.OutputRankNumber,
		GenerateUpdateBefore: p.GenerateUpdateBefore, Retract: p.Retract, HeapState: options[plan.OptHeapState] == "true", KeyGroups: kgs})
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	s := &topNStage{plan: p, op: op, mem: mem}
	var cols []int
	for _, c := range append(append([]int(nil), p.KeyCols...), p.SortCols...) {
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	if s.in, err = newKeyedRows("top-n", p.InNames, p.InTypes, p.KeyCols, p.KeyTypes, cols, maxP, mem); err != nil {
		return nil, err
	}
	if s.ranked, err = binaryrow.NewEncoder(append(append([]catalog.Type(nil), p.InTypes...), catalog.BigIntType(false))); err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	return s, nil
}

// Process ranks rows of Flink's row exchange.
func (s *topNStage) Process(data []byte, offsets []int32) error {
	return s.in.rows(data, offsets, s.run)
}

// ProcessBatch ranks a batch of a columnar exchange, encoding its rows for the state.
func (s *topNStage) ProcessBatch(b arrow.RecordBatch) error { return s.in.batch(b, s.run) }

// run ranks a batch's rows.
func (s *topNStage) run(b *keyedBatch) error {
	sorts := make([]arrow.Array, len(s.plan.SortCols))
	for i, c := range s.plan.SortCols {
		sorts[i] = b.Col(c)
	}
	var err error
	if s.sortKeys, err = topn.EncodeSortKeys(s.sortKeys, sorts, s.plan.Sort, b.N); err != nil {
		return err
	}
	s.rows = s.rows[:0]
	for r := 0; r < b.N; r++ {
		s.rows = append(s.rows, topn.Row{KeyGroup: int(b.Groups[r]), Key: b.Key(r), SortKey: s.sortKeys[r], Row: b.Row(r)})
	}
	err = s.op.Process(s.rows)
	clear(s.rows)
	if err != nil {
		return err
	}
	return s.encodeChanges()
}

// encodeChanges writes the Top-N's changes as output rows.
func (s *topNStage) encodeChanges() error {
	changes := s.op.Changes()
	s.out, s.outOffs = s.out[:0], append(s.outOffs[:0], 0)
	if !s.plan.OutputRankNumber {
		for _, c := range changes {
			start := len(s.out)
			s.out = append(s.out, c.Row...)
			s.out[start] = byte(c.Kind)
			s.outOffs = append(s.outOffs, int32(len(s.out)))
		}
		return nil
	}
	if len(changes) == 0 {
		return nil
	}
	rows := make([][]byte, len(changes))
	kinds := make([]int8, len(changes))
	ranks := make([]int64, len(changes))
	for i, c := range changes {
		rows[i], kinds[i], ranks[i] = c.Row, c.Kind, c.Rank
	}
	b, err := decodeRows(s.in.decoder, rows)
	if err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	defer b.Release()
	buf, vals := column.NewValues[int64](s.mem, len(ranks))
	copy(vals, ranks)
	rank := column.MakeArray(arrow.PrimitiveTypes.Int64, len(ranks), nil, buf)
	defer rank.Release()
	fields := append(append([]arrow.Array(nil), b.Columns()[:len(s.plan.InTypes)]...), rank)
	if s.out, s.outOffs, err = encodeRows(s.ranked, fields, kinds, len(changes), s.out, s.outOffs); err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	return nil
}

// AdvanceWatermark has nothing to fire: a Top-N passes watermarks on.
func (s *topNStage) AdvanceWatermark(int64) error {
	s.out, s.outOffs = s.out[:0], append(s.outOffs[:0], 0)
	return nil
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *topNStage) PrepareCheckpoint() error { return s.AdvanceWatermark(0) }

// Output returns the rows of the last call with their RowKinds.
func (s *topNStage) Output() ([]byte, []int32, []int32) { return s.out, s.outOffs, nil }

// InitializeWatermark does nothing: a Top-N has no event time.
func (s *topNStage) InitializeWatermark(int64) {}

// Snapshot serializes one key group of the Top-N's state.
func (s *topNStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the Top-N's state.
func (s *topNStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// LateDropped is 0: a Top-N drops no row.
func (s *topNStage) LateDropped() int64 { return 0 }

// StateBytes is the size of the keys, sort keys and rows in state.
func (s *topNStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys in state.
func (s *topNStage) StateKeys() int64 { return s.op.StateKeys() }
