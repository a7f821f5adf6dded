package join

import (
	"fmt"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/statettl"
)

// accumulates reports whether a row of the kind adds to state (+I, +U) rather than retracts
// from it (-U, -D), as RowDataUtil#isAccumulateMsg.
func accumulates(kind int8) bool { return kind == changelog.Insert || kind == changelog.UpdateAfter }

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
	groups []regularGroup
	store  recordStore
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

// regularStep is a step of an added batch: a candidate pair of an arrival and a record the other
// side keeps (pair >= 0), or the end of an arrival's candidates (pair -1), where its changes are
// emitted and its side's state updated.
type regularStep struct {
	arrival int32
	rec     int32 // the other side's record of a candidate pair
	pair    int32 // index into the matched pairs, -1 for the row's end
	key     int32 // the arrival's key's id in its key group
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
	return &RegularJoin{cfg: cfg, groups: make([]regularGroup, cfg.KeyGroups.Len()), store: recordStore{layouts: cfg.Layouts}}, nil
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

// key returns the id and the state of a key of key group kg (which the subtask owns), adding it
// when it is new. The pointer is valid until a key is added to the key group.
func (j *RegularJoin) key(kg int, key []byte, nullKey bool) (int32, *regularKey) {
	g := &j.groups[kg-j.cfg.KeyGroups.Start]
	id, added := g.keys.Insert(key)
	if added {
		if int(id) == len(g.entries) {
			g.entries = append(g.entries, regularKey{})
		}
		g.entries[id] = regularKey{nullKey: nullKey}
		j.keys++
		j.bytes += int64(len(key))
	}
	return id, &g.entries[id]
}

// entry is the state of key id of key group kg.
func (j *RegularJoin) entry(kg int, id int32) *regularKey {
	return &j.groups[kg-j.cfg.KeyGroups.Start].entries[id]
}

// Add processes a batch of rows of one input in order, as processElement1/2 would one by one
// (Time of the arrivals is unused). match evaluates the join condition on the candidate pairs
// of many rows at once; the rows passed to emit stay unchanged until the next Add. The rows' key groups and kinds are checked before any state changes;
// after an error from match or emit the join is unusable (its task fails).
func (j *RegularJoin) Add(side Side, rows []Arrival, match PairMatcher, emit ChangeEmit) error {
	for a := range rows {
		switch {
		case !j.cfg.KeyGroups.Contains(rows[a].KeyGroup):
			return fmt.Errorf("regular join: key group %d outside %v", rows[a].KeyGroup, j.cfg.KeyGroups)
		case rows[a].Kind < changelog.Insert || rows[a].Kind > changelog.Delete:
			return fmt.Errorf("regular join: row kind %d", rows[a].Kind)
		}
	}
	other := 1 - side
	ttl := j.cfg.StateTTL[0].Enabled() || j.cfg.StateTTL[1].Enabled()
	if ttl {
		j.stamp = j.cfg.StateTTL[0].Now()
	}
	j.store.beginAdd()
	for from := 0; from < len(rows); {
		j.log = j.log[:0]
		j.pairs.reset()
		// The other side does not change within a batch of this side: a row's candidates are
		// the other side's records now, whatever the rows before it changed on this side.
		to := from
		for ; to < len(rows) && (to == from || !j.pairs.full()); to++ {
			r := &rows[to]
			id, k := j.key(r.KeyGroup, r.Key, r.NullKey)
			if ttl && k.purged != j.stamp {
				// Expired rows are gone before the key's first row of the call looks.
				j.purge(k, j.stamp)
			}
			// A NULL key matches nothing (JoinConditionWithNullFilters).
			if others := &k.sides[other]; !r.NullKey {
				for i := range others.n {
					pair := j.pairs.add(side, r.Row, j.store.row(j.store.at(others, i)))
					j.log = append(j.log, regularStep{arrival: int32(to), rec: i, pair: pair, key: id})
				}
			}
			j.log = append(j.log, regularStep{arrival: int32(to), pair: -1, key: id})
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
	if j.store.needsCompaction() {
		j.store.compact(j.groups)
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
		l := &k.sides[side]
		for i := int32(0); i < l.n; {
			if ttl.Expired(j.store.at(l, i).written, now) {
				j.removeRecord(Side(side), l, i)
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
		k := j.entry(a.KeyGroup, st.key)
		var err error
		switch {
		case semiAnti && side == LeftSide:
			err = j.semiAntiLeft(a, k, matched, emit)
		case semiAnti:
			err = j.semiAntiRight(a, k, matched, emit)
		case accumulates(a.Kind):
			err = j.accumulate(side, a, k, matched, emit)
		default:
			err = j.retract(side, a, k, matched, emit)
		}
		if err != nil {
			return err
		}
		if !accumulates(a.Kind) && k.empty() {
			j.emptied = append(j.emptied, st.arrival)
		}
		matched = matched[:0]
	}
	return nil
}

// associated is the number of rows (copies counted) of the matched records: the size of
// Flink's AssociatedRecords.
func (j *RegularJoin) associated(l *recordList, matched []int32) int32 {
	n := int32(0)
	for _, i := range matched {
		n += j.store.at(l, i).count
	}
	return n
}

// joined emits the arrival joined with every copy of the matched records, as kind.
func (j *RegularJoin) joined(side Side, row []byte, l *recordList, matched []int32, kind int8, emit ChangeEmit) error {
	for _, i := range matched {
		rec := j.store.at(l, i)
		kept := j.store.row(rec)
		for c := int32(0); c < rec.count; c++ {
			if side == LeftSide {
				if err := emit(kind, row, kept); err != nil {
					return err
				}
			} else if err := emit(kind, kept, row); err != nil {
				return err
			}
		}
	}
	return nil
}

// padded emits every copy of a record whose number of associations is at, NULL-padded on the
// other side, as kind.
func (j *RegularJoin) padded(side Side, rec *keptRecord, at int32, kind int8, emit ChangeEmit) error {
	if rec.assoc != at {
		return nil
	}
	for c := int32(0); c < rec.count; c++ {
		if err := emitPadded(side, j.store.row(rec), func(l, r []byte) error { return emit(kind, l, r) }); err != nil {
			return err
		}
	}
	return nil
}

// accumulate is JoinHelper#processJoin for a +I or +U.
func (j *RegularJoin) accumulate(side Side, a *Arrival, k *regularKey, matched []int32, emit ChangeEmit) error {
	other := 1 - side
	others := &k.sides[other]
	n := j.associated(others, matched)
	inOuter, otherOuter := j.outer(side), j.outer(other)
	if inOuter && n == 0 {
		if err := emitPadded(side, a.Row, func(l, r []byte) error { return emit(changelog.Insert, l, r) }); err != nil {
			return err
		}
	}
	if n > 0 {
		kind := a.Kind // an inner join forwards the input's kind
		if inOuter || otherOuter {
			kind = changelog.Insert
		}
		if otherOuter {
			// Each of the other side's rows that joined nothing so far retracts its padded
			// row (once per copy), and counts one more association.
			for _, i := range matched {
				rec := j.store.at(others, i)
				if !a.Suppress {
					if err := j.padded(other, rec, 0, changelog.Delete, emit); err != nil {
						return err
					}
				}
				rec.assoc++
				j.touch(rec)
			}
		}
		if err := j.joined(side, a.Row, others, matched, kind, emit); err != nil {
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
	if !a.Suppress {
		j.retractRecord(side, &k.sides[side], a)
	}
	if j.associated(others, matched) == 0 {
		if inOuter {
			return emitPadded(side, a.Row, func(l, r []byte) error { return emit(changelog.Delete, l, r) })
		}
		return nil
	}
	kind := a.Kind
	if inOuter {
		kind = changelog.Delete
	}
	if err := j.joined(side, a.Row, others, matched, kind, emit); err != nil {
		return err
	}
	if otherOuter {
		// Each of the other side's rows this was the last association of comes out padded
		// again (once per copy).
		for _, i := range matched {
			rec := j.store.at(others, i)
			if !a.Suppress {
				if err := j.padded(other, rec, 1, changelog.Insert, emit); err != nil {
					return err
				}
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
	n := j.associated(&k.sides[RightSide], matched)
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
			kind = changelog.Delete
		}
	} else {
		j.retractRecord(RightSide, &k.sides[RightSide], a)
		at, delta = 1, -1
		if anti {
			kind = changelog.Insert
		}
	}
	lefts := &k.sides[LeftSide]
	for _, i := range matched {
		rec := j.store.at(lefts, i)
		// A left row comes out alone: as if padded on the right.
		if err := j.padded(LeftSide, rec, at, kind, emit); err != nil {
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
// outer side its number of associations set (for every copy). The row is copied.
func (j *RegularJoin) addRecord(side Side, l *recordList, a *Arrival, assoc int32) {
	id := j.identity(side, a)
	if i, ok := j.store.find(side, l, id); ok {
		if rec := j.store.at(l, i); j.cfg.Layouts[side] == NoUniqueKey {
			rec.count++
			rec.assoc = assoc
			j.touch(rec)
			return
		}
		j.bytes -= int64(j.store.at(l, i).size)
		rec := j.store.newRecord(side, id, a.Row, assoc)
		j.touch(&rec)
		j.store.replace(l, i, rec)
		j.bytes += int64(rec.size)
		return
	}
	rec := j.store.newRecord(side, id, a.Row, assoc)
	j.touch(&rec)
	j.store.push(side, l, rec)
	j.bytes += int64(rec.size)
}

// retractRecord removes a retracting row from its side, as the side's state view's
// retractRecord does: one copy of the equal row (NoUniqueKey), or the row of its identity; a
// row not kept is ignored (Flink's views ignore it too).
func (j *RegularJoin) retractRecord(side Side, l *recordList, a *Arrival) {
	i, ok := j.store.find(side, l, j.identity(side, a))
	if !ok {
		return
	}
	if rec := j.store.at(l, i); j.cfg.Layouts[side] == NoUniqueKey && rec.count > 1 {
		rec.count--
		j.touch(rec)
		return
	}
	j.removeRecord(side, l, i)
}

// removeRecord takes record i off a side (the last record moves to i).
func (j *RegularJoin) removeRecord(side Side, l *recordList, i int32) {
	j.bytes -= int64(j.store.at(l, i).size)
	j.store.remove(side, l, i)
}

// dropKey forgets key id of a group, which has no rows left (as Flink's state holds no entry
// for it).
func (j *RegularJoin) dropKey(g *regularGroup, id int32) {
	k := &g.entries[id]
	j.store.release(&k.sides[0])
	j.store.release(&k.sides[1])
	j.keys--
	j.bytes -= int64(len(g.keys.Key(id)))
	g.keys.Delete(id)
	*k = regularKey{}
}

// dropEmptied forgets the keys that retractions of the run left without rows.
func (j *RegularJoin) dropEmptied(rows []Arrival) {
	for _, a := range j.emptied {
		r := &rows[a]
		g := &j.groups[r.KeyGroup-j.cfg.KeyGroups.Start]
		if id, ok := g.keys.Find(r.Key); ok && g.entries[id].empty() {
			j.dropKey(g, id)
		}
	}
	j.emptied = j.emptied[:0]
}
