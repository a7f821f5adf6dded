package join

import (
	"fmt"
	"unsafe"

	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/statettl"
)

// RowKinds of a regular join's input and output, as Flink's RowKind#toByteValue.
const (
	KindInsert       int8 = 0
	KindUpdateBefore int8 = 1
	KindUpdateAfter  int8 = 2
	KindDelete       int8 = 3
)

// accumulates reports whether a row of the kind adds to state (+I, +U) rather than retracts
// from it (-U, -D), as RowDataUtil#isAccumulateMsg.
func accumulates(kind int8) bool { return kind == KindInsert || kind == KindUpdateAfter }

// ChangeEmit receives an output row of a join that emits a changelog: its RowKind, and a left
// and a right row, nil for the NULL-padded side.
type ChangeEmit func(kind int8, left, right []byte) error

// Layout is how a regular join keeps one input's rows under a join key, as Flink's
// JoinInputSideSpec decides from the input's upsert keys (JoinUtil#analyzeJoinInput).
type Layout uint8

const (
	// NoUniqueKey keeps distinct rows with their numbers of copies (InputSideHasNoUniqueKey):
	// an accumulating row adds a copy, a retracting one removes a copy of the equal row.
	NoUniqueKey Layout = iota
	// UniqueKey keeps one row per unique key (InputSideHasUniqueKey): an accumulating row
	// replaces the row of its unique key (Arrival.UniqueKey), a retracting one removes it.
	UniqueKey
	// JoinKeyUnique keeps one row per join key, the join key containing a unique key
	// (JoinKeyContainsUniqueKey): an accumulating row replaces it, a retracting one clears it.
	JoinKeyUnique
)

