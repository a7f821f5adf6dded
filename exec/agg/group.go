package agg

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/stateblob"
	"github.com/sluice-project/sluice/exec/statettl"
)

// GroupConfig configures a group aggregation.
type GroupConfig struct {
	Calls []Call
	// GenerateUpdateBefore says whether an update emits the old row (-U) before the new one
	// (+U); Flink's planner decides it from what the downstream operators need.
	GenerateUpdateBefore bool
	// Retractions says the input has updates and deletes (Flink's needRetraction): -U and -D
	// rows are retracted, each key counts its rows (the COUNT(*) Flink's planner adds), and a
	// key whose count comes back to 0 is deleted (-D of its last result) with its state.
	Retractions bool
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
	// RecordCount locates, in the global phase of a two-phase aggregation over input with
	// retractions, what Flink's RecordCounter reads as a key's number of records: field
	// RecordCount of the calls' flattened accumulator fields, the COUNT(*) call's
	// (FieldCounter). A key whose count is 0 after a bundle is deleted. Unused elsewhere.
	RecordCount int
	// HiddenCalls is the number of trailing calls Flink's planner appended (the COUNT(*) that
	// counts records), whose results are neither compared nor output.
	HiddenCalls int
	// StateTTL is the state's time to live, as Flink's StateTtlConfig for GroupAggFunction's
	// state: a key's state is gone a TTL after its last write, and every update is emitted,
	// equal results too, so that downstream state is kept alive. Its clock is read once per
	// batch.
	StateTTL statettl.TTL
}

// GroupInput is a batch of input rows of a group aggregation.
type GroupInput struct {
	N int
	// Kinds holds each row's RowKind (nil: every row an insert).
	Kinds []int8
	// KeyGroups and the key rows (BinaryRowData bytes at KeyOffsets) of the rows.
	KeyGroups  []int32
	Keys       []byte
	KeyOffsets []int32
	// Args holds each call's argument column (nil for COUNT(*)), Filters each call's FILTER
	// column (nil for none).
	Args, Filters []arrow.Array
	// Bundle says the rows are a finished mini-batch bundle, each key's rows together and the
	// keys in the bundle's order: every key's rows are aggregated into its state and the key
	// then emits once, as MiniBatchGroupAggFunction#finishBundle (see ProcessBundle).
	Bundle bool
}

// Changes are what a group aggregation emits for a batch, in order: per change its RowKind,
// the input row whose key it carries, and (Values, one array per call) its aggregate values.
type Changes struct {
	Kinds  []int8
	Rows   []int32
	Values []arrow.Array
}

// Release releases the changes' value arrays.
func (c *Changes) Release() {
	for _, v := range c.Values {
		v.Release()
	}
	c.Values = nil
}

