// Package join holds Sluice's join operators. WindowJoin is Flink's window join
// (WindowJoinOperator with WindowJoinHelper): rows of both inputs wait in state per key and
// window until the watermark passes the window's end, then the window's rows are joined by the
// join type's rules and the state is cleared.
package join

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/keytable"
	"github.com/sluice-project/sluice/exec/window"
)

// Type is a join's type (FlinkJoinType).
type Type int

// The join types of a window join.
const (
	Inner Type = iota
	Left
	Right
	Full
	Semi
	Anti
)

func (t Type) String() string {
	return [...]string{"INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"}[t]
}

// Side is the input a row arrives on.
type Side int

// The two inputs.
const (
	LeftSide Side = iota
	RightSide
)

// Matcher evaluates the join condition (beyond the equality of the keys, which the state
// implies) on a window's candidate pairs of one key: out[i*len(rights)+j] for lefts[i] and
// rights[j], rows as BinaryRowData bytes.
type Matcher func(lefts, rights [][]byte, out []bool) error

// Emit receives an output row: a left and a right row, nil for the NULL-padded side (semi and
// anti joins emit left rows alone, right nil).
type Emit func(left, right []byte) error

// WindowConfig configures a window join.
type WindowConfig struct {
	Type Type
	// Zone is the shift time zone of windows on a TIMESTAMP_LTZ attribute (UTC otherwise):
	// a window fires once the watermark reaches its last millisecond's instant.
	Zone window.Zone
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// WindowJoin is the state and firing of a window join on one subtask. Its state is kept per
// window (open windows are few: one or two for TUMBLE, size / slide for HOP): the window's keys
// in a keytable.Table, its rows' bytes in one arena, chained per key and input in arrival
// order. Nothing of it is a Go pointer per key or row, so millions of waiting rows cost the
// collector nothing, and a fired window is dropped whole.
type WindowJoin struct {
	cfg WindowConfig
	// windows holds the windows with rows, in order of their ends.
	windows   []*joinWindow
	watermark int64
	// LateLeft and LateRight count the rows dropped because their window had fired
	// (leftNumLateRecordsDropped, rightNumLateRecordsDropped).
	LateLeft, LateRight int64
	matches             []bool
	lefts, rights       [][]byte
	// bytes and keys measure the state: the rows' and keys' bytes, and the keys with rows
	// (a key counted once per window it has rows in).
	bytes int64
	keys  int64
}

// StateBytes is the size of the rows and keys the join keeps (the memory it holds is larger by
// its tables' overhead).
func (j *WindowJoin) StateBytes() int64 { return j.bytes }

// StateKeys is the number of keys with rows in state, a key counted once per window.
func (j *WindowJoin) StateKeys() int64 { return j.keys }

// joinWindow is one window's rows: per key (its id in keys) an entry, the rows in one arena.
type joinWindow struct {
	end     int64
	keys    keytable.Table
	entries []windowEntry
	rows    []windowRow
	data    []byte
	// order holds the entry ids by key group, then key (the order the window's timers fire
	// in), valid while sorted.
	order  []int32
	sorted bool
}

// windowEntry is one key's rows in a window: the first and last of each input's chain.
type windowEntry struct {
	keyGroup int32
	// nullKey: the key has a NULL in a field the join filters nulls on, so no pair matches
	// (JoinConditionWithNullFilters).
	nullKey     bool
	first, last [2]int32 // per input (-1: no rows)
}

// windowRow is a row's bytes in its window's arena, and the next row of its key and input.
type windowRow struct {
	start, end int
	next       int32
}

// NewWindowJoin returns an empty window join.
func NewWindowJoin(cfg WindowConfig) (*WindowJoin, error) {
	if cfg.Type < Inner || cfg.Type > Anti {
		return nil, fmt.Errorf("window join: join type %d", cfg.Type)
	}
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("window join: key groups %v", cfg.KeyGroups)
	}
	return &WindowJoin{cfg: cfg, watermark: -1 << 63}, nil
}

// Watermark returns the join's current watermark.
func (j *WindowJoin) Watermark() int64 { return j.watermark }

// Add keeps a row of one input in its key's window until the window fires; a row whose window
// has fired is late and dropped (late true). key is the row's key row (BinaryRowData bytes) in
// key group kg; nullKey says whether the key holds a NULL the join filters on. The join copies
// the key and the row.
func (j *WindowJoin) Add(side Side, kg int, key []byte, nullKey bool, windowEnd int64, row []byte) (late bool, err error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return false, fmt.Errorf("window join: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	if j.cfg.Zone.IsFired(windowEnd, j.watermark) {
		if side == LeftSide {
			j.LateLeft++
		} else {
			j.LateRight++
		}
		return true, nil
	}
	w := j.window(windowEnd)
	e, added, err := w.entry(kg, key, nullKey)
	if err != nil {
		return false, err
	}
	if added {
		j.keys++
		j.bytes += int64(len(key))
	}
	w.add(e, side, row)
	j.bytes += int64(len(row))
	return false, nil
}

// window returns the window ending at end, added in order when it has no rows yet.
func (j *WindowJoin) window(end int64) *joinWindow {
	i := len(j.windows)
	for i > 0 && j.windows[i-1].end >= end {
		if j.windows[i-1].end == end {
			return j.windows[i-1]
		}
		i--
	}
	w := &joinWindow{end: end}
	j.windows = slices.Insert(j.windows, i, w)
	return w
}

