// Package join holds Sluice's join operators. WindowJoin is Flink's window join
// (WindowJoinOperator with WindowJoinHelper): rows of both inputs wait in state per key and
// window until the watermark passes the window's end, then the window's rows are joined by the
// join type's rules and the state is cleared.
package join

import (
	"fmt"
	"github.com/sluice-project/sluice/exec/keytimer"
	"slices"

	"github.com/sluice-project/sluice/exec/keygroup"
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

// WindowJoin is the state and firing of a window join on one subtask.
type WindowJoin struct {
	cfg       WindowConfig
	groups    []map[string]*keyState // per key group of the range
	timers    timerHeap
	watermark int64
	// LateLeft and LateRight count the rows dropped because their window had fired
	// (leftNumLateRecordsDropped, rightNumLateRecordsDropped).
	LateLeft, LateRight int64
	matches             []bool
	// bytes and keys measure the state: the rows' and keys' bytes, and the keys with rows.
	bytes int64
	keys  int64
}

// StateBytes is the size of the rows and keys the join keeps (the memory it holds is larger by
// its maps' overhead).
func (j *WindowJoin) StateBytes() int64 { return j.bytes }

// StateKeys is the number of keys with rows in state.
func (j *WindowJoin) StateKeys() int64 { return j.keys }

type keyState struct {
	// nullKey: the key has a NULL in a field the join filters nulls on, so no pair matches
	// (JoinConditionWithNullFilters).
	nullKey bool
	// windows holds the key's windows with rows: few at a time (one or two for TUMBLE, the
	// size / slide of a HOP), found by a scan.
	windows []keyWindow
}

// keyWindow is one window of a key and its rows.
type keyWindow struct {
	end  int64
	rows windowRows
}

// window returns the index of the key's window ending at end, or -1.
func (k *keyState) window(end int64) int {
	for i := range k.windows {
		if k.windows[i].end == end {
			return i
		}
	}
	return -1
}

type windowRows struct {
	left, right [][]byte
}

// NewWindowJoin returns an empty window join.
func NewWindowJoin(cfg WindowConfig) (*WindowJoin, error) {
	if cfg.Type < Inner || cfg.Type > Anti {
		return nil, fmt.Errorf("window join: join type %d", cfg.Type)
	}
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("window join: key groups %v", cfg.KeyGroups)
	}
	j := &WindowJoin{cfg: cfg, watermark: -1 << 63}
	j.groups = make([]map[string]*keyState, cfg.KeyGroups.End-cfg.KeyGroups.Start+1)
	return j, nil
}

// Watermark returns the join's current watermark.
func (j *WindowJoin) Watermark() int64 { return j.watermark }

// Add keeps a row of one input in its key's window until the window fires; a row whose window
// has fired is late and dropped (late true). key is the row's key row (BinaryRowData bytes) in
// key group kg, which the join copies; nullKey says whether the key holds a NULL the join
// filters on. The join keeps row as it is: the caller must not reuse its memory.
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
	g := j.group(kg)
	k, ok := g[string(key)] // no copy for a lookup
	var ks string
	if !ok {
		ks = string(key)
		k = &keyState{nullKey: nullKey}
		g[ks] = k
		j.keys++
		j.bytes += int64(len(key))
	}
	j.bytes += int64(len(row))
	i := k.window(windowEnd)
	if i < 0 {
		i = len(k.windows)
		k.windows = append(k.windows, keyWindow{end: windowEnd})
		if ks == "" {
			ks = string(key)
		}
		j.timers.Add(timer{At: windowEnd, KeyGroup: kg, Key: ks})
	}
	if w := &k.windows[i].rows; side == LeftSide {
		w.left = append(w.left, row)
	} else {
		w.right = append(w.right, row)
	}
	return false, nil
}

func (j *WindowJoin) group(kg int) map[string]*keyState {
	i := kg - j.cfg.KeyGroups.Start
	if j.groups[i] == nil {
		j.groups[i] = map[string]*keyState{}
	}
	return j.groups[i]
}

// AdvanceWatermark moves the watermark to wm and fires the windows it passes, in order of
// their ends: each one's rows are joined and its state is cleared.
func (j *WindowJoin) AdvanceWatermark(wm int64, match Matcher, emit Emit) error {
	if wm <= j.watermark {
		return nil
	}
	j.watermark = wm
	for j.timers.Len() > 0 && j.cfg.Zone.IsFired(j.timers[0].At, wm) {
		t := j.timers.Next()
		g := j.groups[t.KeyGroup-j.cfg.KeyGroups.Start]
		k := g[t.Key]
		i := k.window(t.At)
		w := k.windows[i].rows
		k.windows = slices.Delete(k.windows, i, i+1)
		for _, rows := range [][][]byte{w.left, w.right} {
			for _, r := range rows {
				j.bytes -= int64(len(r))
			}
		}
		if len(k.windows) == 0 {
			delete(g, t.Key)
			j.keys--
			j.bytes -= int64(len(t.Key))
		}
		if err := j.join(k.nullKey, w.left, w.right, match, emit); err != nil {
			return err
		}
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

// timer is a key's timer: a window's end, an interval join's cleanup time.
type timer = keytimer.Timer

type timerHeap = keytimer.Heap
