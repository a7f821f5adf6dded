package window

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/keytimer"
	"github.com/sluice-project/sluice/exec/stateblob"
)

// session is one session window of a key: [start, end) and its accumulator group.
type session struct {
	start, end int64
	g          int32
}

// intersects is TimeWindow#intersects: windows that touch intersect too.
func (s session) intersects(o session) bool { return s.start <= o.end && s.end >= o.start }

// hashSetBucket is the bucket of a window in a java.util.HashSet of 16 buckets (Flink's set of
// merged windows holds at most three): TimeWindow#hashCode spread as HashMap#hash spreads it.
func hashSetBucket(w session) int32 {
	x := int32(w.end<<1) + 1
	inv := x * x * x // the inverse of the odd x mod 2^32, by Newton iteration (TimeWindow#modInverse)
	inv *= 2 - x*inv
	inv *= 2 - x*inv
	inv *= 2 - x*inv
	h := int32(uint32(uint64(w.start) + uint64(int64(inv))))
	return (h ^ int32(uint32(h)>>16)) & 15
}

// sessionKey is a key's sessions, ordered by start (they never overlap).
type sessionKey struct {
	key      string
	kg       int32
	sessions []session
}

// Sessions aggregates rows per key and SESSION window on event time as Flink's
// UnsliceSyncStateWindowAggProcessor does with its MergingWindowSet: each row opens the window
// [time, time + gap), which merges with the key's sessions it touches (their accumulators
// merged into one); a row whose window is not merged into a live session and ends at or before
// the watermark is late and dropped; a session fires when the watermark reaches its end - 1.
type Sessions struct {
	spec   Spec
	gap    int64
	hasher *keygroup.Assigner
	accSet
	keys        []map[string]*sessionKey // by key group - KeyGroups.Start
	timers      keytimer.Heap
	watermark   int64
	lateDropped int64

	// Per batch: each row's group (-1: dropped) and the key groups.
	kgs, rowGroups, filtered []int32
	// Output pending since the last TakeFired.
	outKeys    []byte
	outOffsets []int32
	outGroups  []int32
	outStarts  []int64
	outEnds    []int64
}

// NewSessions returns a session window aggregation for spec (an assigner of Kind Session).
func NewSessions(spec Spec) (*Sessions, error) {
	if spec.Assigner == nil || spec.Assigner.Kind != Session {
		return nil, fmt.Errorf("session window aggregate: not a SESSION window")
	}
	if spec.Sliced || spec.ProcTime {
		return nil, fmt.Errorf("session window aggregate: only one-phase event-time sessions are supported natively")
	}
	if err := keygroup.CheckParallelism(spec.MaxParallelism, 1); err != nil {
		return nil, fmt.Errorf("session window aggregate: %w", err)
	}
	if spec.KeyGroups.Start < 0 || spec.KeyGroups.End >= spec.MaxParallelism || spec.KeyGroups.Len() <= 0 {
		return nil, fmt.Errorf("session window aggregate: key groups %v outside [0, %d)", spec.KeyGroups, spec.MaxParallelism)
	}
	h, err := keygroup.NewAssigner(spec.KeyTypes, spec.MaxParallelism)
	if err != nil {
		return nil, fmt.Errorf("session window aggregate: %w", err)
	}
	s := &Sessions{spec: spec, gap: spec.Assigner.Size, hasher: h, watermark: -1 << 63}
	for _, c := range spec.Calls {
		if c.Distinct || c.Func == agg.FirstValue || c.Func == agg.LastValue {
			return nil, fmt.Errorf("session window aggregate: %s%s on a SESSION window is not supported natively yet", c.Func, map[bool]string{true: "(DISTINCT)"}[c.Distinct])
		}
		a, err := agg.NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("session window aggregate: %w", err)
		}
		s.accs = append(s.accs, a)
	}
	s.keys = make([]map[string]*sessionKey, spec.KeyGroups.Len())
	for i := range s.keys {
		s.keys[i] = map[string]*sessionKey{}
	}
	return s, nil
}

func (s *Sessions) keyState(kg int32, key []byte) *sessionKey {
	m := s.keys[int(kg)-s.spec.KeyGroups.Start]
	k, ok := m[string(key)]
	if !ok {
		k = &sessionKey{key: string(key), kg: kg}
		m[k.key] = k
	}
	return k
}

// register registers the event-time timer of a key's session, at its end - 1 (a timer of a
// session merged away stays in the heap and is skipped when it pops).
func (s *Sessions) register(k *sessionKey, end int64) {
	s.timers.Add(keytimer.Timer{At: end - 1, KeyGroup: int(k.kg), Key: k.key})
}

