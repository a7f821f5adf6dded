package chain

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// regularJoinStage runs a regular join at the start of a chain. Its input is the batches of two
// columnar exchanges, each batch marked with its side (plan.JoinSideMetadata): a batch's rows
// join the other side's kept rows as they arrive and are kept for the other side's later rows;
// the output rows carry their RowKinds (+I, and -D for a padded row an outer side retracts).
type regularJoinStage struct {
	*joinInputs
	op       *join.RegularJoin
	arrivals []join.Arrival
}

func openRegularJoinStage(p *plan.RegularJoin, options map[string]string) (*regularJoinStage, error) {
	in, err := openJoinInputs(&p.JoinSpec, -1, -1, options, "join")
	if err != nil {
		return nil, err
	}
	op, err := join.NewRegularJoin(join.RegularConfig{Type: p.Type, KeyGroups: in.keyGrp})
	if err != nil {
		return nil, err
	}
	return &regularJoinStage{joinInputs: in, op: op}, nil
}

// ProcessBatch joins the rows of one input's batch, in order, and keeps them.
func (s *regularJoinStage) ProcessBatch(b arrow.RecordBatch) error {
	s.reset()
	sb, err := s.read(b)
	if err != nil {
		return err
	}
	js := &s.sides[sb.side]
	s.arrivals = s.arrivals[:0]
	for r := 0; r < sb.n; r++ {
		s.arrivals = append(s.arrivals, join.Arrival{KeyGroup: int(js.groups[r]), Key: sb.key(r), NullKey: sb.nullKeys[r], Row: sb.row(js, r)})
	}
	if err := s.op.Add(sb.side, s.arrivals, s.matchEach, s.collectChange); err != nil {
		return err
	}
	clear(s.arrivals)
	return s.encodeOutput()
}

// AdvanceWatermark has nothing to fire: a regular join passes watermarks on.
func (s *regularJoinStage) AdvanceWatermark(int64) error {
	s.reset()
	return nil
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *regularJoinStage) PrepareCheckpoint() error {
	s.reset()
	return nil
}

// Snapshot serializes one key group of the join's state.
func (s *regularJoinStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the join's state.
func (s *regularJoinStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// InitializeWatermark does nothing: a regular join has no event time.
func (s *regularJoinStage) InitializeWatermark(int64) {}

// LateDropped is 0: a regular join drops no row.
func (s *regularJoinStage) LateDropped() int64 { return 0 }

// StateBytes is the size of the rows and keys in the join's state.
func (s *regularJoinStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys in the join's state.
func (s *regularJoinStage) StateKeys() int64 { return s.op.StateKeys() }
