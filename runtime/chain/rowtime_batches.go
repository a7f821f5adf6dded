package chain

import (
	"fmt"
	"math"
)

// rowTimeBatches is Flink's RowTimeMiniBatchAssginerOperator: rows pass unchanged, and of the
// upstream watermarks only those that reach the end of the current mini-batch of event time go
// on (the first one at or past interval - 1, then the first at or past the end of the interval
// the last one fell in), so that the mini-batch operators after it finish a bundle per interval.
// The final watermark (Long.MAX_VALUE) goes on at once. Its finish() emits the current
// watermark again, which is the final one by then (or, stopped without draining, never runs).
type rowTimeBatches struct {
	interval int64
	current  int64 // currentWatermark, 0 at the start as in Flink
	next     int64 // nextWatermark
}

func newRowTimeBatches(interval int64) (*rowTimeBatches, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("mini-batch assigner on event time: interval %d ms", interval)
	}
	b := &rowTimeBatches{interval: interval}
	b.next = miniBatchStart(0, interval) + interval - 1
	return b, nil
}

// miniBatchStart is RowTimeMiniBatchAssginerOperator#getMiniBatchStart, with Java's remainder
// (the sign of the dividend) and int64 wrap-around.
func miniBatchStart(w, interval int64) int64 {
	return w - (w+interval)%interval
}

// watermark takes an upstream watermark (processWatermark) and returns the watermark that goes
// on, if one does.
func (b *rowTimeBatches) watermark(w int64) (int64, bool) {
	if w == math.MaxInt64 && b.current != math.MaxInt64 {
		b.current = math.MaxInt64
		return w, true
	}
	b.current = max(b.current, w)
	if b.current < b.next {
		return 0, false
	}
	// advanceWatermark
	start := miniBatchStart(b.current, b.interval)
	end := start + b.interval - 1
	if end > b.current {
		b.next = end
	} else {
		b.next = end + b.interval
	}
	return b.current, true
}
