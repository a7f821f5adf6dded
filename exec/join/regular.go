package join

import (
	"fmt"
	"unsafe"

	"github.com/sluice-project/sluice/exec/keygroup"
)

// RowKinds of a regular join's output, as Flink's RowKind#toByteValue.
const (
	KindInsert int8 = 0
	KindDelete int8 = 3
)

// ChangeEmit receives an output row of a join that emits a changelog: its RowKind, and a left
// and a right row, nil for the NULL-padded side.
type ChangeEmit func(kind int8, left, right []byte) error

// RegularConfig configures a regular (unbounded) join.
type RegularConfig struct {
	// Type is Inner, Left, Right or Full.
	Type Type
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// RegularJoin is Flink's streaming join (StreamingJoinOperator with JoinHelper) on one subtask,
// for inputs that only insert and have no unique key: every row joins the rows the other input
// has kept under its key, and is kept under its key for the other input's later rows. An outer
// side's row that joins nothing comes out NULL-padded (+I) and is retracted (-D) once a row of
// the other input joins it. Each input keeps its distinct rows per key with their counts and,
// on an outer side, their numbers of associations (InputSideHasNoUniqueKey's state views), and
// updates them exactly as those views do.
type RegularJoin struct {
	cfg    RegularConfig
	groups []map[string]*regularKey
	keys   int64
	bytes  int64
	// The log of the batch being added, replayed once its pairs are matched.
	log   []regularStep
	pairs pairList
}

type regularKey struct {
	nullKey bool
	sides   [2]recordSet
}

// recordSet holds one input's distinct rows of a key in the order they first came.
type recordSet struct {
	index map[string]int32
	recs  []keptRecord
}

type keptRecord struct {
	row   []byte
	count int32
	// assoc is the row's number of associations on an outer side (-1 on an inner one).
	assoc int32
}

// regularStep is a step of an added batch: a candidate pair of an arrival and a record the other
// side keeps (pair >= 0), or the end of an arrival's candidates (pair -1), where its changes are
// emitted and it is kept.
type regularStep struct {
	arrival int32
	rec     int32 // the other side's record of a candidate pair
	pair    int32 // index into the matched pairs, -1 for the row's end
	key     *regularKey
}

// NewRegularJoin returns an empty regular join.
func NewRegularJoin(cfg RegularConfig) (*RegularJoin, error) {
	switch {
	case cfg.Type < Inner || cfg.Type > Anti:
		return nil, fmt.Errorf("regular join: join type %d", cfg.Type)
	case cfg.KeyGroups.End < cfg.KeyGroups.Start:
		return nil, fmt.Errorf("regular join: key groups %v", cfg.KeyGroups)
	}
	return &RegularJoin{cfg: cfg, groups: make([]map[string]*regularKey, cfg.KeyGroups.Len())}, nil
}

// StateKeys is the number of keys in state.
func (j *RegularJoin) StateKeys() int64 { return j.keys }

// StateBytes is the size of the rows and keys the join keeps.
func (j *RegularJoin) StateBytes() int64 { return j.bytes }

// outer reports whether a side's rows count their associations: an outer side's, and the left
// side of a SEMI or ANTI join (StreamingSemiAntiJoinOperator keeps its rows in an outer view).
func (j *RegularJoin) outer(side Side) bool {
	if side == LeftSide {
		return j.cfg.Type == Left || j.cfg.Type == Full || j.cfg.Type == Semi || j.cfg.Type == Anti
	}
	return j.cfg.Type == Right || j.cfg.Type == Full
}

func (j *RegularJoin) key(kg int, key []byte, nullKey bool) (*regularKey, error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("regular join: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	i := kg - j.cfg.KeyGroups.Start
	if j.groups[i] == nil {
		j.groups[i] = map[string]*regularKey{}
	}
	k, ok := j.groups[i][string(key)]
	if !ok {
		k = &regularKey{nullKey: nullKey}
		j.groups[i][string(key)] = k
		j.keys++
		j.bytes += int64(len(key))
	}
	return k, nil
}

// Add processes a batch of rows of one input in order, as processElement1/2 would one by one
// (every row an insert; Time of the arrivals is unused). match evaluates the join condition on
// the candidate pairs of many rows at once. The rows' key groups are checked before any state
// changes; after an error from match or emit the join is unusable (its task fails).
func (j *RegularJoin) Add(side Side, rows []Arrival, match PairMatcher, emit ChangeEmit) error {
	for a := range rows {
		if !j.cfg.KeyGroups.Contains(rows[a].KeyGroup) {
			return fmt.Errorf("regular join: key group %d outside %v", rows[a].KeyGroup, j.cfg.KeyGroups)
		}
	}
	other := 1 - side
	for from := 0; from < len(rows); {
		j.log = j.log[:0]
		j.pairs.reset()
		// The other side does not change within a batch of this side: a row's candidates are
		// the other side's records now, whatever the rows before it changed on this side.
		to := from
		for ; to < len(rows) && (to == from || !j.pairs.full()); to++ {
			r := &rows[to]
			k, err := j.key(r.KeyGroup, r.Key, r.NullKey)
			if err != nil {
				return err
			}
			// A NULL key matches nothing (JoinConditionWithNullFilters).
			if !r.NullKey {
				for i, rec := range k.sides[other].recs {
					pair := j.pairs.add(side, r.Row, rec.row)
					j.log = append(j.log, regularStep{arrival: int32(to), rec: int32(i), pair: pair, key: k})
				}
			}
			j.log = append(j.log, regularStep{arrival: int32(to), pair: -1, key: k})
		}
		if err := j.pairs.match(match); err != nil {
			return err
		}
		if err := j.replay(side, rows, emit); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// replay takes each row's matched records and applies JoinHelper#processJoin for an insert
// (StreamingSemiAntiJoinOperator's processElement1/2 for a SEMI or ANTI join).
func (j *RegularJoin) replay(side Side, rows []Arrival, emit ChangeEmit) error {
	if j.cfg.Type == Semi || j.cfg.Type == Anti {
		return j.replaySemiAnti(side, rows, emit)
	}
	other := 1 - side
	var matched []int32
	for _, st := range j.log {
		if st.pair >= 0 {
			if j.pairs.matches[st.pair] {
				matched = append(matched, st.rec)
			}
			continue
		}
		row := rows[st.arrival].Row
		k := st.key
		others := &k.sides[other]
		associated := int32(0)
		for _, i := range matched {
			associated += others.recs[i].count
		}
		if j.outer(side) && associated == 0 {
			if err := emitPadded(side, row, func(l, r []byte) error { return emit(KindInsert, l, r) }); err != nil {
				return err
			}
		}
		if associated > 0 {
			if j.outer(other) {
				// Each of the other side's rows that joined nothing so far retracts its padded
				// row (once per copy), and counts one more association.
				for _, i := range matched {
					rec := &others.recs[i]
					if rec.assoc == 0 {
						for c := int32(0); c < rec.count; c++ {
							if err := emitPadded(other, rec.row, func(l, r []byte) error { return emit(KindDelete, l, r) }); err != nil {
								return err
							}
						}
					}
					rec.assoc++
				}
			}
			for _, i := range matched {
				rec := &others.recs[i]
				for c := int32(0); c < rec.count; c++ {
					l, r := row, rec.row
					if side == RightSide {
						l, r = r, l
					}
					if err := emit(KindInsert, l, r); err != nil {
						return err
					}
				}
			}
		}
		assoc := int32(-1)
		if j.outer(side) {
			assoc = associated
		}
		j.addRecord(&k.sides[side], row, assoc)
		matched = matched[:0]
	}
	return nil
}

// replaySemiAnti is replay for a SEMI or ANTI join, whose output rows are left rows: a left row
// comes out as it arrives when it has matches (SEMI) or none (ANTI), and is kept with its number
// of matches; a right row that is the first match of kept left rows emits them (SEMI, +I) or
// retracts them (ANTI, -D), once per copy.
func (j *RegularJoin) replaySemiAnti(side Side, rows []Arrival, emit ChangeEmit) error {
	anti := j.cfg.Type == Anti
	var matched []int32
	for _, st := range j.log {
		if st.pair >= 0 {
			if j.pairs.matches[st.pair] {
				matched = append(matched, st.rec)
			}
			continue
		}
		row := rows[st.arrival].Row
		k := st.key
		if side == LeftSide {
			associated := int32(0)
			for _, i := range matched {
				associated += k.sides[RightSide].recs[i].count
			}
			if (associated == 0) == anti {
				if err := emit(KindInsert, row, nil); err != nil {
					return err
				}
			}
			j.addRecord(&k.sides[LeftSide], row, associated)
		} else {
			j.addRecord(&k.sides[RightSide], row, -1)
			kind := KindInsert
			if anti {
				kind = KindDelete
			}
			for _, i := range matched {
				rec := &k.sides[LeftSide].recs[i]
				if rec.assoc == 0 {
					for c := int32(0); c < rec.count; c++ {
						if err := emit(kind, rec.row, nil); err != nil {
							return err
						}
					}
				}
				rec.assoc++
			}
		}
		matched = matched[:0]
	}
	return nil
}

// addRecord keeps a row on its side: one more copy of it, and on an outer side its number of
// associations set (for every copy, as OuterJoinRecordStateViews#addRecord sets it). A new row
// is copied once: the index's key and the record share the bytes (the batch's buffer is not
// kept).
func (j *RegularJoin) addRecord(s *recordSet, row []byte, assoc int32) *keptRecord {
	if s.index == nil {
		s.index = map[string]int32{}
	}
	if i, ok := s.index[string(row)]; ok {
		s.recs[i].count++
		s.recs[i].assoc = assoc
		return &s.recs[i]
	}
	key := string(row)
	s.index[key] = int32(len(s.recs))
	s.recs = append(s.recs, keptRecord{row: unsafe.Slice(unsafe.StringData(key), len(key)), count: 1, assoc: assoc})
	j.bytes += int64(len(row))
	return &s.recs[len(s.recs)-1]
}