func (l Layout) String() string {
	switch l {
	case NoUniqueKey:
		return "no unique key"
	case UniqueKey:
		return "unique key"
	case JoinKeyUnique:
		return "join key contains a unique key"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// RegularConfig configures a regular (unbounded) join.
type RegularConfig struct {
	// Type is Inner, Left, Right, Full, Semi or Anti.
	Type Type
	// Layouts is how each input's rows are kept (left, right).
	Layouts [2]Layout
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
	// StateTTL is each input's state time to live (left, right), as the StateTtlConfig of
	// Flink's join state views: a kept row is gone a TTL after its last write (added, its count
	// or its number of associations changed). The clock is the left one's, read once per Add.
	StateTTL [2]statettl.TTL
}

// RegularJoin is Flink's streaming join (StreamingJoinOperator with JoinHelper, or
// StreamingSemiAntiJoinOperator) on one subtask, for inputs that insert, update and delete:
// every row joins the rows the other input keeps under its key; an accumulating row (+I, +U)
// is then kept for the other input's later rows, a retracting one (-U, -D) removes its row. An
// outer side's row that joins nothing comes out NULL-padded (+I), retracted (-D) once a row of
// the other input joins it, and padded again when its last join is retracted. Each input keeps
// its rows per key in its Layout, with their numbers of associations on an outer side, and
// updates them exactly as Flink's state views do.
type RegularJoin struct {
	cfg    RegularConfig
	groups []map[string]*regularKey
	keys   int64
	bytes  int64
	// The log of the batch being added, replayed once its pairs are matched.
	log   []regularStep
	pairs pairList
	// Arrivals of the run being replayed that left their key without rows.
	emptied []int32
	// stamp is the processing time of the current Add (with a state TTL).
	stamp int64
}

type regularKey struct {
	nullKey bool
	sides   [2]recordSet
	// purged is the processing time its expired rows were last taken out at (with a TTL).
	purged int64
}

func (k *regularKey) empty() bool { return len(k.sides[0].recs) == 0 && len(k.sides[1].recs) == 0 }

// recordSet holds one input's rows of a key, found by their identity in the side's Layout
// (the row, its unique key, or "" for the one row of a JoinKeyUnique side): by a scan while
// the key has few rows (most keys: no map to allocate and for the collector to trace), by an
// index once it has more than indexFrom.
type recordSet struct {
	index map[string]int32 // nil until the set has more than indexFrom rows
	recs  []keptRecord
}

// indexFrom is the number of rows of a key's side up to which they are found by a scan.
var indexFrom = 8 // a variable for the tests, which run both ways

// keptRecord is a row a side keeps. data holds the row's identity (a UniqueKey side's unique
// key row) followed by the row; the index's key shares its bytes.
type keptRecord struct {
	data  []byte
	split int32 // where the row starts in data
	count int32
	// written is the processing time of the record's last write (with a state TTL).
	written int64
	// assoc is the row's number of associations on an outer side (-1 on an inner one).
	assoc int32
}

func (r *keptRecord) row() []byte { return r.data[r.split:len(r.data):len(r.data)] }

// regularStep is a step of an added batch: a candidate pair of an arrival and a record the other
// side keeps (pair >= 0), or the end of an arrival's candidates (pair -1), where its changes are
// emitted and its side's state updated.
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
	case cfg.Layouts[0] > JoinKeyUnique || cfg.Layouts[1] > JoinKeyUnique:
		return nil, fmt.Errorf("regular join: state layouts %v", cfg.Layouts)
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
// (Time of the arrivals is unused). match evaluates the join condition on the candidate pairs
// of many rows at once. The rows' key groups and kinds are checked before any state changes;
// after an error from match or emit the join is unusable (its task fails).
func (j *RegularJoin) Add(side Side, rows []Arrival, match PairMatcher, emit ChangeEmit) error {
	for a := range rows {
		switch {
		case !j.cfg.KeyGroups.Contains(rows[a].KeyGroup):
			return fmt.Errorf("regular join: key group %d outside %v", rows[a].KeyGroup, j.cfg.KeyGroups)
		case rows[a].Kind < KindInsert || rows[a].Kind > KindDelete:
			return fmt.Errorf("regular join: row kind %d", rows[a].Kind)
		}
	}
	other := 1 - side
	ttl := j.cfg.StateTTL[0].Enabled() || j.cfg.StateTTL[1].Enabled()
	if ttl {
		j.stamp = j.cfg.StateTTL[0].Now()
	}
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
			if ttl && k.purged != j.stamp {
				// Expired rows are gone before the key's first row of the call looks.
				j.purge(k, j.stamp)
			}
			// A NULL key matches nothing (JoinConditionWithNullFilters).
			if !r.NullKey {
				for i := range k.sides[other].recs {
					pair := j.pairs.add(side, r.Row, k.sides[other].recs[i].row())
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
		j.dropEmptied(rows)
		from = to
	}
	return nil
}

// purge takes the rows whose time to live has passed at now out of both sides of a key (Flink's
// state never returns them).
func (j *RegularJoin) purge(k *regularKey, now int64) {
	k.purged = now
	for side := range k.sides {
		ttl := j.cfg.StateTTL[side]
		if !ttl.Enabled() {
			continue
		}
		s := &k.sides[side]
		for i := 0; i < len(s.recs); {
			if ttl.Expired(s.recs[i].written, now) {
				j.removeRecord(Side(side), s, int32(i))
				continue // the last record moved to i
			}
			i++
		}
	}
}

// touch records a write of a kept record (its state entry put again).
func (j *RegularJoin) touch(rec *keptRecord) { rec.written = j.stamp }

// replay takes each row's matched records and applies JoinHelper#processJoin
// (StreamingSemiAntiJoinOperator's processElement1/2 for a SEMI or ANTI join).
func (j *RegularJoin) replay(side Side, rows []Arrival, emit ChangeEmit) error {
	semiAnti := j.cfg.Type == Semi || j.cfg.Type == Anti
	var matched []int32
	for _, st := range j.log {
		if st.pair >= 0 {
			if j.pairs.matches[st.pair] {
				matched = append(matched, st.rec)
			}
			continue
		}
		a := &rows[st.arrival]
		var err error
		switch {
		case semiAnti && side == LeftSide:
			err = j.semiAntiLeft(a, st.key, matched, emit)
		case semiAnti:
			err = j.semiAntiRight(a, st.key, matched, emit)
		case accumulates(a.Kind):
			err = j.accumulate(side, a, st.key, matched, emit)
		default:
			err = j.retract(side, a, st.key, matched, emit)
		}
		if err != nil {
			return err
		}
		if !accumulates(a.Kind) && st.key.empty() {
			j.emptied = append(j.emptied, st.arrival)
		}
		matched = matched[:0]
	}
	return nil
}

// associated is the number of rows (copies counted) of the matched records: the size of
// Flink's AssociatedRecords.
func associated(s *recordSet, matched []int32) int32 {
	n := int32(0)
	for _, i := range matched {
		n += s.recs[i].count
	}
	return n
}

// joined emits the arrival joined with every copy of the matched records, as kind.
func joined(side Side, row []byte, s *recordSet, matched []int32, kind int8, emit ChangeEmit) error {
	for _, i := range matched {
		rec := &s.recs[i]
		for c := int32(0); c < rec.count; c++ {
			l, r := row, rec.row()
			if side == LeftSide {
				if err := emit(kind, l, r); err != nil {
					return err
				}
			} else if err := emit(kind, r, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// padded emits every copy of a record whose number of associations is at, NULL-padded on the
// other side, as kind.
func padded(side Side, rec *keptRecord, at int32, kind int8, emit ChangeEmit) error {
	if rec.assoc != at {
		return nil
	}
	for c := int32(0); c < rec.count; c++ {
		if err := emitPadded(side, rec.row(), func(l, r []byte) error { return emit(kind, l, r) }); err != nil {
			return err
		}
	}
	return nil
}

// accumulate is JoinHelper#processJoin for a +I or +U.
func (j *RegularJoin) accumulate(side Side, a *Arrival, k *regularKey, matched []int32, emit ChangeEmit) error {
	other := 1 - side
	others := &k.sides[other]
	n := associated(others, matched)
	inOuter, otherOuter := j.outer(side), j.outer(other)
	if inOuter && n == 0 {
		if err := emitPadded(side, a.Row, func(l, r []byte) error { return emit(KindInsert, l, r) }); err != nil {
			return err
		}
	}
	if n > 0 {
		kind := a.Kind // an inner join forwards the input's kind
		if inOuter || otherOuter {
			kind = KindInsert
		}
		if otherOuter {
			// Each of the other side's rows that joined nothing so far retracts its padded
			// row (once per copy), and counts one more association.
			for _, i := range matched {
				rec := &others.recs[i]
				if err := padded(other, rec, 0, KindDelete, emit); err != nil {
					return err
				}
				rec.assoc++
				j.touch(rec)
			}
		}
		if err := joined(side, a.Row, others, matched, kind, emit); err != nil {
			return err
		}
	}
	assoc := int32(-1)
	if inOuter {
		assoc = n
	}
	j.addRecord(side, &k.sides[side], a, assoc)
	return nil
}

// retract is JoinHelper#processJoin for a -U or -D.
func (j *RegularJoin) retract(side Side, a *Arrival, k *regularKey, matched []int32, emit ChangeEmit) error {
	other := 1 - side
	others := &k.sides[other]
	inOuter, otherOuter := j.outer(side), j.outer(other)
	j.retractRecord(side, &k.sides[side], a)
	if associated(others, matched) == 0 {
		if inOuter {
			return emitPadded(side, a.Row, func(l, r []byte) error { return emit(KindDelete, l, r) })
		}
		return nil
	}
	kind := a.Kind
	if inOuter {
		kind = KindDelete
	}
	if err := joined(side, a.Row, others, matched, kind, emit); err != nil {
		return err
	}
	if otherOuter {
		// Each of the other side's rows this was the last association of comes out padded
		// again (once per copy).
		for _, i := range matched {
			rec := &others.recs[i]
			if err := padded(other, rec, 1, KindInsert, emit); err != nil {
				return err
			}
			rec.assoc--
			j.touch(rec)
		}
	}
	return nil
}

// semiAntiLeft is StreamingSemiAntiJoinOperator#processElement1: a left row comes out with its
// kind when it has matches (SEMI) or none (ANTI), and is kept with its number of matches or
// retracted.
func (j *RegularJoin) semiAntiLeft(a *Arrival, k *regularKey, matched []int32, emit ChangeEmit) error {
	n := associated(&k.sides[RightSide], matched)
	if (n == 0) == (j.cfg.Type == Anti) {
		if err := emit(a.Kind, a.Row, nil); err != nil {
			return err
		}
	}
	if accumulates(a.Kind) {
		j.addRecord(LeftSide, &k.sides[LeftSide], a, n)
	} else {
		j.retractRecord(LeftSide, &k.sides[LeftSide], a)
	}
	return nil
}

// semiAntiRight is StreamingSemiAntiJoinOperator#processElement2: a right row that is the first
// match of kept left rows emits them (SEMI, with its kind) or retracts them (ANTI, -D), once per
// copy; one that retracts their last match retracts them (SEMI, with its kind) or emits them
// again (ANTI, +I).
func (j *RegularJoin) semiAntiRight(a *Arrival, k *regularKey, matched []int32, emit ChangeEmit) error {
	anti := j.cfg.Type == Anti
	// The left rows emitted (or retracted) are those whose association count is at, before it
	// moves by delta.
	at, delta, kind := int32(0), int32(1), a.Kind
	if accumulates(a.Kind) {
		j.addRecord(RightSide, &k.sides[RightSide], a, -1)
		if anti {
			kind = KindDelete
		}
	} else {
		j.retractRecord(RightSide, &k.sides[RightSide], a)
		at, delta = 1, -1
		if anti {
			kind = KindInsert
		}
	}
	lefts := &k.sides[LeftSide]
	for _, i := range matched {
		rec := &lefts.recs[i]
		// A left row comes out alone: as if padded on the right.
		if err := padded(LeftSide, rec, at, kind, emit); err != nil {
			return err
		}
		rec.assoc += delta
		j.touch(rec)
	}
	return nil
}

// identity is a row's identity on a side: the row itself, its unique key, or "" (the one row of
// its join key).
func (j *RegularJoin) identity(side Side, a *Arrival) []byte {
	switch j.cfg.Layouts[side] {
	case UniqueKey:
		return a.UniqueKey
	case JoinKeyUnique:
		return nil
	}
	return a.Row
}

// addRecord keeps an accumulating row on its side, as the side's state view's addRecord does:
// one more copy of an equal row (NoUniqueKey), or in place of the row of its identity; on an
// outer side its number of associations set (for every copy). A new row is copied once: the
// index's key and the record share the bytes (the batch's buffer is not kept).
func (j *RegularJoin) addRecord(side Side, s *recordSet, a *Arrival, assoc int32) {
	id := j.identity(side, a)
	if i, ok := j.find(side, s, id); ok {
		rec := &s.recs[i]
		if j.cfg.Layouts[side] == NoUniqueKey {
			rec.count++
			rec.assoc = assoc
			j.touch(rec)
			return
		}
		j.bytes -= int64(len(rec.data))
		if s.index != nil {
			// The index's key must not keep the replaced bytes alive.
			delete(s.index, string(id))
		}
		*rec = newRecord(j.cfg.Layouts[side], id, a.Row, assoc)
		j.touch(rec)
		j.bytes += int64(len(rec.data))
		if s.index != nil {
			s.index[j.recordIdentity(side, rec)] = i
		}
		return
	}
	rec := newRecord(j.cfg.Layouts[side], id, a.Row, assoc)
	j.touch(&rec)
	s.recs = append(s.recs, rec)
	j.bytes += int64(len(rec.data))
	switch {
	case s.index != nil:
		s.index[j.recordIdentity(side, &s.recs[len(s.recs)-1])] = int32(len(s.recs) - 1)
	case len(s.recs) > indexFrom:
		s.index = make(map[string]int32, 2*len(s.recs))
		for i := range s.recs {
			s.index[j.recordIdentity(side, &s.recs[i])] = int32(i)
		}
	}
}

// find returns the index of the record of a side whose identity is id.
func (j *RegularJoin) find(side Side, s *recordSet, id []byte) (int32, bool) {
	if s.index != nil {
		i, ok := s.index[string(id)]
		return i, ok
	}
	for i := range s.recs {
		if j.recordIdentity(side, &s.recs[i]) == string(id) {
			return int32(i), true
		}
	}
	return 0, false
}

// newRecord copies a row (after its identity, on a UniqueKey side) into a record of its own.
func newRecord(l Layout, id, row []byte, assoc int32) keptRecord {
	split := 0
	if l == UniqueKey {
		split = len(id)
	}
	data := make([]byte, split+len(row))
	copy(data, id[:split])
	copy(data[split:], row)
	return keptRecord{data: data, split: int32(split), count: 1, assoc: assoc}
}

// recordIdentity is a kept record's identity as an index key sharing the record's bytes.
func (j *RegularJoin) recordIdentity(side Side, rec *keptRecord) string {
	switch j.cfg.Layouts[side] {
	case UniqueKey:
		return unsafe.String(unsafe.SliceData(rec.data), rec.split)
	case JoinKeyUnique:
		return ""
	}
	return unsafe.String(unsafe.SliceData(rec.data), len(rec.data))
}

// retractRecord removes a retracting row from its side, as the side's state view's
// retractRecord does: one copy of the equal row (NoUniqueKey), or the row of its identity; a
// row not kept is ignored (Flink's views ignore it too).
func (j *RegularJoin) retractRecord(side Side, s *recordSet, a *Arrival) {
	i, ok := j.find(side, s, j.identity(side, a))
	if !ok {
		return
	}
	if rec := &s.recs[i]; j.cfg.Layouts[side] == NoUniqueKey && rec.count > 1 {
		rec.count--
		j.touch(rec)
		return
	}
	j.removeRecord(side, s, i)
}

// removeRecord takes record i off a side (the last record moves to i).
func (j *RegularJoin) removeRecord(side Side, s *recordSet, i int32) {
	j.bytes -= int64(len(s.recs[i].data))
	if s.index != nil {
		delete(s.index, j.recordIdentity(side, &s.recs[i]))
	}
	last := int32(len(s.recs) - 1)
	if i != last {
		s.recs[i] = s.recs[last]
		if s.index != nil {
			s.index[j.recordIdentity(side, &s.recs[i])] = i
		}
	}
	s.recs[last] = keptRecord{}
	s.recs = s.recs[:last]
}

// dropEmptied forgets the keys that retractions of the run left without rows (as Flink's state
// holds no entry for them).
func (j *RegularJoin) dropEmptied(rows []Arrival) {
	for _, a := range j.emptied {
		r := &rows[a]
		g := j.groups[r.KeyGroup-j.cfg.KeyGroups.Start]
		if k, ok := g[string(r.Key)]; ok && k.empty() {
			delete(g, string(r.Key))
			j.keys--
			j.bytes -= int64(len(r.Key))
		}
	}
	j.emptied = j.emptied[:0]
}
