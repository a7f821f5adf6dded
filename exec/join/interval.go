package join

import (
	"fmt"
	"math"
	"sort"

	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/keytimer"
)

// IntervalConfig configures an interval join.
type IntervalConfig struct {
	// ProcTime makes it a processing-time join (ProcTimeIntervalJoin): a row's time is the clock
	// when it arrives (Arrival.Time), the operator time is the clock, and the cleanup timers fire
	// on the clock (AdvanceProcessingTime). Otherwise times are event times and the operator time
	// is the watermark (RowTimeIntervalJoin).
	ProcTime bool
	// Type is Inner, Left, Right or Full.
	Type Type
	// LeftLowerBound and LeftUpperBound bound a pair's left time minus its right time, in
	// milliseconds (IntervalJoinSpec.WindowBounds).
	LeftLowerBound, LeftUpperBound int64
	// MinCleanUpInterval is table.exec.interval-join.min-cleanup-interval in milliseconds: how
	// much later than needed a key's cleanup timer may fire.
	MinCleanUpInterval int64
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// IntervalJoin is Flink's interval join (RowTimeIntervalJoin or ProcTimeIntervalJoin over
// TimeIntervalJoin) on one subtask. A row joins the rows of the other input's cache that lie in its interval as
// it arrives, and stays in its own input's cache while rows of the other input can still join
// it; per key, a cleanup timer on each cache removes the rows the watermark (or the clock) has passed
// (NULL-padding those of an outer side that never joined). Which rows are cached, joined and
// removed follows TimeIntervalJoin step by step, including its subtask-wide expiration times.
type IntervalJoin struct {
	cfg IntervalConfig
	// rel[side] is the side's relative window size: leftRelativeSize = -lower bound,
	// rightRelativeSize = upper bound.
	rel    [2]int64
	groups []map[string]*intervalKey
	timers keytimer.Heap
	// watermark is the timer service's current watermark (event time).
	watermark int64
	// clock is the latest processing time seen (processing time): of an arriving row, or of
	// timers firing.
	clock int64
	// expiration[side] is the time up to which the side's caches have been cleaned
	// (leftExpirationTime, rightExpirationTime): subtask-wide, and not part of the state.
	expiration [2]int64
	bytes      int64
	keys       int64
	// The log of the batch being added, replayed once its pairs are matched.
	log      []intervalStep
	pairs    pairList
	emitted  []bool
	arrivals []Arrival
}

// intervalKey is one key's state: a cache of rows by time per input, and per cache the time of
// its cleanup timer (Flink's IntervalJoinRightTimerState cleans the left cache, its
// IntervalJoinLeftTimerState the right one).
type intervalKey struct {
	nullKey  bool
	caches   [2][]*timeRows // in time order
	timer    [2]int64
	hasTimer [2]bool
}

// timeRows are a cache's rows of one time, each with whether it has joined a row yet. Most
// times have one row: its slices start in the struct's own arrays.
type timeRows struct {
	time      int64
	rows      [][]byte
	joined    []bool
	oneRow    [1][]byte
	oneJoined [1]bool
}

func newTimeRows(t int64) *timeRows {
	tr := &timeRows{time: t}
	tr.rows, tr.joined = tr.oneRow[:0], tr.oneJoined[:0]
	return tr
}

// Arrival is a row arriving on one input of an interval join.
type Arrival struct {
	// KeyGroup and Key are the row's key group and key row (BinaryRowData bytes, which the join
	// copies); NullKey says whether the key holds a NULL the join filters on.
	KeyGroup int
	Key      []byte
	NullKey  bool
	// Time is the row's event time in milliseconds.
	Time int64
	// Row is the row's BinaryRowData (its RowKind INSERT), which the join keeps as it is.
	Row []byte
	// Kind is the row's RowKind (a regular join's changelog input; the time-bounded joins read
	// inserts only).
	Kind int8
	// UniqueKey is the row's unique key row, on a regular join's input kept by unique key
	// (Layout UniqueKey).
	UniqueKey []byte
	// Suppress marks a retraction and the accumulate after it that a mini-batch regular join
	// joins as a pair (MiniBatchStreamingJoinOperator#processElementWithSuppress): the
	// retraction leaves its row in state, which the accumulate then replaces, and neither
	// flips the other side's outer rows between joined and NULL-padded.
	Suppress bool
}

// PairMatcher evaluates the join condition (beyond the keys' equality) on pairs of rows:
// out[i] for lefts[i] and rights[i].
type PairMatcher func(lefts, rights [][]byte, out []bool) error

// The steps of an added batch, in the order TimeIntervalJoin takes them.
const (
	stepPair      = iota // a candidate pair: emit it if it matches
	stepRemove           // a cache's rows of one time expired: pad those that never joined
	stepCache            // the arrival was cached: record whether it joined
	stepNotCached        // the arrival was not cached: pad it if it never joined
)

type intervalStep struct {
	kind    uint8
	side    Side // stepPair, stepRemove: the cache's side; stepCache, stepNotCached: the arrival's
	arrival int32
	pair    int32 // stepPair: index into the matched pairs (-1: a NULL key, no match)
	rows    *timeRows
	row     int32
}

// NewIntervalJoin returns an empty interval join.
func NewIntervalJoin(cfg IntervalConfig) (*IntervalJoin, error) {
	switch {
	case cfg.Type != Inner && cfg.Type != Left && cfg.Type != Right && cfg.Type != Full:
		return nil, fmt.Errorf("interval join: join type %s", cfg.Type)
	case cfg.LeftUpperBound < cfg.LeftLowerBound:
		return nil, fmt.Errorf("interval join: bounds [%d, %d] of negative size", cfg.LeftLowerBound, cfg.LeftUpperBound)
	case cfg.KeyGroups.End < cfg.KeyGroups.Start:
		return nil, fmt.Errorf("interval join: key groups %v", cfg.KeyGroups)
	}
	cfg.MinCleanUpInterval = max(0, cfg.MinCleanUpInterval)
	j := &IntervalJoin{cfg: cfg, watermark: math.MinInt64}
	j.rel = [2]int64{-cfg.LeftLowerBound, cfg.LeftUpperBound}
	j.groups = make([]map[string]*intervalKey, cfg.KeyGroups.Len())
	return j, nil
}

// OutputDelay is how far the join holds back the watermarks it forwards: a row may still join
// and be emitted that long after the watermark passed it (getMaxOutputDelay). A processing-time
// join forwards watermarks as they come (Flink runs it in a plain KeyedCoProcessOperator).
func (j *IntervalJoin) OutputDelay() int64 {
	if j.cfg.ProcTime {
		return 0
	}
	return max(j.rel[LeftSide], j.rel[RightSide])
}

// Watermark returns the join's current watermark.
func (j *IntervalJoin) Watermark() int64 { return j.watermark }

// StateBytes is the size of the rows and keys the join keeps.
func (j *IntervalJoin) StateBytes() int64 { return j.bytes }

// StateKeys is the number of keys in state.
func (j *IntervalJoin) StateKeys() int64 { return j.keys }

// outer reports whether rows of side are NULL-padded when they join nothing.
func (j *IntervalJoin) outer(side Side) bool {
	if side == LeftSide {
		return j.cfg.Type == Left || j.cfg.Type == Full
	}
	return j.cfg.Type == Right || j.cfg.Type == Full
}

// operatorTime is TimeIntervalJoin's operator time: on event time the watermark, or 0 before a
// positive one; on processing time the clock.
func (j *IntervalJoin) operatorTime() int64 {
	if j.cfg.ProcTime {
		return j.clock
	}
	if j.watermark > 0 {
		return j.watermark
	}
	return 0
}

// expirationTime is calExpirationTime (no allowed lateness in SQL's interval join).
func expirationTime(operatorTime, relativeSize int64) int64 {
	if operatorTime < math.MaxInt64 {
		return operatorTime - relativeSize - 1
	}
	return math.MaxInt64
}

// Add processes a batch of rows of one input in order, as processElement1/2 would one by one:
// each row joins the other input's cached rows of its interval (emitted through emit as left
// and right rows, nil for a NULL-padded side), expired cached rows of that key are removed, and
// the row is cached or, when no row can join it any more, padded if it joined nothing. match
// evaluates the join condition on all candidate pairs of the batch at once. On processing time
// each row's Time is the clock when it arrived, which is also the operator time for its steps.
func (j *IntervalJoin) Add(side Side, rows []Arrival, match PairMatcher, emit Emit) error {
	for a := range rows {
		if !j.cfg.KeyGroups.Contains(rows[a].KeyGroup) {
			return fmt.Errorf("interval join: key group %d outside %v", rows[a].KeyGroup, j.cfg.KeyGroups)
		}
	}
	j.emitted = append(j.emitted[:0], make([]bool, len(rows))...)
	for from := 0; from < len(rows); {
		to := j.logRows(side, rows, from)
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

// logRows logs TimeIntervalJoin's steps for rows from on (changing the caches as it goes, and
// listing the candidate pairs), up to maxPairs pairs but at least one row; it returns the end
// of the rows it logged. A row's steps do not depend on whether earlier rows' pairs matched.
func (j *IntervalJoin) logRows(side Side, rows []Arrival, from int) int {
	other := 1 - side
	j.log = j.log[:0]
	j.pairs.reset()
	a := from
	for ; a < len(rows) && (a == from || !j.pairs.full()); a++ {
		r := &rows[a]
		if j.cfg.ProcTime {
			j.clock = max(j.clock, r.Time) // updateOperatorTime: the clock as the row arrives
		}
		opTime := j.operatorTime()
		// The other input's rows in [lower, upper] join this one.
		lower, upper := r.Time-j.rel[other], r.Time+j.rel[side]
		k := j.key(r.KeyGroup, r.Key, r.NullKey)
		if j.expiration[other] < upper {
			j.expiration[other] = expirationTime(opTime, j.rel[other])
			cache := k.caches[other]
			kept := cache[:0]
			for _, tr := range cache {
				if tr.time >= lower && tr.time <= upper {
					for i := range tr.rows {
						pair := int32(-1)
						if !r.NullKey {
							pair = j.pairs.add(side, r.Row, tr.rows[i])
						}
						j.log = append(j.log, intervalStep{kind: stepPair, side: other, arrival: int32(a), pair: pair, rows: tr, row: int32(i)})
					}
				}
				if tr.time <= j.expiration[other] {
					j.log = append(j.log, intervalStep{kind: stepRemove, side: other, rows: tr})
					j.dropBytes(tr)
					continue
				}
				kept = append(kept, tr)
			}
			clear(cache[len(kept):])
			k.caches[other] = kept
		}
		if opTime < upper {
			tr, i := j.cache(k, side, r.Time, r.Row)
			j.log = append(j.log, intervalStep{kind: stepCache, side: side, arrival: int32(a), rows: tr, row: int32(i)})
			if !k.hasTimer[side] {
				j.register(k, side, r.KeyGroup, r.Key, r.Time)
			}
		} else {
			j.log = append(j.log, intervalStep{kind: stepNotCached, side: side, arrival: int32(a)})
		}
		if j.empty(k) {
			j.dropKey(r.KeyGroup, r.Key)
		}
	}
	return a
}

// replay takes the logged steps of a batch with its pairs matched: it emits the joined pairs
// and the padded rows in TimeIntervalJoin's order and records which cached rows have joined.
func (j *IntervalJoin) replay(side Side, rows []Arrival, emit Emit) error {
	for _, st := range j.log {
		switch st.kind {
		case stepPair:
			if st.pair < 0 || !j.pairs.matches[st.pair] {
				continue
			}
			if err := emit(j.pairs.lefts[st.pair], j.pairs.rights[st.pair]); err != nil {
				return err
			}
			j.emitted[st.arrival] = true
			if j.outer(st.side) {
				st.rows.joined[st.row] = true
			}
		case stepRemove:
			if err := j.pad(st.side, st.rows, emit); err != nil {
				return err
			}
		case stepCache:
			st.rows.joined[st.row] = j.emitted[st.arrival]
		case stepNotCached:
			if !j.emitted[st.arrival] && j.outer(side) {
				if err := emitPadded(side, rows[st.arrival].Row, emit); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// pad emits the rows of an outer side that never joined, NULL-padded.
func (j *IntervalJoin) pad(side Side, tr *timeRows, emit Emit) error {
	if !j.outer(side) {
		return nil
	}
	for i, row := range tr.rows {
		if !tr.joined[i] {
			if err := emitPadded(side, row, emit); err != nil {
				return err
			}
		}
	}
	return nil
}

func emitPadded(side Side, row []byte, emit Emit) error {
	if side == LeftSide {
		return emit(row, nil)
	}
	return emit(nil, row)
}

// key returns the state of a key, new and empty if it has none.
func (j *IntervalJoin) key(kg int, key []byte, nullKey bool) *intervalKey {
	g := j.groups[kg-j.cfg.KeyGroups.Start]
	if g == nil {
		g = map[string]*intervalKey{}
		j.groups[kg-j.cfg.KeyGroups.Start] = g
	}
	k, ok := g[string(key)]
	if !ok {
		k = &intervalKey{nullKey: nullKey}
		g[string(key)] = k
		j.keys++
		j.bytes += int64(len(key))
	}
	return k
}

func (j *IntervalJoin) empty(k *intervalKey) bool {
	return len(k.caches[0]) == 0 && len(k.caches[1]) == 0 && !k.hasTimer[0] && !k.hasTimer[1]
}

func (j *IntervalJoin) dropKey(kg int, key []byte) {
	delete(j.groups[kg-j.cfg.KeyGroups.Start], string(key))
	j.keys--
	j.bytes -= int64(len(key))
}

func (j *IntervalJoin) dropBytes(tr *timeRows) {
	for _, r := range tr.rows {
		j.bytes -= int64(len(r))
	}
}

// cache adds a row to its side's cache of a key, returning the row's place.
func (j *IntervalJoin) cache(k *intervalKey, side Side, t int64, row []byte) (*timeRows, int) {
	j.bytes += int64(len(row))
	c := k.caches[side]
	i := sort.Search(len(c), func(i int) bool { return c[i].time >= t })
	if i == len(c) || c[i].time != t {
		c = append(c, nil)
		copy(c[i+1:], c[i:])
		c[i] = newTimeRows(t)
		k.caches[side] = c
	}
	tr := c[i]
	tr.rows, tr.joined = append(tr.rows, row), append(tr.joined, false)
	return tr, len(tr.rows) - 1
}

// register sets the cleanup timer of a key's cache of side for rows of time t
// (registerCleanUpTimer).
func (j *IntervalJoin) register(k *intervalKey, side Side, kg int, key []byte, t int64) {
	at := t + j.rel[side] + j.cfg.MinCleanUpInterval + 1
	k.timer[side], k.hasTimer[side] = at, true
	j.timers.Add(keytimer.Timer{At: at, KeyGroup: kg, Key: string(key)})
}

// AdvanceWatermark moves the watermark to wm and fires the cleanup timers it passes (onTimer):
// expired cached rows are removed, those of an outer side that never joined emitted padded,
// and a cache with rows left gets a new timer.
// A processing-time join has no event-time timers: the watermark changes nothing.
func (j *IntervalJoin) AdvanceWatermark(wm int64, emit Emit) error {
	if wm <= j.watermark {
		return nil
	}
	j.watermark = wm
	if j.cfg.ProcTime {
		return nil
	}
	return j.fire(wm, emit)
}

// AdvanceProcessingTime fires the cleanup timers of a processing-time join due at t, the clock
// (onTimer of processing-time timers, whose operator time is the clock), as AdvanceWatermark
// fires them on event time.
func (j *IntervalJoin) AdvanceProcessingTime(t int64, emit Emit) error {
	if !j.cfg.ProcTime {
		return fmt.Errorf("interval join: an event-time join has no processing-time timers")
	}
	j.clock = max(j.clock, t)
	return j.fire(t, emit)
}

// NextTimer is the time of the earliest pending cleanup timer (MaxInt64: none).
func (j *IntervalJoin) NextTimer() int64 {
	if j.timers.Len() == 0 {
		return math.MaxInt64
	}
	return j.timers[0].At
}

// fire runs the cleanup timers due at limit, in time order.
func (j *IntervalJoin) fire(limit int64, emit Emit) error {
	opTime := j.operatorTime()
	for j.timers.Len() > 0 && j.timers[0].At <= limit {
		t := j.timers.Next()
		k := j.groups[t.KeyGroup-j.cfg.KeyGroups.Start][t.Key]
		if k == nil {
			continue
		}
		// The right cache's timer first, as onTimer checks IntervalJoinLeftTimerState first.
		for _, side := range [2]Side{RightSide, LeftSide} {
			if k.hasTimer[side] && k.timer[side] == t.At {
				j.expiration[side] = expirationTime(opTime, j.rel[side])
				if err := j.removeExpired(k, side, t.KeyGroup, t.Key, emit); err != nil {
					return err
				}
			}
		}
		if j.empty(k) {
			j.dropKey(t.KeyGroup, []byte(t.Key))
		}
	}
	return nil
}

// removeExpired removes the rows of a key's cache of side up to its expiration time
// (removeExpiredRows) and registers a timer for the earliest row left, if any.
func (j *IntervalJoin) removeExpired(k *intervalKey, side Side, kg int, key string, emit Emit) error {
	c := k.caches[side]
	n := 0
	for n < len(c) && c[n].time <= j.expiration[side] {
		if err := j.pad(side, c[n], emit); err != nil {
			return err
		}
		j.dropBytes(c[n])
		n++
	}
	c = append(c[:0], c[n:]...)
	clear(k.caches[side][len(c):])
	k.caches[side] = c
	// TimeIntervalJoin keeps rows only when the earliest one left is after time 0; otherwise
	// it clears the cache without padding them.
	if len(c) > 0 && c[0].time > 0 {
		j.register(k, side, kg, []byte(key), c[0].time)
		return nil
	}
	for _, tr := range c {
		j.dropBytes(tr)
	}
	clear(c)
	k.caches[side], k.hasTimer[side], k.timer[side] = nil, false, 0
	return nil
}