// GroupAggregate is Flink's group aggregation without mini-batches (GroupAggFunction over
// GroupAggHelper) on one subtask: one accumulator row per key, and for every input row the
// change it makes to its key's result: +I for a key's first row, -U/+U for a later one whose
// result differs, nothing when the result stays equal (no state TTL); over input with
// retractions also -D when a key's last row is retracted, and nothing for a retraction of a
// key without state.
//
// A batch is aggregated in rounds: round j takes the j-th row of every key in the batch, so
// that each round runs the accumulators over a whole column with every key at most once. The
// result after each row is copied to a snapshot slot (CopyResult), so that the results
// before and after every row come out of one Result call per aggregate at the end.
type GroupAggregate struct {
	cfg  GroupConfig
	accs []GroupAccumulator
	// retractors holds each call's accumulator as a Retractor (nil: retractions leave it as
	// it is, a MIN or MAX Flink's planner found monotonic).
	retractors []Retractor
	// copyResult snapshots each call's result into another slot; batchers holds the calls'
	// accumulators that copy and compare results for many slots at once (nil for the others).
	copyResult []func(dst, src int32)
	batchers   []resultBatcher
	groups     []groupKeys // per key group of the range
	// Per slot: the number of rows aggregated into it, and whether its key has state. A key a
	// batch touches has a slot while the batch runs, without state while it has no rows.
	rows []int64
	live []bool
	// written is each slot's last write of its state (processing time, with a state TTL).
	written []int64
	slots   int32
	free    []int32
	keys    int64
	// Per batch: each row's slot, occurrence of its key, the key's previous row in the
	// batch (-1 for none) and the snapshot slots of its results before and after (-1: none).
	slotOf, occ, prevRow  []int32
	before, after, change []int32
	round                 []int32
	roundStart, roundFill []int32
	lastOf                []int32 // per slot: 1 + the batch's last row of its key (0: none)
	touched               []int32 // the batch's first row of each key
	marked                []int32 // the slots whose lastOf the batch set
	snapshots             []int32
	// The snapshots taken but not copied yet: slot snapDst[i] gets slot snapSrc[i]'s results.
	snapDst, snapSrc []int32
	// changes' buffers: the updates' rows and their before and after slots, whether each
	// differs, and the changes' result slots.
	updates, befores, afters, resultSlots []int32
	differs                               []bool
	buffers                               []int32 // MergeBundle: each key's buffer slot
	adds, subtract                        []int32
	filtered                              []int32
}

// noChange marks a row that emits nothing.
const noChange int32 = -1

// NewGroupAggregate returns an empty group aggregation.
func NewGroupAggregate(cfg GroupConfig) (*GroupAggregate, error) {
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("group aggregate: key groups %v", cfg.KeyGroups)
	}
	g := &GroupAggregate{cfg: cfg, groups: make([]groupKeys, cfg.KeyGroups.Len())}
	for _, c := range cfg.Calls {
		if c.Distinct {
			if cfg.Retractions && !c.Retract {
				return nil, fmt.Errorf("group aggregate: %s(DISTINCT) over input with retractions must retract", c.Func)
			}
			a, err := NewGroupDistinct(c, cfg.Retractions)
			if err != nil {
				return nil, fmt.Errorf("group aggregate: %w", err)
			}
			d := a.(interface {
				Retractor
				Copy(dst, src int32)
			})
			if cfg.Retractions {
				g.accs, g.retractors, g.copyResult = append(g.accs, d), append(g.retractors, d), append(g.copyResult, d.CopyResult)
			} else {
				g.accs, g.retractors, g.copyResult = append(g.accs, d), append(g.retractors, nil), append(g.copyResult, d.Copy)
			}
			continue
		}
		if cfg.Retractions && c.Retract {
			r, err := NewRetractor(c)
			if err != nil {
				return nil, fmt.Errorf("group aggregate: %w", err)
			}
			g.accs, g.retractors, g.copyResult = append(g.accs, r), append(g.retractors, r), append(g.copyResult, r.CopyResult)
			continue
		}
		if cfg.Retractions && c.Func != Min && c.Func != Max {
			return nil, fmt.Errorf("group aggregate: %s over input with retractions must retract", c.Func)
		}
		a, err := NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("group aggregate: %w", err)
		}
		g.accs, g.retractors, g.copyResult = append(g.accs, a), append(g.retractors, nil), append(g.copyResult, a.Copy)
	}
	for _, a := range g.accs {
		b, _ := a.(resultBatcher)
		g.batchers = append(g.batchers, b)
	}
	return g, nil
}

// StateKeys is the number of keys in state.
func (g *GroupAggregate) StateKeys() int64 { return g.keys }

// StateBytes is an estimate of the memory the accumulators take.
func (g *GroupAggregate) StateBytes() int64 {
	per := 9 // the row count and the state flag
	for _, a := range g.accs {
		per += a.GroupBytes()
	}
	return g.keys * int64(per)
}

