package agg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/changelog"
)

// LocalGroupAggregate is the local phase of Flink's two-phase group aggregation
// (MiniBatchLocalGroupAggFunction): the rows of a finished bundle are aggregated per key into
// fresh accumulators, whose fields are the phase's output; it keeps no state. Over input with
// retractions the calls that consume them (Call.Retract) retract -U/-D rows, the others ignore
// them, as Flink's local handler does.
type LocalGroupAggregate struct {
	accs     []Accumulator
	retract  []Retractor // per call, nil when it ignores retractions
	all      []int32
	filtered []int32
}

// NewLocalGroupAggregate returns the local phase of calls.
func NewLocalGroupAggregate(calls []Call) (*LocalGroupAggregate, error) {
	l := &LocalGroupAggregate{}
	for _, c := range calls {
		if c.Distinct {
			return nil, fmt.Errorf("local group aggregate: %s(DISTINCT) is not supported", c.Func)
		}
		var a Accumulator
		var r Retractor
		if c.Retract {
			rr, err := NewRetractor(c)
			if err != nil {
				return nil, fmt.Errorf("local group aggregate: %w", err)
			}
			acc, ok := rr.(Accumulator)
			if !ok {
				return nil, fmt.Errorf("local group aggregate: %s(%s) over input with retractions has no partial accumulator natively yet", c.Func, c.Arg)
			}
			a, r = acc, rr
		} else {
			var err error
			if a, err = NewAccumulator(c); err != nil {
				return nil, fmt.Errorf("local group aggregate: %w", err)
			}
		}
		l.accs = append(l.accs, a)
		l.retract = append(l.retract, r)
	}
	return l, nil
}

// Aggregate aggregates a bundle's rows into keys accumulators, row r into groups[r] (rows in
// arrival order), each call reading args[i] where filters[i] (nil: every row) is true, rows
// whose kinds (nil: all inserts) retract taken out in their place in arrival order (a float
// sum's rounding depends on it), and returns every call's accumulator fields of the keys 0 to
// keys-1, in order.
func (l *LocalGroupAggregate) Aggregate(mem memory.Allocator, keys int, groups []int32, kinds []int8, args, filters []arrow.Array) ([]arrow.Array, error) {
	l.all = l.all[:0]
	for k := range keys {
		l.all = append(l.all, int32(k))
	}
	var fields []arrow.Array
	for i, a := range l.accs {
		a.Grow(keys)
		for _, k := range l.all {
			a.Reset(k)
		}
		// Runs of accumulating and of retracting rows, in order (one run without retractions).
		for from := 0; from < len(groups); {
			to, retract := len(groups), false
			if kinds != nil {
				to, retract = from+1, changelog.Retracts(kinds[from])
				for to < len(groups) && changelog.Retracts(kinds[to]) == retract {
					to++
				}
			}
			if retract && l.retract[i] == nil {
				from = to // a call that ignores retractions
				continue
			}
			l.run(i, args[i], filters[i], groups, from, to, retract)
			from = to
		}
		f, err := a.Fields(mem, l.all)
		if err != nil {
			releaseArrays(fields)
			return nil, fmt.Errorf("local group aggregate: %w", err)
		}
		fields = append(fields, f...)
	}
	return fields, nil
}

// run accumulates (or retracts) rows [from, to) into call i's accumulators.
func (l *LocalGroupAggregate) run(i int, arg, filter arrow.Array, groups []int32, from, to int, retract bool) {
	gs := groups[from:to]
	whole := from == 0 && to == len(groups)
	if !whole {
		if arg != nil {
			arg = array.NewSlice(arg, int64(from), int64(to))
			defer arg.Release()
		}
		if filter != nil {
			filter = array.NewSlice(filter, int64(from), int64(to))
			defer filter.Release()
		}
	}
	if filter != nil {
		l.filtered = FilterGroups(l.filtered[:0], gs, filter)
		gs = l.filtered
	}
	if retract {
		l.retract[i].Retract(arg, gs)
		return
	}
	l.accs[i].Accumulate(arg, gs)
}

// recordCounter finds the call whose count field is the flattened accumulator field
// cfg.RecordCount.
func (g *GroupAggregate) recordCounter() (FieldCounter, bool) {
	at := g.cfg.RecordCount
	for _, a := range g.accs {
		acc, ok := a.(Accumulator)
		if !ok {
			return nil, false
		}
		n := len(acc.FieldTypes())
		if at < n {
			c, ok := a.(FieldCounter)
			return c, ok && c.CountField() == at
		}
		at -= n
	}
	return nil, false
}

// RecordCountSupported tells whether the global phase of calls over input with retractions can
// read Flink's record count at flattened accumulator field field, and if not, why.
func RecordCountSupported(calls []Call, field int) error {
	g, err := NewGroupAggregate(GroupConfig{Calls: calls, Retractions: true, RecordCount: field})
	if err != nil {
		return err
	}
	if _, ok := g.recordCounter(); !ok {
		return fmt.Errorf("Flink's record count is accumulator field %d, which is not a count", field)
	}
	return nil
}

