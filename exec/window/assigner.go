// Package window runs Flink's window TVF aggregations (TUMBLE, HOP, CUMULATE) on column
// batches with Flink's slicing semantics: rows go to slices, windows fire when the watermark
// passes their end, late rows are dropped exactly when Flink drops them, and state is kept per
// key group so that Flink can checkpoint, rescale and restore it.
package window

import "fmt"

// Kind is the kind of a slicing window.
type Kind int

// Window kinds.
const (
	Tumble Kind = iota
	Hop
	Cumulate
	// Session windows are not sliced: Sessions runs them, and Size holds the gap.
	Session
)

func (k Kind) String() string {
	return [...]string{"TUMBLE", "HOP", "CUMULATE", "SESSION"}[k]
}

// Assigner places timestamps into slices and slices into windows, as Flink's SliceAssigners do.
// All times are epoch milliseconds; a slice or window is named by its end.
type Assigner struct {
	Kind Kind
	// Size is the window size (CUMULATE: the max size).
	Size int64
	// Step is the slide (HOP) or step (CUMULATE); equal to Size for TUMBLE.
	Step int64
	// Offset shifts window starts.
	Offset int64
	// slice is the slice length: Size (TUMBLE), gcd(Size, Step) (HOP), Step (CUMULATE).
	slice int64
}

// NewTumble returns a tumbling-window assigner.
func NewTumble(size, offset int64) (*Assigner, error) {
	if size <= 0 {
		return nil, fmt.Errorf("tumbling window parameters must satisfy size > 0, but got size %dms", size)
	}
	if abs(offset) >= size {
		return nil, fmt.Errorf("tumbling window parameters must satisfy abs(offset) < size, but got size %dms and offset %dms", size, offset)
	}
	return &Assigner{Kind: Tumble, Size: size, Step: size, Offset: offset, slice: size}, nil
}

// NewHop returns a hopping-window assigner.
func NewHop(size, slide, offset int64) (*Assigner, error) {
	if size <= 0 || slide <= 0 {
		return nil, fmt.Errorf("hopping window must satisfy slide > 0 and size > 0, but got slide %dms and size %dms", slide, size)
	}
	if size%slide != 0 {
		return nil, fmt.Errorf("slicing hopping window requires size to be an integral multiple of slide, but got size %dms and slide %dms", size, slide)
	}
	return &Assigner{Kind: Hop, Size: size, Step: slide, Offset: offset, slice: gcd(size, slide)}, nil
}

// NewCumulate returns a cumulating-window assigner.
func NewCumulate(maxSize, step, offset int64) (*Assigner, error) {
	if maxSize <= 0 || step <= 0 {
		return nil, fmt.Errorf("cumulative window parameters must satisfy maxSize > 0 and step > 0, but got maxSize %dms and step %dms", maxSize, step)
	}
	if maxSize%step != 0 {
		return nil, fmt.Errorf("cumulative window requires maxSize to be an integral multiple of step, but got maxSize %dms and step %dms", maxSize, step)
	}
	return &Assigner{Kind: Cumulate, Size: maxSize, Step: step, Offset: offset, slice: step}, nil
}

// NewSession returns the assigner of SESSION windows with the given gap.
func NewSession(gap int64) (*Assigner, error) {
	if gap <= 0 {
		return nil, fmt.Errorf("session window parameters must satisfy gap > 0, but got gap %dms", gap)
	}
	return &Assigner{Kind: Session, Size: gap, Step: gap}, nil
}

// String describes the assigner as Flink's plans do.
func (a *Assigner) String() string {
	switch a.Kind {
	case Hop:
		return fmt.Sprintf("HOP(size=%dms, slide=%dms, offset=%dms)", a.Size, a.Step, a.Offset)
	case Cumulate:
		return fmt.Sprintf("CUMULATE(maxSize=%dms, step=%dms, offset=%dms)", a.Size, a.Step, a.Offset)
	case Session:
		return fmt.Sprintf("SESSION(gap=%dms)", a.Size)
	}
	return fmt.Sprintf("TUMBLE(size=%dms, offset=%dms)", a.Size, a.Offset)
}

// SliceInterval is the length of a slice.
func (a *Assigner) SliceInterval() int64 { return a.slice }

// WindowStartWithOffset is TimeWindow#getWindowStartWithOffset.
func WindowStartWithOffset(ts, offset, size int64) int64 {
	r := (ts - offset) % size
	if r < 0 {
		return ts - (r + size)
	}
	return ts - r
}

