package window

// TableFunction is Flink's window table function of row semantics (TUMBLE, HOP and CUMULATE
// with no aggregation after them: AlignedWindowTableFunctionOperator): every row whose time
// attribute is not NULL becomes one row per window it belongs to, in the order Flink's group
// window assigners list the windows, with the window's start, end and time; a row whose time
// attribute is NULL is dropped.
type TableFunction struct {
	a *Assigner
	// zone is the session time zone for a TIMESTAMP_LTZ time attribute (ltz): windows align
	// to its wall clock (TimeWindowUtil#toUtcTimestampMills) and window_time is the instant of
	// the window's last millisecond (toEpochMills).
	zone Zone
	ltz  bool
}

// NewTableFunction returns the window table function of an assigner; ltz says whether the
// time attribute is a TIMESTAMP_LTZ, whose windows align to zone.
func NewTableFunction(a *Assigner, ltz bool, zone Zone) *TableFunction {
	return &TableFunction{a: a, zone: zone, ltz: ltz}
}

// Windows holds the output of Apply: per output row, its input row and its window.
type Windows struct {
	Rows   []int32
	Starts []int64 // window_start, wall-clock milliseconds
	Ends   []int64 // window_end, wall-clock milliseconds
	Times  []int64 // window_time: wall-clock milliseconds, or epoch milliseconds for TIMESTAMP_LTZ
}

// Reset empties w, keeping its buffers.
func (w *Windows) Reset() {
	w.Rows, w.Starts, w.Ends, w.Times = w.Rows[:0], w.Starts[:0], w.Ends[:0], w.Times[:0]
}

// Apply assigns the windows of the rows whose time attribute ts[r] (milliseconds) is valid
// (valid nil: all are) and appends them to w.
func (f *TableFunction) Apply(ts []int64, valid func(r int) bool, w *Windows) {
	for r, t := range ts {
		if valid != nil && !valid(r) {
			continue // AlignedWindowTableFunctionOperator drops rows without a time attribute
		}
		if f.ltz {
			t = f.zone.ToUTC(t)
		}
		switch f.a.Kind {
		case Tumble:
			start := WindowStartWithOffset(t, f.a.Offset, f.a.Size)
			f.add(w, r, start, start+f.a.Size)
		case Hop:
			// SlidingWindowAssigner: from the last window holding t back to the first.
			for start := WindowStartWithOffset(t, f.a.Offset, f.a.Step); start > t-f.a.Size; start -= f.a.Step {
				f.add(w, r, start, start+f.a.Size)
			}
		case Cumulate:
			// CumulativeWindowAssigner: the windows of t's max-size window that end after t.
			start := WindowStartWithOffset(t, f.a.Offset, f.a.Size)
			for end := WindowStartWithOffset(t, f.a.Offset, f.a.Step) + f.a.Step; end <= start+f.a.Size; end += f.a.Step {
				f.add(w, r, start, end)
			}
		}
	}
}

func (f *TableFunction) add(w *Windows, r int, start, end int64) {
	t := end - 1 // TimeWindow#maxTimestamp
	if f.ltz {
		t = f.zone.Epoch(t)
	}
	w.Rows = append(w.Rows, int32(r))
	w.Starts = append(w.Starts, start)
	w.Ends = append(w.Ends, end)
	w.Times = append(w.Times, t)
}