// alloc returns a free slot; reserve must have made room for it.
func (g *GroupAggregate) alloc() int32 {
	if n := len(g.free); n > 0 {
		s := g.free[n-1]
		g.free = g.free[:n-1]
		return s
	}
	s := g.slots
	g.slots++
	return s
}

// reserve makes room for n more slots.
func (g *GroupAggregate) reserve(n int) {
	size := int(g.slots) + n
	for _, a := range g.accs {
		a.Grow(size)
	}
	g.rows, g.live, g.written = grown(g.rows, size), grown(g.live, size), grown(g.written, size)
	g.lastOf = grown(g.lastOf, size)
}

// snapshot returns a new snapshot slot that gets slot s's results at the next copySnapshots,
// before anything changes slot s.
func (g *GroupAggregate) snapshot(s int32) int32 {
	d := g.alloc()
	g.snapDst, g.snapSrc = append(g.snapDst, d), append(g.snapSrc, s)
	g.snapshots = append(g.snapshots, d)
	return d
}

// copySnapshots copies the results of the snapshots taken since the last call, call by call.
func (g *GroupAggregate) copySnapshots() {
	if len(g.snapDst) == 0 {
		return
	}
	for i, c := range g.copyResult {
		if b := g.batchers[i]; b != nil {
			b.copyResults(g.snapDst, g.snapSrc)
			continue
		}
		for j, d := range g.snapDst {
			c(d, g.snapSrc[j])
		}
	}
	g.snapDst, g.snapSrc = g.snapDst[:0], g.snapSrc[:0]
}

func (g *GroupAggregate) group(kg int) (*groupKeys, error) {
	if !g.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("group aggregate: key group %d outside %v", kg, g.cfg.KeyGroups)
	}
	return &g.groups[kg-g.cfg.KeyGroups.Start], nil
}

// newSlot is a new key's slot, without state until rows are aggregated into it.
func (g *GroupAggregate) newSlot() int32 {
	s := g.alloc()
	g.live[s] = false
	return s
}

// Process aggregates a batch, row by row in effect, and returns the changes Flink emits for
// it. The caller releases the changes.
func (g *GroupAggregate) Process(mem memory.Allocator, in *GroupInput) (*Changes, error) {
	n := in.N
	if in.Kinds != nil && !g.cfg.Retractions {
		for r, k := range in.Kinds[:n] {
			if k != changelog.Insert && k != changelog.UpdateAfter {
				return nil, fmt.Errorf("group aggregate: input row %d has RowKind %d, and the aggregation was planned for input without retractions", r, k)
			}
		}
	}
	g.slotOf, g.occ, g.prevRow = grown(g.slotOf, n)[:n], grown(g.occ, n)[:n], grown(g.prevRow, n)[:n]
	g.before, g.after, g.change = grown(g.before, n)[:n], grown(g.after, n)[:n], grown(g.change, n)[:n]
	for _, s := range g.marked {
		g.lastOf[s] = 0
	}
	g.touched, g.marked, g.snapshots = g.touched[:0], g.marked[:0], g.snapshots[:0]
	g.snapDst, g.snapSrc = g.snapDst[:0], g.snapSrc[:0]
	g.reserve(3 * n) // at most a new key and two snapshots per row
	var now int64
	if g.cfg.StateTTL.Enabled() {
		now = g.cfg.StateTTL.Now()
	}
	rounds := 0
	for r := 0; r < n; r++ {
		m, err := g.group(int(in.KeyGroups[r]))
		if err != nil {
			return nil, err
		}
		s, ok := m.slot(in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]], g.newSlot)
		g.slotOf[r], g.occ[r], g.prevRow[r] = s, 0, -1
		if last := g.lastOf[s] - 1; last >= 0 {
			g.occ[r], g.prevRow[r] = g.occ[last]+1, last
		} else {
			g.touched, g.marked = append(g.touched, int32(r)), append(g.marked, s)
			if ok && g.live[s] && g.cfg.StateTTL.Expired(g.written[s], now) {
				g.expire(s)
			}
			if in.Bundle && !g.live[s] && onlyRetractions(in, r) {
				// MiniBatchGroupAggFunction returns from finishBundle at a key without
				// state whose rows all retract: the bundle's later keys are dropped too.
				n = r
				break
			}
		}
		g.lastOf[s] = int32(r) + 1
		rounds = max(rounds, int(g.occ[r])+1)
	}
	// The rows of each round, in row order (a counting sort by occurrence).
	g.roundStart = grown(g.roundStart[:0], rounds+1)[:rounds+1]
	clear(g.roundStart)
	for r := 0; r < n; r++ {
		g.roundStart[g.occ[r]+1]++
	}
	for j := 1; j <= rounds; j++ {
		g.roundStart[j] += g.roundStart[j-1]
	}
	g.round = grown(g.round, n)[:n]
	fill := append(g.roundFill[:0], g.roundStart[:rounds]...)
	g.roundFill = fill
	for r := 0; r < n; r++ {
		j := g.occ[r]
		g.round[fill[j]] = int32(r)
		fill[j]++
	}
	for j := 0; j < rounds; j++ {
		if err := g.runRound(mem, in, g.round[g.roundStart[j]:g.roundStart[j+1]], rounds == 1 && n == in.N); err != nil {
			return nil, err
		}
	}
	ch, err := g.changes(mem, n)
	if err != nil {
		return nil, err
	}
	// The snapshots are free again, and so are the keys left without state.
	g.free = append(g.free, g.snapshots...)
	for _, r := range g.touched {
		s := g.slotOf[r]
		g.written[s] = now
		if !g.live[s] {
			m, _ := g.group(int(in.KeyGroups[r]))
			m.remove(in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]])
			for _, a := range g.accs {
				a.Reset(s) // lets go of what the accumulators hold
			}
			g.free = append(g.free, s)
		}
	}
	return ch, nil
}