// SliceEnd is the end of the slice that holds timestamp ts.
func (a *Assigner) SliceEnd(ts int64) int64 {
	return WindowStartWithOffset(ts, a.Offset, a.slice) + a.slice
}

// sliceEnds remembers the last slice a time fell into, so that the times of a batch, which
// mostly fall into one slice, find their slice end by two comparisons instead of a division.
// The zero value remembers nothing.
type sliceEnds struct {
	lo, hi, end int64 // times in [lo, hi) have slice end end; empty when lo >= hi
}

// of is a.SliceEnd(ts).
func (s *sliceEnds) of(a *Assigner, ts int64) int64 {
	if ts >= s.lo && ts < s.hi {
		return s.end
	}
	s.end = a.SliceEnd(ts)
	// The slice is [end - slice, end); a range that overflowed comes out empty (lo >= hi).
	s.lo, s.hi = s.end-a.slice, s.end
	return s.end
}

// LastWindowEnd is the end of the last window that contains the slice ending at sliceEnd.
func (a *Assigner) LastWindowEnd(sliceEnd int64) int64 {
	switch a.Kind {
	case Hop:
		return sliceEnd - a.slice + a.Size
	case Cumulate:
		return a.WindowStart(sliceEnd) + a.Size
	}
	return sliceEnd
}

// WindowStart is the start of the window ending at windowEnd.
func (a *Assigner) WindowStart(windowEnd int64) int64 {
	if a.Kind == Cumulate {
		return WindowStartWithOffset(windowEnd-1, a.Offset, a.Size)
	}
	return windowEnd - a.Size
}

// MergeTarget is the slice whose state accumulates rows of slice sliceEnd once that slice's
// first window has fired: CUMULATE keeps a window's running accumulator in its first slice;
// the others accumulate into the slice itself (SliceSharedAssigner#mergeSlices).
func (a *Assigner) MergeTarget(sliceEnd int64) int64 {
	if a.Kind == Cumulate {
		return a.WindowStart(sliceEnd) + a.slice
	}
	return sliceEnd
}

// AppendWindowSlices appends the slices whose accumulators make up the window ending at
// windowEnd, in the order Flink merges them. For CUMULATE, the first slice holds the running
// accumulator of the earlier slices, and the window's own slice is merged into it (see
// FoldsIntoFirstSlice).
func (a *Assigner) AppendWindowSlices(dst []int64, windowEnd int64) []int64 {
	switch a.Kind {
	case Hop:
		n := a.Size / a.slice
		for i := int64(0); i < n; i++ {
			dst = append(dst, windowEnd-i*a.slice)
		}
		return dst
	case Cumulate:
		if first := a.MergeTarget(windowEnd); first != windowEnd {
			dst = append(dst, windowEnd)
		}
		return dst
	}
	return append(dst, windowEnd)
}

// FoldsIntoFirstSlice reports whether firing a window merges its slices into the window's
// first slice and keeps the result there (CUMULATE), rather than into a fresh accumulator.
func (a *Assigner) FoldsIntoFirstSlice() bool { return a.Kind == Cumulate }

// AppendExpiredSlices appends the slices whose state can be dropped once the window ending at
// windowEnd has fired (SliceAssigner#expiredSlices).
func (a *Assigner) AppendExpiredSlices(dst []int64, windowEnd int64) []int64 {
	switch a.Kind {
	case Hop:
		return append(dst, a.WindowStart(windowEnd)+a.slice)
	case Cumulate:
		start := a.WindowStart(windowEnd)
		first, last := start+a.slice, start+a.Size
		switch windowEnd {
		case first:
			return dst
		case last:
			return append(dst, windowEnd, first)
		}
		return append(dst, windowEnd)
	}
	return append(dst, windowEnd)
}

// NextTrigger is the next window end to fire after windowEnd fired, if any
// (SliceSharedAssigner#nextTriggerWindow). empty tells whether the fired window was empty.
func (a *Assigner) NextTrigger(windowEnd int64, empty bool) (int64, bool) {
	switch a.Kind {
	case Hop:
		if empty {
			return 0, false
		}
		return windowEnd + a.slice, true
	case Cumulate:
		next := windowEnd + a.Step
		if next > a.WindowStart(windowEnd)+a.Size {
			return 0, false
		}
		return next, true
	}
	return 0, false
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