// PartialBundle is a finished bundle of the global phase: partial accumulators of the local
// phase, each row of one of the bundle's keys.
type PartialBundle struct {
	// RowKey holds each row's key, a number below len(KeyGroups); the keys are numbered in the
	// bundle's order (Flink's HashMap iteration), rows come in arrival order.
	RowKey []int32
	// KeyGroups and the key rows (BinaryRowData bytes at KeyOffsets) of the keys.
	KeyGroups  []int32
	Keys       []byte
	KeyOffsets []int32
	// Fields holds every call's accumulator field columns.
	Fields [][]arrow.Array
}

// MergeBundle is MiniBatchGlobalGroupAggFunction for one finished bundle: each key's partial
// accumulators are merged, in arrival order, into a fresh buffer, the buffer into the key's
// state, and the key's change comes out (+I for a key without state, -U/+U when its result
// differs, or always with a state TTL), keys in the bundle's order; the changes' Rows are key
// numbers. Over input with retractions a key whose record count (GroupConfig.RecordCount) is 0
// after the merge is deleted instead. The aggregation must be without DISTINCT calls.
func (g *GroupAggregate) MergeBundle(mem memory.Allocator, in *PartialBundle) (*Changes, error) {
	keys := len(in.KeyGroups)
	var counter FieldCounter // the record count over retractions (MiniBatchGlobalGroupAggFunction's recordCounter)
	if g.cfg.Retractions {
		c, ok := g.recordCounter()
		if !ok {
			return nil, fmt.Errorf("global group aggregate: record count at accumulator field %d is not a count", g.cfg.RecordCount)
		}
		counter = c
	}
	merging := make([]Accumulator, len(g.accs))
	for i, a := range g.accs {
		m, ok := a.(Accumulator)
		if !ok {
			return nil, fmt.Errorf("global group aggregate: call %d cannot merge partial accumulators", i)
		}
		merging[i] = m
	}
	if len(in.Fields) != len(g.accs) {
		return nil, fmt.Errorf("global group aggregate: fields of %d calls for %d", len(in.Fields), len(g.accs))
	}
	var now int64
	if g.cfg.StateTTL.Enabled() {
		now = g.cfg.StateTTL.Now()
	}
	g.snapshots, g.snapDst, g.snapSrc = g.snapshots[:0], g.snapDst[:0], g.snapSrc[:0]
	g.reserve(3 * keys) // per key: a new state slot, a buffer and a snapshot
	g.slotOf = grown(g.slotOf, keys)[:keys]
	g.before, g.after, g.change = grown(g.before, keys)[:keys], grown(g.after, keys)[:keys], grown(g.change, keys)[:keys]
	g.buffers = grown(g.buffers, keys)[:keys]
	buffers := g.buffers
	for k := range keys {
		m, err := g.group(int(in.KeyGroups[k]))
		if err != nil {
			return nil, err
		}
		s, ok := m.slot(in.Keys[in.KeyOffsets[k]:in.KeyOffsets[k+1]], g.newSlot)
		if ok && g.live[s] && g.cfg.StateTTL.Expired(g.written[s], now) {
			g.expire(s)
		}
		g.slotOf[k] = s
		b := g.alloc()
		for _, a := range merging {
			a.Reset(b)
		}
		buffers[k] = b
	}
	groups := make([]int32, len(in.RowKey))
	for r, k := range in.RowKey {
		groups[r] = buffers[k]
	}
	for i, a := range merging {
		a.MergeFields(in.Fields[i], groups)
	}
	for k := range keys {
		s := g.slotOf[k]
		if g.live[s] {
			g.change[k], g.before[k] = int32(changelog.UpdateAfter), g.snapshot(s)
		} else {
			for _, a := range merging {
				a.Reset(s)
			}
			g.rows[s], g.live[s] = 0, true
			g.keys++
			g.change[k], g.before[k] = int32(changelog.Insert), -1
		}
	}
	g.copySnapshots()
	for k := range keys {
		s := g.slotOf[k]
		for _, a := range merging {
			a.Merge(s, buffers[k])
		}
		if counter != nil && counter.FieldCount(s) == 0 {
			// The key's records were all retracted: its last result is deleted (nothing for a
			// key that had no state), and its state cleared.
			if g.change[k] == int32(changelog.Insert) {
				g.change[k] = noChange
			} else {
				g.change[k] = int32(changelog.Delete)
			}
			g.live[s] = false
			g.keys--
			continue
		}
		// A bundle's keys are distinct: the key's results stay in its slot until the changes
		// are out.
		g.after[k] = s
		g.written[s] = now
	}
	ch, err := g.changes(mem, keys)
	for _, b := range buffers {
		for _, a := range merging {
			a.Reset(b) // lets go of what the buffers hold
		}
	}
	g.free = append(append(g.free, g.snapshots...), buffers...)
	return ch, err
}