// onlyRetractions says whether the rows of a bundle's key from its first row r on (up to the
// next key's) all retract.
func onlyRetractions(in *GroupInput, r int) bool {
	if in.Kinds == nil {
		return false
	}
	key := string(in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]])
	for ; r < in.N && string(in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]]) == key; r++ {
		if !changelog.Retracts(in.Kinds[r]) {
			return false
		}
	}
	return true
}

// expire takes slot s's state away (its time to live has passed): the key is then new to the
// batch.
func (g *GroupAggregate) expire(s int32) {
	g.live[s] = false
	g.keys--
	for _, a := range g.accs {
		a.Reset(s)
	}
}

// runRound aggregates the rows sel of a round (each of a different key) and records each
// one's change and the snapshots of its results before and after it; whole says the round
// holds every row of the batch in order (the columns are then used as they are).
func (g *GroupAggregate) runRound(mem memory.Allocator, in *GroupInput, sel []int32, whole bool) error {
	adds, subtract := g.adds[:0], g.subtract[:0]
	for _, r := range sel {
		s := g.slotOf[r]
		g.change[r], g.before[r], g.after[r] = noChange, -1, -1
		retract := in.Kinds != nil && changelog.Retracts(in.Kinds[r])
		switch {
		case !g.live[s] && retract:
			// No state for the key: Flink drops the retraction.
			adds, subtract = append(adds, -1), append(subtract, -1)
			continue
		case !g.live[s]:
			for _, a := range g.accs {
				a.Reset(s)
			}
			g.rows[s], g.live[s] = 0, true
			g.keys++
			g.change[r] = int32(changelog.Insert)
		case g.prevRow[r] >= 0 && in.Bundle:
			// The key's change over the whole bundle comes out at its last row.
			p := g.prevRow[r]
			g.change[r], g.before[r], g.change[p] = g.change[p], g.before[p], noChange
		case g.prevRow[r] >= 0:
			g.change[r], g.before[r] = int32(changelog.UpdateAfter), g.after[g.prevRow[r]]
		default:
			g.change[r], g.before[r] = int32(changelog.UpdateAfter), g.snapshot(s)
		}
		if retract {
			adds, subtract = append(adds, -1), append(subtract, s)
			g.rows[s]--
		} else {
			adds, subtract = append(adds, s), append(subtract, -1)
			g.rows[s]++
		}
	}
	g.adds, g.subtract = adds, subtract
	g.copySnapshots()
	for i := range g.accs {
		if err := g.accumulate(mem, in, i, sel, whole); err != nil {
			return err
		}
	}
	for _, r := range sel {
		s := g.slotOf[r]
		switch {
		case g.change[r] == noChange:
		case in.Bundle && g.lastOf[s] != r+1:
			// A bundle's key is judged after its last row: its count may pass through 0.
		case g.cfg.Retractions && g.rows[s] == 0:
			// The key's last row was retracted: Flink deletes its result and its state.
			g.live[s] = false
			g.keys--
			if g.change[r] == int32(changelog.Insert) {
				g.change[r] = noChange
			} else {
				g.change[r] = int32(changelog.Delete)
			}
		case g.lastOf[s] == r+1:
			// The key's last row of the batch: its results stay in its slot until the
			// changes are out.
			g.after[r] = s
		default:
			g.after[r] = g.snapshot(s)
		}
	}
	g.copySnapshots()
	return nil
}