// Process aggregates one batch of rows, in order.
func (s *Sessions) Process(in Input) error {
	n := in.Rowtime.Len()
	if len(in.Args) != len(s.accs) {
		return fmt.Errorf("session window aggregate: %d input columns for %d aggregates", len(in.Args), len(s.accs))
	}
	s.kgs = grown(s.kgs[:0], n)
	if err := s.hasher.Assign(in.Keys, n, s.kgs, nil); err != nil {
		return fmt.Errorf("session window aggregate: %w", err)
	}
	keyRows, keyOffsets := s.hasher.KeyRows()
	if in.Rowtime.NullN() > 0 {
		for r := 0; r < n; r++ {
			if in.Rowtime.IsNull(r) {
				return fmt.Errorf("session window aggregate: row %d of the batch has a null time attribute", r)
			}
		}
	}
	times := column.Values[int64](in.Rowtime)
	s.rowGroups = grown(s.rowGroups[:0], n)
	done := 0 // rows [0, done) are accumulated
	for r := 0; r < n; r++ {
		s.rowGroups[r] = -1
		kg := s.kgs[r]
		if !s.spec.KeyGroups.Contains(int(kg)) {
			return fmt.Errorf("session window aggregate: row %d has key group %d, outside this subtask's %v: rows are not routed as Flink routes them", r, kg, s.spec.KeyGroups)
		}
		k := s.keyState(kg, keyRows[keyOffsets[r]:keyOffsets[r+1]])
		w := session{start: times[r], end: times[r] + s.gap}
		// SessionWindowAssigner#mergeWindows: the ceiling and floor of the new window in the
		// sorted set (by start, then end) merge with it when they touch it.
		i := sort.Search(len(k.sessions), func(j int) bool {
			c := k.sessions[j]
			return c.start > w.start || c.start == w.start && c.end >= w.end
		})
		merged := w
		var with [2]int
		m := 0
		if i < len(k.sessions) && merged.intersects(k.sessions[i]) {
			merged.start, merged.end = min(merged.start, k.sessions[i].start), max(merged.end, k.sessions[i].end)
			with[m], m = i, m+1
		}
		floor := i - 1
		if i < len(k.sessions) && k.sessions[i].start == w.start && k.sessions[i].end == w.end {
			floor = i // an equal window is its own floor
		}
		if floor >= 0 && (m == 0 || with[0] != floor) && merged.intersects(k.sessions[floor]) {
			merged.start, merged.end = min(merged.start, k.sessions[floor].start), max(merged.end, k.sessions[floor].end)
			with[m], m = floor, m+1
		}
		if m == 0 && w.end-1 <= s.watermark {
			// MergingWindowProcessFunction: the row's own window is late and retired.
			s.lateDropped++
			if len(k.sessions) == 0 {
				delete(s.keys[int(kg)-s.spec.KeyGroups.Start], k.key)
			}
			continue
		}
		// The session's timer, unless one of the merged sessions ends where it does.
		timed := false
		for _, j := range with[:m] {
			timed = timed || k.sessions[j].end == merged.end
		}
		switch m {
		case 0:
			merged.g = s.newGroup()
			k.sessions = append(k.sessions, session{})
			copy(k.sessions[i+1:], k.sessions[i:])
			k.sessions[i] = merged
		case 1:
			merged.g = k.sessions[with[0]].g
			k.sessions[with[0]] = merged
		default:
			// Two sessions become one: the rows so far go into their groups first, then the
			// other session's accumulators merge into the target's (Flink's
			// DefaultAccMergingConsumer). Flink's target is the first of the two in its HashSet
			// of merged windows, where the ceiling went in before the floor; the order matters
			// for MIN/MAX over NaN, which no comparison moves.
			s.accumulate(in, done, r)
			done = r
			target, other := with[0], with[1]
			if hashSetBucket(k.sessions[other]) < hashSetBucket(k.sessions[target]) {
				target, other = other, target
			}
			merged.g = k.sessions[target].g
			s.merge(merged.g, k.sessions[other].g)
			s.freeGroup(k.sessions[other].g)
			lo, hi := min(with[0], with[1]), max(with[0], with[1])
			k.sessions[lo] = merged
			k.sessions = append(k.sessions[:hi], k.sessions[hi+1:]...)
		}
		if !timed {
			s.register(k, merged.end)
		}
		s.rowGroups[r] = merged.g
	}
	s.accumulate(in, done, n)
	return nil
}

