package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/exec/statettl"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// regularJoinStage runs a regular join at the start of a chain. Its input is the batches of two
// columnar exchanges, each batch marked with its side (plan.JoinSideMetadata) and, from a
// changelog, carrying its rows' RowKinds: a batch's rows join the other side's kept rows as
// they arrive and are kept for, or retracted from, the other side's later rows; the output rows
// carry their RowKinds.
type regularJoinStage struct {
	*joinInputs
	op *join.RegularJoin
	// mini buffers the rows of a mini-batch join (nil without mini-batches), which then keeps
	// the state instead of op.
	mini     *join.MiniBatchJoin
	arrivals []join.Arrival
	// uniqueKeys encodes the unique key rows of a side kept by unique key (nil otherwise).
	uniqueKeys [2]*uniqueKeyRows
}

// uniqueKeyRows encodes an input's unique key columns as BinaryRowData, the identity its rows
// are kept by.
type uniqueKeyRows struct {
	cols    []int
	encoder *binaryrow.Encoder
	offsets []int32
	data    []byte
}

func openRegularJoinStage(p *plan.RegularJoin, options map[string]string) (*regularJoinStage, error) {
	in, err := openJoinInputs(&p.JoinSpec, -1, -1, options, "join")
	if err != nil {
		return nil, err
	}
	cfg := join.RegularConfig{Type: p.Type, Layouts: p.Layouts, KeyGroups: in.keyGrp, StateTTL: [2]statettl.TTL{{Millis: p.StateTTL[0]}, {Millis: p.StateTTL[1]}}}
	in.reuseRows = true // RegularJoin and MiniBatchJoin keep copies of the rows they keep
	s := &regularJoinStage{joinInputs: in}
	if p.MiniBatchSize > 0 {
		if s.mini, err = join.NewMiniBatchJoin(cfg, p.MiniBatchSize); err != nil {
			return nil, err
		}
	} else if s.op, err = join.NewRegularJoin(cfg); err != nil {
		return nil, err
	}
	for side, layout := range p.Layouts {
		if layout != join.UniqueKey {
			continue
		}
		u := &uniqueKeyRows{cols: p.UniqueKeys[side]}
		types := make([]catalog.Type, len(u.cols))
		for i, c := range u.cols {
			if c < 0 || c >= len(in.sides[side].types) {
				return nil, fmt.Errorf("join: unique key column %d of an input of %d fields", c, len(in.sides[side].types))
			}
			types[i] = in.sides[side].types[c]
		}
		if u.encoder, err = binaryrow.NewEncoder(types); err != nil {
			return nil, fmt.Errorf("join: unique key: %w", err)
		}
		s.uniqueKeys[side] = u
	}
	return s, nil
}

// encode writes the unique key rows of a batch's n rows.
func (u *uniqueKeyRows) encode(cols []arrow.Array, n int) error {
	keyCols := make([]arrow.Array, len(u.cols))
	for i, c := range u.cols {
		keyCols[i] = cols[c]
	}
	u.offsets = grown(u.offsets, n+1)
	if err := u.encoder.Layout(keyCols, n, u.offsets); err != nil {
		return fmt.Errorf("join: unique key: %w", err)
	}
	u.data = grown(u.data, int(u.offsets[n]))
	if err := u.encoder.Encode(keyCols, nil, n, u.offsets, u.data); err != nil {
		return fmt.Errorf("join: unique key: %w", err)
	}
	return nil
}

func (u *uniqueKeyRows) row(r int) []byte { return u.data[u.offsets[r]:u.offsets[r+1]:u.offsets[r+1]] }

// ProcessBatch joins the rows of one input's batch, in order, and keeps or retracts them.
func (s *regularJoinStage) ProcessBatch(b arrow.RecordBatch) error {
	s.reset()
	sb, err := s.read(b, true)
	if err != nil {
		return err
	}
	js := &s.sides[sb.side]
	uk := s.uniqueKeys[sb.side]
	if uk != nil {
		if err := uk.encode(sb.cols, sb.n); err != nil {
			return err
		}
	}
	s.arrivals = s.arrivals[:0]
	for r := 0; r < sb.n; r++ {
		a := join.Arrival{KeyGroup: int(js.groups[r]), Key: sb.key(r), NullKey: sb.nullKeys[r], Row: sb.row(js, r)}
		if sb.kinds != nil {
			a.Kind = sb.kinds[r]
		}
		if uk != nil {
			a.UniqueKey = uk.row(r)
		}
		s.arrivals = append(s.arrivals, a)
	}
	defer clear(s.arrivals)
	if s.mini != nil {
		// The bundle is flushed after each row that fills it (CountCoBundleTrigger).
		for i := range s.arrivals {
			full, err := s.mini.Add(sb.side, &s.arrivals[i])
			if err != nil {
				return err
			}
			if full {
				if err := s.flush(); err != nil {
					return err
				}
			}
		}
		return s.encodeOutput()
	}
	if err := s.op.Add(sb.side, s.arrivals, s.matchEach, s.collectChange); err != nil {
		return err
	}
	return s.encodeOutput()
}

// flush joins a mini-batch join's bundle; its output rows are encoded after each input's.
func (s *regularJoinStage) flush() error {
	return s.mini.Flush(s.matchEach, s.collectChange, s.drainPairs)
}

// AdvanceWatermark passes the watermark on; a mini-batch join first joins its bundle
// (MiniBatchStreamingJoinOperator#processWatermark1/2), whose rows come out before it.
func (s *regularJoinStage) AdvanceWatermark(int64) error {
	s.reset()
	if s.mini != nil {
		return s.flush()
	}
	return nil
}

// PrepareCheckpoint joins a mini-batch join's bundle before the barrier
// (MiniBatchStreamingJoinOperator#prepareSnapshotPreBarrier); without mini-batches rows are in
// state as they arrive.
func (s *regularJoinStage) PrepareCheckpoint() error {
	s.reset()
	if s.mini != nil {
		return s.flush()
	}
	return nil
}

// Snapshot serializes one key group of the join's state.
func (s *regularJoinStage) Snapshot(kg int) ([]byte, error) {
	if s.mini != nil {
		return s.mini.Snapshot(kg)
	}
	return s.op.Snapshot(kg)
}

// Restore loads one key group of the join's state.
func (s *regularJoinStage) Restore(kg int, blob []byte) error {
	if s.mini != nil {
		return s.mini.Restore(kg, blob)
	}
	return s.op.Restore(kg, blob)
}

// InitializeWatermark does nothing: a regular join has no event time.
func (s *regularJoinStage) InitializeWatermark(int64) {}

// LateDropped is 0: a regular join drops no row.
func (s *regularJoinStage) LateDropped() int64 { return 0 }

// StateBytes is the size of the rows and keys in the join's state.
func (s *regularJoinStage) StateBytes() int64 {
	if s.mini != nil {
		return s.mini.StateBytes()
	}
	return s.op.StateBytes()
}

// StateKeys is the number of keys in the join's state.
func (s *regularJoinStage) StateKeys() int64 {
	if s.mini != nil {
		return s.mini.StateKeys()
	}
	return s.op.StateKeys()
}
