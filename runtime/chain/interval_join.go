package chain

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// intervalStage runs an interval join at the start of a chain. Its input is the batches of two
// columnar exchanges, each batch marked with its side (plan.JoinSideMetadata): a batch's rows
// join the other side's cached rows as they arrive, and the cleanup timers (NULL-padded rows of
// an outer side) fire on watermarks, whose forwarding is held back by the join's output delay,
// or, on processing time, on the clock, rows taking the clock when they arrive.
type intervalStage struct {
	*joinInputs
	plan     *plan.IntervalJoin
	op       *join.IntervalJoin
	arrivals []join.Arrival
	// runs are the arrival times of the next batch's rows (processing time).
	runs []Arrival
	// arrivalBuf holds the arrival times of a batch's rows (processing time), reused.
	arrivalBuf []int64
}

func openIntervalStage(p *plan.IntervalJoin, options map[string]string) (*intervalStage, error) {
	in, err := openJoinInputs(&p.JoinSpec, p.LeftTime, p.RightTime, options, "interval join")
	if err != nil {
		return nil, err
	}
	op, err := join.NewIntervalJoin(join.IntervalConfig{ProcTime: p.ProcTime, Type: p.Type, LeftLowerBound: p.LeftLowerBound,
		LeftUpperBound: p.LeftUpperBound, MinCleanUpInterval: p.MinCleanUpInterval, KeyGroups: in.keyGrp})
	if err != nil {
		return nil, err
	}
	return &intervalStage{joinInputs: in, plan: p, op: op}, nil
}

// ProcessBatch joins the rows of one input's batch, in order, and caches those that rows of the
// other input can still join; the joined and padded rows are the output.
func (s *intervalStage) ProcessBatch(b arrow.RecordBatch) error {
	s.reset()
	sb, err := s.read(b, false)
	if err != nil {
		return err
	}
	js := &s.sides[sb.side]
	var times []int64
	procTime := s.plan.ProcTime
	if procTime {
		times, err = arrivalTimes(s.arrivalBuf, s.runs, sb.n)
		s.runs = s.runs[:0]
		if err != nil {
			return fmt.Errorf("interval join: %w", err)
		}
		s.arrivalBuf = times // read into the arrivals below, not kept
	} else {
		times = s.times(sb)
	}
	timeCol := sb.cols[js.time]
	s.arrivals = s.arrivals[:0]
	for r := 0; r < sb.n; r++ {
		t := times[r]
		if !procTime && timeCol.IsNull(r) {
			t = 0 // RowData#getLong of a NULL BinaryRowData field
		}
		s.arrivals = append(s.arrivals, join.Arrival{KeyGroup: int(js.groups[r]), Key: sb.key(r), NullKey: sb.nullKeys[r],
			Time: t, Row: sb.row(js, r)})
	}
	if err := s.op.Add(sb.side, s.arrivals, s.matchEach, s.collect); err != nil {
		return err
	}
	clear(s.arrivals) // the join copied what it keeps of the keys, and keeps the rows
	return s.encodeOutput()
}

// AdvanceWatermark fires the cleanup timers the watermark passes; the padded rows they emit are
// the output.
func (s *intervalStage) AdvanceWatermark(wm int64) error {
	s.reset()
	if err := s.op.AdvanceWatermark(wm, s.collect); err != nil {
		return err
	}
	return s.encodeOutput()
}

// WatermarkDelay is how far the join holds back the watermarks it forwards
// (KeyedCoProcessOperatorWithWatermarkDelay; none on processing time).
func (s *intervalStage) WatermarkDelay() int64 { return s.op.OutputDelay() }

// ProcTime reports whether the join runs on processing time.
func (s *intervalStage) ProcTime() bool { return s.plan.ProcTime }

// SetArrivals gives the arrival times of the next batch's rows to a processing-time join.
func (s *intervalStage) SetArrivals(runs []Arrival) { s.runs = append(s.runs[:0], runs...) }

// AdvanceProcessingTime fires a processing-time join's cleanup timers due at t; the padded rows
// they emit are the output.
func (s *intervalStage) AdvanceProcessingTime(t int64) error {
	s.reset()
	if err := s.op.AdvanceProcessingTime(t, s.collect); err != nil {
		return err
	}
	return s.encodeOutput()
}

// NextTimer is the time of a processing-time join's earliest cleanup timer (MaxInt64: none).
func (s *intervalStage) NextTimer() int64 {
	if !s.plan.ProcTime {
		return math.MaxInt64
	}
	return s.op.NextTimer()
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *intervalStage) PrepareCheckpoint() error {
	s.reset()
	return nil
}

// Snapshot serializes one key group of the join's state.
func (s *intervalStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the join's state.
func (s *intervalStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// InitializeWatermark keeps the join's event time where a restore leaves it: Flink's timer
// service starts without a watermark after a restore, so the join's operator time is 0 until
// a watermark arrives.
func (s *intervalStage) InitializeWatermark(int64) {}

// LateDropped is 0: an interval join drops no row as late (a row the watermark passed still
// joins what is cached, and is padded at once).
func (s *intervalStage) LateDropped() int64 { return 0 }

// StateBytes is the size of the rows and keys in the join's state.
func (s *intervalStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys in the join's state.
func (s *intervalStage) StateKeys() int64 { return s.op.StateKeys() }