// accumulate adds rows [from, to) of the batch into their groups.
func (s *Sessions) accumulate(in Input, from, to int) {
	if from >= to {
		return
	}
	groups := s.rowGroups[:to]
	for r := 0; r < from; r++ {
		groups[r] = -1 // accumulated already
	}
	for i, a := range s.accs {
		g := groups
		if i < len(in.Filters) && in.Filters[i] != nil {
			s.filtered = agg.FilterGroups(s.filtered[:0], groups, in.Filters[i])
			g = s.filtered
		}
		var arg arrow.Array
		if i < len(in.Args) {
			arg = in.Args[i]
		}
		if arg != nil && arg.Len() > to {
			arg = array.NewSlice(arg, 0, int64(to))
			a.Accumulate(arg, g)
			arg.Release()
			continue
		}
		a.Accumulate(arg, g)
	}
}

// AdvanceWatermark moves event time to w and fires the sessions whose end - 1 it reached.
func (s *Sessions) AdvanceWatermark(w int64) {
	if w <= s.watermark {
		return
	}
	s.watermark = w
	for len(s.timers) > 0 && s.timers[0].At <= w {
		t := s.timers.Next()
		m := s.keys[t.KeyGroup-s.spec.KeyGroups.Start]
		k := m[t.Key]
		if k == nil {
			continue
		}
		i := -1
		for j, ss := range k.sessions {
			if ss.end-1 == t.At {
				i = j
				break
			}
		}
		if i < 0 {
			continue // a session merged into a later one
		}
		ss := k.sessions[i]
		if len(s.outOffsets) == 0 {
			s.outOffsets = append(s.outOffsets, 0)
		}
		s.outKeys = append(s.outKeys, k.key...)
		s.outOffsets = append(s.outOffsets, int32(len(s.outKeys)))
		s.outGroups = append(s.outGroups, ss.g)
		s.outStarts = append(s.outStarts, ss.start)
		s.outEnds = append(s.outEnds, ss.end)
		k.sessions = append(k.sessions[:i], k.sessions[i+1:]...)
		if len(k.sessions) == 0 {
			delete(m, t.Key)
		}
	}
}

// AdvanceProcessingTime does nothing: sessions fire on event time.
func (s *Sessions) AdvanceProcessingTime(int64) {}

// NextTimer is the earliest pending processing-time timer: none.
func (s *Sessions) NextTimer() int64 { return 1<<63 - 1 }

// PrepareCheckpoint has nothing to flush: rows are aggregated as they arrive.
func (s *Sessions) PrepareCheckpoint() {}

// Watermark is the operator's current event time.
func (s *Sessions) Watermark() int64 { return s.watermark }

// InitializeWatermark restores the operator's event time after a restore.
func (s *Sessions) InitializeWatermark(w int64) { s.watermark = w }

// LateDropped counts the late rows dropped.
func (s *Sessions) LateDropped() int64 { return s.lateDropped }

// TakeFired returns the rows of the sessions fired since the last call.
func (s *Sessions) TakeFired(mem memory.Allocator) (*Fired, error) {
	f := &Fired{KeyRows: s.outKeys, KeyOffsets: s.outOffsets, Starts: s.outStarts, Ends: s.outEnds}
	if len(f.KeyOffsets) == 0 {
		f.KeyOffsets = []int32{0}
	}
	for _, a := range s.accs {
		col, err := a.Result(mem, s.outGroups)
		if err != nil {
			f.Release()
			return nil, fmt.Errorf("session window aggregate: %w", err)
		}
		f.Aggs = append(f.Aggs, col)
	}
	for _, g := range s.outGroups {
		s.freeGroup(g)
	}
	s.outKeys, s.outOffsets, s.outGroups, s.outStarts, s.outEnds = nil, nil, s.outGroups[:0], nil, nil
	return f, nil
}

// StateBytes estimates the memory the sessions take: accumulators, key rows and bookkeeping.
func (s *Sessions) StateBytes() int64 {
	perGroup := 0
	for _, a := range s.accs {
		perGroup += a.GroupBytes()
	}
	var n int64
	for _, m := range s.keys {
		for k, ks := range m {
			n += int64(len(k)) + 48 + 64 + int64(len(ks.sessions))*(20+int64(perGroup))
		}
	}
	return n
}

// Keys is the number of keys with sessions.
func (s *Sessions) Keys() int {
	n := 0
	for _, m := range s.keys {
		n += len(m)
	}
	return n
}