// accumulate runs call i over the round's rows: accumulating g.adds, retracting g.subtract.
func (g *GroupAggregate) accumulate(mem memory.Allocator, in *GroupInput, i int, sel []int32, whole bool) error {
	arg, filter := in.Args[i], arrow.Array(nil)
	if i < len(in.Filters) {
		filter = in.Filters[i]
	}
	var owned []arrow.Array
	defer func() { releaseArrays(owned) }()
	if !whole {
		var err error
		if arg != nil {
			if arg, err = column.TakeOrNull(arg, sel, mem); err != nil {
				return fmt.Errorf("group aggregate: %w", err)
			}
			owned = append(owned, arg)
		}
		if filter != nil {
			if filter, err = column.TakeOrNull(filter, sel, mem); err != nil {
				return fmt.Errorf("group aggregate: %w", err)
			}
			owned = append(owned, filter)
		}
	}
	adds, subtract := g.adds, g.subtract
	if filter != nil {
		g.filtered = FilterGroups(g.filtered[:0], adds, filter)
		adds = g.filtered
	}
	g.accs[i].Accumulate(arg, adds)
	if r := g.retractors[i]; r != nil && in.Kinds != nil {
		if filter != nil {
			subtract = FilterGroups(nil, subtract, filter)
		}
		r.Retract(arg, subtract)
	}
	return nil
}

func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}