// entry returns the id of a key's entry, and whether it is new (added without rows).
func (w *joinWindow) entry(kg int, key []byte, nullKey bool) (int32, bool, error) {
	id, added := w.keys.Insert(key)
	if added {
		w.entries = append(w.entries, windowEntry{keyGroup: int32(kg), nullKey: nullKey, first: [2]int32{-1, -1}, last: [2]int32{-1, -1}})
		w.sorted = false
	} else if kept := w.entries[id].keyGroup; kept != int32(kg) {
		return 0, false, fmt.Errorf("window join: a key of key group %d arrives in key group %d", kept, kg)
	}
	return id, added, nil
}

// add appends a row to an entry's rows of one input.
func (w *joinWindow) add(e int32, side Side, row []byte) {
	start := len(w.data)
	w.data = append(w.data, row...)
	r := int32(len(w.rows))
	w.rows = append(w.rows, windowRow{start: start, end: len(w.data), next: -1})
	en := &w.entries[e]
	if en.last[side] < 0 {
		en.first[side] = r
	} else {
		w.rows[en.last[side]].next = r
	}
	en.last[side] = r
}

// rowsOf appends an entry's rows of one input to dst, in arrival order.
func (w *joinWindow) rowsOf(dst [][]byte, e int32, side Side) [][]byte {
	for r := w.entries[e].first[side]; r >= 0; r = w.rows[r].next {
		dst = append(dst, w.data[w.rows[r].start:w.rows[r].end:w.rows[r].end])
	}
	return dst
}

// sortedEntries returns the entry ids in firing order: by key group, then key bytes.
func (w *joinWindow) sortedEntries() []int32 {
	if !w.sorted {
		w.order = w.order[:0]
		for e := range w.entries {
			w.order = append(w.order, int32(e))
		}
		slices.SortFunc(w.order, func(a, b int32) int {
			if c := cmp.Compare(w.entries[a].keyGroup, w.entries[b].keyGroup); c != 0 {
				return c
			}
			return bytes.Compare(w.keys.Key(a), w.keys.Key(b))
		})
		w.sorted = true
	}
	return w.order
}

// AdvanceWatermark moves the watermark to wm and fires the windows it passes, in order of
// their ends, each one's keys by key group and then key (the order of Flink's timers): each
// key's rows are joined, and the window's state is gone.
func (j *WindowJoin) AdvanceWatermark(wm int64, match Matcher, emit Emit) error {
	if wm <= j.watermark {
		return nil
	}
	j.watermark = wm
	for len(j.windows) > 0 && j.cfg.Zone.IsFired(j.windows[0].end, wm) {
		w := j.windows[0]
		j.windows[0] = nil
		j.windows = j.windows[1:]
		j.keys -= int64(len(w.entries))
		j.bytes -= int64(len(w.data) + w.keys.Bytes())
		for _, e := range w.sortedEntries() {
			j.lefts, j.rights = w.rowsOf(j.lefts[:0], e, LeftSide), w.rowsOf(j.rights[:0], e, RightSide)
			if err := j.join(w.entries[e].nullKey, j.lefts, j.rights, match, emit); err != nil {
				return err
			}
		}
		// The emitted rows point into the window's arena, which stays theirs: it is not reused.
		clear(j.lefts)
		clear(j.rights)
	}
	return nil
}

// join emits the rows of one key's window as WindowJoinHelper's processor of the join type.
func (j *WindowJoin) join(nullKey bool, lefts, rights [][]byte, match Matcher, emit Emit) error {
	var m []bool
	if len(lefts) > 0 && len(rights) > 0 {
		n := len(lefts) * len(rights)
		if cap(j.matches) < n {
			j.matches = make([]bool, n)
		}
		m = j.matches[:n]
		if nullKey {
			clear(m)
		} else if err := match(lefts, rights, m); err != nil {
			return err
		}
	}
	at := func(l, r int) bool { return m[l*len(rights)+r] }
	switch j.cfg.Type {
	case Inner:
		if m == nil {
			return nil
		}
		for l := range lefts {
			for r := range rights {
				if at(l, r) {
					if err := emit(lefts[l], rights[r]); err != nil {
						return err
					}
				}
			}
		}
	case Semi, Anti:
		anti := j.cfg.Type == Anti
		for l := range lefts {
			matches := false
			for r := 0; r < len(rights) && !matches; r++ {
				matches = at(l, r)
			}
			if matches != anti {
				if err := emit(lefts[l], nil); err != nil {
					return err
				}
			}
		}
	case Left:
		for l := range lefts {
			if err := j.leftRow(lefts[l], l, rights, at, emit); err != nil {
				return err
			}
		}
	case Right:
		for r := range rights {
			matches := false
			for l := range lefts {
				if at(l, r) {
					if err := emit(lefts[l], rights[r]); err != nil {
						return err
					}
					matches = true
				}
			}
			if !matches {
				if err := emit(nil, rights[r]); err != nil {
					return err
				}
			}
		}
	case Full:
		emitted := make([]bool, len(rights))
		for l := range lefts {
			matches := false
			for r := range rights {
				if at(l, r) {
					if err := emit(lefts[l], rights[r]); err != nil {
						return err
					}
					matches, emitted[r] = true, true
				}
			}
			if !matches {
				if err := emit(lefts[l], nil); err != nil {
					return err
				}
			}
		}
		for r := range rights {
			if !emitted[r] {
				if err := emit(nil, rights[r]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// leftRow emits a left row with every right row it matches, or NULL-padded when it matches none.
func (j *WindowJoin) leftRow(left []byte, l int, rights [][]byte, at func(l, r int) bool, emit Emit) error {
	matches := false
	for r := range rights {
		if at(l, r) {
			if err := emit(left, rights[r]); err != nil {
				return err
			}
			matches = true
		}
	}
	if !matches {
		return emit(left, nil)
	}
	return nil
}