// Session state format of one key group (integers little-endian):
//
//	magic "SLSW" | version u16 | spec fingerprint u32 | keys u32 |
//	per key: key length u32, key row bytes, sessions u32,
//	         per session: start i64, end i64, each aggregate's accumulator |
//	CRC-32C of everything before, u32.
//
// Each session's timer (at its end - 1) is registered again on restore.
const (
	sessionMagic   = "SLSW"
	sessionVersion = 1
)

// Snapshot serializes the sessions of key group kg (nil when it holds none).
func (s *Sessions) Snapshot(kg int) ([]byte, error) {
	if !s.spec.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("session window aggregate snapshot: key group %d outside %v", kg, s.spec.KeyGroups)
	}
	m := s.keys[kg-s.spec.KeyGroups.Start]
	if len(m) == 0 {
		return nil, nil
	}
	le := binary.LittleEndian
	b := le.AppendUint32(le.AppendUint32(stateblob.Header(sessionMagic, sessionVersion), fingerprint(s.spec)), uint32(len(m)))
	for _, key := range stateblob.SortedKeys(m) {
		k := m[key]
		b = le.AppendUint32(stateblob.AppendBytes(b, []byte(key)), uint32(len(k.sessions)))
		for _, ss := range k.sessions {
			b = le.AppendUint64(le.AppendUint64(b, uint64(ss.start)), uint64(ss.end))
			for _, a := range s.accs {
				b = a.Encode(b, ss.g)
			}
		}
	}
	return stateblob.Seal(b), nil
}

// Restore loads a key group's sessions written by Snapshot and registers their timers.
func (s *Sessions) Restore(kg int, blob []byte) error {
	if err := s.restore(kg, blob); err != nil {
		return fmt.Errorf("session window aggregate state of key group %d: %w", kg, err)
	}
	return nil
}

func (s *Sessions) restore(kg int, blob []byte) error {
	if !s.spec.KeyGroups.Contains(kg) {
		return fmt.Errorf("outside %v", s.spec.KeyGroups)
	}
	if len(blob) == 0 {
		return nil // a key group without state
	}
	r, _, err := stateblob.Open(blob, sessionMagic, "session window aggregate", sessionVersion)
	if err != nil {
		return err
	}
	if fp := r.U32(); r.OK() && fp != fingerprint(s.spec) {
		return fmt.Errorf("the state was written by a different window aggregation")
	}
	m := s.keys[kg-s.spec.KeyGroups.Start]
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := r.Bytes()
		if _, dup := m[string(key)]; dup {
			return fmt.Errorf("key %q twice", key)
		}
		k := s.keyState(int32(kg), key)
		for c := r.U32(); c > 0 && r.OK(); c-- {
			ss := session{start: int64(r.U64()), end: int64(r.U64()), g: s.newGroup()}
			for _, a := range s.accs {
				r.Read(func(rest []byte) ([]byte, error) { return a.Decode(rest, ss.g) })
			}
			if n := len(k.sessions); n > 0 && k.sessions[n-1].end >= ss.start {
				return fmt.Errorf("key %q: sessions out of order", key)
			}
			k.sessions = append(k.sessions, ss)
			s.register(k, ss.end)
		}
	}
	return r.End()
}

// Aggregation is the operator of a window aggregation's one phase or global phase: slicing
// windows (Operator) or sessions (Sessions).
type Aggregation interface {
	// Process aggregates one batch of rows.
	Process(in Input) error
	// AdvanceWatermark moves event time and fires the windows due.
	AdvanceWatermark(w int64)
	// AdvanceProcessingTime fires the processing-time windows due.
	AdvanceProcessingTime(t int64)
	// NextTimer is the earliest pending processing-time timer.
	NextTimer() int64
	// TakeFired returns the rows of the windows fired since the last call.
	TakeFired(mem memory.Allocator) (*Fired, error)
	// PrepareCheckpoint flushes what Flink flushes before a checkpoint barrier.
	PrepareCheckpoint()
	// Watermark is the operator's current event time.
	Watermark() int64
	// InitializeWatermark restores event time after a restore.
	InitializeWatermark(w int64)
	// Snapshot serializes one key group's state.
	Snapshot(kg int) ([]byte, error)
	// Restore loads one key group's state.
	Restore(kg int, blob []byte) error
	// LateDropped counts the late rows dropped.
	LateDropped() int64
	// StateBytes estimates the memory the state takes.
	StateBytes() int64
	// Keys is the number of keys with state.
	Keys() int
}

// Open returns the operator of spec's windows.
func Open(spec Spec) (Aggregation, error) {
	if spec.Assigner != nil && spec.Assigner.Kind == Session {
		return NewSessions(spec)
	}
	return New(spec)
}
