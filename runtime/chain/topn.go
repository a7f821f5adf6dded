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
	"github.com/sluice-project/sluice/exec/keygroup"
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
	decoder  *binaryrow.Decoder
	encoder  *binaryrow.Encoder // the input rows (columnar input)
	ranked   *binaryrow.Encoder // the output rows with rank numbers
	assigner *keygroup.Assigner
	cols     []int // the columns the stage reads: keys, then the sort fields
	sortKeys [][]byte
	groups   []int32
	rows     []topn.Row
	encoded  []byte
	offsets  []int32
	out      []byte
	outOffs  []int32
}

func openTopNStage(p *plan.Rank, options map[string]string) (*topNStage, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	op, err := topn.New(topn.Config{RankStart: p.RankStart, RankEnd: p.RankEnd, OutputRankNumber: p.OutputRankNumber,
		GenerateUpdateBefore: p.GenerateUpdateBefore, KeyGroups: kgs})
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	s := &topNStage{plan: p, op: op, mem: mem}
	for _, c := range append(append([]int(nil), p.KeyCols...), p.SortCols...) {
		if !slices.Contains(s.cols, c) {
			s.cols = append(s.cols, c)
		}
	}
	if s.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	if s.encoder, err = binaryrow.NewEncoder(p.InTypes); err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	if s.ranked, err = binaryrow.NewEncoder(append(append([]catalog.Type(nil), p.InTypes...), catalog.BigIntType(false))); err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	if s.assigner, err = keygroup.NewAssigner(p.KeyTypes, maxP); err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	return s, nil
}

// Process ranks rows of Flink's row exchange.
func (s *topNStage) Process(data []byte, offsets []int32) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("top-n: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := s.decoder.Check(data, starts, ends); err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	b, err := decodeSparse(s.decoder, len(s.plan.InTypes), data, starts, ends, s.cols)
	if err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	defer b.release()
	return s.run(b.Column, data, offsets, n)
}

// ProcessBatch ranks a batch of a columnar exchange, encoding its rows for the state.
func (s *topNStage) ProcessBatch(b arrow.RecordBatch) error {
	if err := checkBatchColumns("top-n", b, s.plan.InNames, s.plan.InTypes, s.cols); err != nil {
		return err
	}
	n := int(b.NumRows())
	var err error
	if s.encoded, s.offsets, err = encodeRows(s.encoder, b.Columns(), nil, n, s.encoded, s.offsets); err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	return s.run(b.Column, s.encoded, s.offsets, n)
}

func (s *topNStage) run(col func(int) arrow.Array, data []byte, offsets []int32, n int) error {
	keys := make([]arrow.Array, len(s.plan.KeyCols))
	for i, k := range s.plan.KeyCols {
		keys[i] = col(k)
	}
	s.groups = grown(s.groups, n)
	if err := s.assigner.Assign(keys, n, s.groups, nil); err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	keyRows, keyOffsets := s.assigner.KeyRows()
	sorts := make([]arrow.Array, len(s.plan.SortCols))
	for i, c := range s.plan.SortCols {
		sorts[i] = col(c)
	}
	var err error
	if s.sortKeys, err = topn.EncodeSortKeys(s.sortKeys, sorts, s.plan.Sort, n); err != nil {
		return err
	}
	s.rows = s.rows[:0]
	for r := 0; r < n; r++ {
		s.rows = append(s.rows, topn.Row{KeyGroup: int(s.groups[r]), Key: keyRows[keyOffsets[r]:keyOffsets[r+1]],
			SortKey: s.sortKeys[r], Row: data[offsets[r]:offsets[r+1]]})
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
	b, err := decodeRows(s.decoder, rows)
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
