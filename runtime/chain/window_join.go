package chain

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// joinStage runs a window join at the start of a chain. Its input is the batches of two
// columnar exchanges, each batch marked with its side (plan.JoinSideMetadata); a watermark fires
// windows, whose joined rows are the stage's output.
type joinStage struct {
	*joinInputs
	op *join.WindowJoin
}

func openJoinStage(p *plan.WindowJoin, options map[string]string) (*joinStage, error) {
	in, err := openJoinInputs(&p.JoinSpec, p.LeftWindowEnd, p.RightWindowEnd, options, "window join")
	if err != nil {
		return nil, err
	}
	op, err := join.NewWindowJoin(join.WindowConfig{Type: p.Type, Zone: p.Zone, KeyGroups: in.keyGrp})
	if err != nil {
		return nil, err
	}
	in.reuseRows = true // WindowJoin.Add copies the rows into its windows' arenas
	return &joinStage{joinInputs: in, op: op}, nil
}

// ProcessBatch keeps the rows of one input's batch in their keys' windows (or drops them as late).
func (s *joinStage) ProcessBatch(b arrow.RecordBatch) error {
	s.reset()
	sb, err := s.read(b, false)
	if err != nil {
		return err
	}
	js := &s.sides[sb.side]
	ends := s.times(sb)
	for r := 0; r < sb.n; r++ {
		if _, err := s.op.Add(sb.side, int(js.groups[r]), sb.key(r), sb.nullKeys[r], ends[r], sb.row(js, r)); err != nil {
			return err
		}
	}
	return nil
}

// AdvanceWatermark fires the windows the watermark passes; their joined rows are the output.
func (s *joinStage) AdvanceWatermark(wm int64) error {
	s.reset()
	if err := s.op.AdvanceWatermark(wm, s.match, s.collect); err != nil {
		return err
	}
	return s.encodeOutput()
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *joinStage) PrepareCheckpoint() error {
	s.reset()
	return nil
}

// match evaluates the join condition on a window's pairs of one key (every left row with every
// right row).
func (s *joinStage) match(lefts, rights [][]byte, out []bool) error {
	ls, rs := make([]int32, len(out)), make([]int32, len(out))
	for i := range out {
		ls[i], rs[i] = int32(i/len(rights)), int32(i%len(rights))
	}
	return s.matchPairs(lefts, rights, ls, rs, out)
}

// Snapshot serializes one key group of the join's state.
func (s *joinStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the join's state.
func (s *joinStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// InitializeWatermark keeps the join's event time where a restore leaves it: Flink's
// WindowJoinOperator keeps no watermark in its state, so after a restore no row is late until a
// watermark arrives, and restored windows fire on that watermark.
func (s *joinStage) InitializeWatermark(int64) {}

// LateDropped counts the rows of both inputs dropped as late.
func (s *joinStage) LateDropped() int64 { return s.op.LateLeft + s.op.LateRight }

// StateBytes is the size of the rows and keys in the join's state.
func (s *joinStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys with rows in the join's state.
func (s *joinStage) StateKeys() int64 { return s.op.StateKeys() }