// changes lists, in row order, the changes GroupAggHelper emits for the batch's rows: an
// update whose result equals the one before emits nothing (without state TTL).
func (g *GroupAggregate) changes(mem memory.Allocator, n int) (*Changes, error) {
	updates, befores, afters := g.updates[:0], g.befores[:0], g.afters[:0]
	for r := 0; r < n; r++ {
		if g.change[r] == int32(changelog.UpdateAfter) {
			updates, befores, afters = append(updates, int32(r)), append(befores, g.before[r]), append(afters, g.after[r])
		}
	}
	g.updates, g.befores, g.afters = updates, befores, afters
	differs := grown(g.differs[:0], len(updates))[:len(updates)]
	g.differs = differs
	ttl := g.cfg.StateTTL.Enabled()
	for u := range differs {
		differs[u] = ttl
	}
	visible := g.accs[:len(g.accs)-g.cfg.HiddenCalls]
	for i, a := range visible {
		if len(updates) == 0 || ttl {
			break
		}
		if b := g.batchers[i]; b != nil {
			b.resultsDiffer(befores, afters, differs)
			continue
		}
		before, err := a.Result(mem, befores)
		if err != nil {
			return nil, err
		}
		after, err := a.Result(mem, afters)
		if err != nil {
			before.Release()
			return nil, err
		}
		for u := range updates {
			if !differs[u] && !valuesEqual(before, u, after, u) {
				differs[u] = true
			}
		}
		before.Release()
		after.Release()
	}
	out := n + len(updates)
	ch := &Changes{Kinds: make([]int8, 0, out), Rows: make([]int32, 0, out)}
	slots := g.resultSlots[:0]
	u := 0
	for r := 0; r < n; r++ {
		switch int8(g.change[r]) {
		case int8(noChange):
		case changelog.Insert:
			ch.Kinds, ch.Rows, slots = append(ch.Kinds, changelog.Insert), append(ch.Rows, int32(r)), append(slots, g.after[r])
		case changelog.Delete:
			ch.Kinds, ch.Rows, slots = append(ch.Kinds, changelog.Delete), append(ch.Rows, int32(r)), append(slots, g.before[r])
		default:
			if !differs[u] {
				u++
				continue
			}
			u++
			if g.cfg.GenerateUpdateBefore {
				ch.Kinds, ch.Rows, slots = append(ch.Kinds, changelog.UpdateBefore), append(ch.Rows, int32(r)), append(slots, g.before[r])
			}
			ch.Kinds, ch.Rows, slots = append(ch.Kinds, changelog.UpdateAfter), append(ch.Rows, int32(r)), append(slots, g.after[r])
		}
	}
	g.resultSlots = slots
	for _, a := range visible {
		v, err := a.Result(mem, slots)
		if err != nil {
			ch.Release()
			return nil, err
		}
		ch.Values = append(ch.Values, v)
	}
	return ch, nil
}

// valuesEqual compares row i of a with row j of b as Flink's generated RecordEqualiser
// compares fields: NULLs equal each other, primitives (floating point included) by ==, others
// by value.
func valuesEqual(a arrow.Array, i int, b arrow.Array, j int) bool {
	an, bn := a.IsNull(i), b.IsNull(j)
	if an || bn {
		return an == bn
	}
	switch x := a.(type) {
	case *array.Float64:
		return x.Value(i) == b.(*array.Float64).Value(j)
	case *array.Float32:
		return x.Value(i) == b.(*array.Float32).Value(j)
	case *array.Int64:
		return x.Value(i) == b.(*array.Int64).Value(j)
	case *array.Int32:
		return x.Value(i) == b.(*array.Int32).Value(j)
	case *array.Int16:
		return x.Value(i) == b.(*array.Int16).Value(j)
	case *array.Int8:
		return x.Value(i) == b.(*array.Int8).Value(j)
	case *array.Boolean:
		return x.Value(i) == b.(*array.Boolean).Value(j)
	case *array.Timestamp:
		return x.Value(i) == b.(*array.Timestamp).Value(j)
	case *array.Date32:
		return x.Value(i) == b.(*array.Date32).Value(j)
	case *array.Decimal128:
		return x.Value(i) == b.(*array.Decimal128).Value(j)
	case *array.String:
		return x.Value(i) == b.(*array.String).Value(j)
	case *array.Binary:
		return string(x.Value(i)) == string(b.(*array.Binary).Value(j))
	}
	return array.SliceEqual(a, int64(i), int64(i+1), b, int64(j), int64(j+1)) // other types (slices: allocates)
}

// State format of one key group of a group aggregation (integers little-endian):
//
//	magic "SLGA" | version u16 | calls u16 | keys u32 |
//	per key: key length u32, key row bytes, rows aggregated i64 (version 2),
//	         last write in epoch ms i64 (version 3; kept for the state TTL),
//	each call's accumulator (GroupAccumulator.Encode; a DISTINCT call's is its inner call's,
//	then values u32 and per value its bytes and count i64) |
//	CRC-32C of everything before, u32.
//
// Version 1 (no row counts) is read for aggregations of input without retractions; keys of
// versions 1 and 2 restore as written at the restore.
const (
	groupStateMagic   = "SLGA"
	groupStateVersion = 3
)

