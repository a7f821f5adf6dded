package join

import (
	"fmt"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/javacompat/javahash"
)

// MiniBatchJoin is Flink's mini-batch regular join (MiniBatchStreamingJoinOperator, for INNER,
// LEFT, RIGHT and FULL joins with table.exec.mini-batch.enabled) on one subtask: the rows of both
// inputs are buffered, each input's folded as its BufferBundle folds them, until the bundle
// holds table.exec.mini-batch.size rows of the two inputs together (CountCoBundleTrigger), a
// watermark comes, a checkpoint barrier, or the end of input. A flush joins one whole input's
// buffer and then the other's (right first, left first for a RIGHT join), each in the order of
// its HashMaps, through the same join as without mini-batches, with an update's retraction and
// accumulate joined as a suppressed pair (docs/internals/flink-minibatch-join.md).
type MiniBatchJoin struct {
	join     *RegularJoin
	size     int64
	bufs     [2]*sideBuffer
	arrivals []Arrival
	result   javahash.HashMap
}

// NewMiniBatchJoin returns an empty mini-batch join whose bundles hold size rows.
func NewMiniBatchJoin(cfg RegularConfig, size int64) (*MiniBatchJoin, error) {
	switch {
	case size <= 0:
		return nil, fmt.Errorf("mini-batch join: bundle size %d, must be > 0", size)
	case cfg.Type == Semi || cfg.Type == Anti:
		// Flink joins SEMI and ANTI without mini-batches (StreamingSemiAntiJoinOperator).
		return nil, fmt.Errorf("mini-batch join: a %v join has no mini-batch operator", cfg.Type)
	}
	j, err := NewRegularJoin(cfg)
	if err != nil {
		return nil, err
	}
	return &MiniBatchJoin{join: j, size: size, bufs: [2]*sideBuffer{newSideBuffer(cfg.Layouts[0]), newSideBuffer(cfg.Layouts[1])}}, nil
}

// Buffered is the number of rows added to the bundle since it was last flushed.
func (m *MiniBatchJoin) Buffered() int64 { return m.bufs[0].count + m.bufs[1].count }

// Add buffers row of one input (its bytes are copied) and reports whether the bundle is now
// full: the caller then flushes it before the next row, as CountCoBundleTrigger#onElement
// finishes the bundle inside the row's processElement.
func (m *MiniBatchJoin) Add(side Side, row *Arrival) (bool, error) {
	switch {
	case !m.join.cfg.KeyGroups.Contains(row.KeyGroup):
		return false, fmt.Errorf("mini-batch join: key group %d outside %v", row.KeyGroup, m.join.cfg.KeyGroups)
	case row.Kind < changelog.Insert || row.Kind > changelog.Delete:
		return false, fmt.Errorf("mini-batch join: row kind %d", row.Kind)
	}
	if err := m.bufs[side].add(row); err != nil {
		return false, err
	}
	return m.Buffered() >= m.size, nil
}

// Flush joins the bundle (MiniBatchStreamingJoinOperator#finishBundle): one input's buffer and
// then the other's, each in one call of the regular join, whose emit receives the output rows.
// between returns after each input's rows were joined, before the next input's: the rows passed
// to emit stay unchanged only until then. The buffers are emptied.
func (m *MiniBatchJoin) Flush(match PairMatcher, emit ChangeEmit, between func() error) error {
	if m.bufs[0].empty() && m.bufs[1].empty() {
		return nil
	}
	order := [2]Side{RightSide, LeftSide}
	if m.join.cfg.Type == Right {
		order = [2]Side{LeftSide, RightSide}
	}
	for _, side := range order {
		var err error
		if m.arrivals, err = m.bufs[side].appendArrivals(m.arrivals[:0], &m.result); err != nil {
			return err
		}
		if len(m.arrivals) > 0 {
			if err := m.join.Add(side, m.arrivals, match, emit); err != nil {
				return err
			}
		}
		clear(m.arrivals)
		if err := between(); err != nil {
			return err
		}
	}
	m.bufs[0].clear()
	m.bufs[1].clear()
	return nil
}

// StateKeys is the number of keys in state.
func (m *MiniBatchJoin) StateKeys() int64 { return m.join.StateKeys() }

// StateBytes is the size of the rows and keys in state (the bundle's buffers not counted).
func (m *MiniBatchJoin) StateBytes() int64 { return m.join.StateBytes() }

// Snapshot serializes the state of key group kg. The bundle must have been flushed (Flink
// flushes it before every checkpoint barrier; buffers are never part of a snapshot).
func (m *MiniBatchJoin) Snapshot(kg int) ([]byte, error) {
	if n := m.Buffered(); n > 0 {
		return nil, fmt.Errorf("mini-batch join: snapshot with %d rows buffered", n)
	}
	return m.join.Snapshot(kg)
}

// Restore loads one key group's state written by Snapshot.
func (m *MiniBatchJoin) Restore(kg int, blob []byte) error { return m.join.Restore(kg, blob) }