// Snapshot serializes key group kg's accumulators (nil when it has no keys), keys in sorted
// order, so that equal state gives equal bytes.
func (g *GroupAggregate) Snapshot(kg int) ([]byte, error) {
	m, err := g.group(kg)
	if err != nil {
		return nil, err
	}
	if g.cfg.StateTTL.Enabled() {
		// Keys whose time to live has passed are dropped (Flink's cleanup of expired state).
		now := g.cfg.StateTTL.Now()
		for id := range int32(m.table.IDs()) {
			if s := m.slots[id]; m.table.Live(id) && g.cfg.StateTTL.Expired(g.written[s], now) {
				g.expire(s)
				m.table.Delete(id)
				g.free = append(g.free, s)
			}
		}
	}
	if m.table.Len() == 0 {
		return nil, nil
	}
	ids := m.table.SortedIDs(nil)
	b := stateblob.Header(groupStateMagic, groupStateVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(g.accs)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ids)))
	for _, id := range ids {
		s := m.slots[id]
		b = stateblob.AppendBytes(b, m.table.Key(id))
		b = binary.LittleEndian.AppendUint64(b, uint64(g.rows[s]))
		b = binary.LittleEndian.AppendUint64(b, uint64(g.written[s]))
		for _, a := range g.accs {
			b = a.Encode(b, s)
		}
	}
	return stateblob.Seal(b), nil
}

// Restore reads a key group's accumulators written by Snapshot.
func (g *GroupAggregate) Restore(kg int, blob []byte) error {
	if err := g.restore(kg, blob); err != nil {
		return fmt.Errorf("group aggregate state of key group %d: %w", kg, err)
	}
	return nil
}

func (g *GroupAggregate) restore(kg int, blob []byte) error {
	m, err := g.group(kg)
	if err != nil {
		return err
	}
	r, version, err := stateblob.Open(blob, groupStateMagic, "group aggregate", 1, groupStateVersion)
	if err != nil {
		return err
	}
	if version == 1 && g.cfg.Retractions {
		return errors.New("state version 1 has no row counts, which an aggregation of input with retractions needs")
	}
	if c := r.U16(); r.OK() && int(c) != len(g.accs) {
		return fmt.Errorf("state of %d aggregate calls restored into %d", c, len(g.accs))
	}
	n := r.U32()
	g.reserve(int(min(n, uint32(len(blob)))))
	now := g.cfg.StateTTL.Now()
	for ; n > 0 && r.OK(); n-- {
		key := r.Bytes()
		if _, ok := m.table.Find(key); ok {
			return fmt.Errorf("key %q twice", key)
		}
		rows, written := int64(1), now
		if version >= 2 {
			rows = int64(r.U64())
		}
		if version >= 3 {
			written = int64(r.U64())
		}
		if !r.OK() {
			break
		}
		s, _ := m.slot(key, g.alloc)
		g.live[s], g.rows[s], g.written[s] = true, rows, written
		g.keys++
		for _, a := range g.accs {
			a.Reset(s)
			r.Read(func(rest []byte) ([]byte, error) { return a.Decode(rest, s) })
		}
		if !r.OK() {
			return fmt.Errorf("key %q: %w", key, r.End())
		}
	}
	return r.End()
}

// FilterGroups copies groups with -1 for the rows whose filter is not true.
func FilterGroups(dst, groups []int32, filter arrow.Array) []int32 {
	dst = append(dst, groups...)
	bits, off := column.ValidBits(filter)
	vals := filter.Data().Buffers()[1].Bytes()
	voff := filter.Data().Offset()
	for r := range dst {
		if !column.Valid(bits, off, r) || !bitutil.BitIsSet(vals, voff+r) {
			dst[r] = -1
		}
	}
	return dst
}
