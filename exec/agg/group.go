package agg

import (
	"fmt"

	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// RowKinds as Flink's RowKind#toByteValue.
const (
	Insert       int8 = 0
	UpdateBefore int8 = 1
	UpdateAfter  int8 = 2
	Delete       int8 = 3
)

// GroupConfig configures a group aggregation.
type GroupConfig struct {
	Calls []Call
	// GenerateUpdateBefore says whether an update emits the old row (-U) before the new one
	// (+U); Flink's planner decides it from what the downstream operators need.
	GenerateUpdateBefore bool
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// GroupInput is a batch of input rows of a group aggregation, all of them inserts.
type GroupInput struct {
	N int
	// KeyGroups and the key rows (BinaryRowData bytes at KeyOffsets) of the rows.
	KeyGroups  []int32
	Keys       []byte
	KeyOffsets []int32
	// Args holds each call's argument column (nil for COUNT(*)), Filters each call's FILTER
	// column (nil for none).
	Args, Filters []arrow.Array
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
// GroupAggHelper) on one subtask, for inputs of inserts only: one accumulator row per key, and
// for every input row the change it makes to its key's result, +I for a key's first row,
// -U/+U for a later one whose result differs, nothing when the result stays equal (no state
// TTL).
//
// A batch is aggregated in rounds: round j takes the j-th row of every key in the batch, each
// row accumulating into a copy of its key's accumulators after the previous round, so that
// every row's result before and after it is at hand for the changes, and each round runs the
// accumulators over a whole column.
type GroupAggregate struct {
	cfg    GroupConfig
	accs   []Accumulator
	groups []map[string]int32 // per key group of the range: key row -> key id
	// slotOf holds each key id's accumulator slot.
	slotOf []int32
	// slots is the number of accumulator slots in use or free; free lists the free ones.
	slots int32
	free  []int32
	keys  int64
	// Per batch.
	occ, round             []int32
	roundStart, roundFill  []int32
	prev, next, roundSlots []int32
	first                  []bool
	lastOf                 map[int32]int32 // key id -> the batch's last row of the key
	filtered               []int32
}

// NewGroupAggregate returns an empty group aggregation.
func NewGroupAggregate(cfg GroupConfig) (*GroupAggregate, error) {
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("group aggregate: key groups %v", cfg.KeyGroups)
	}
	g := &GroupAggregate{cfg: cfg, groups: make([]map[string]int32, cfg.KeyGroups.Len()), lastOf: map[int32]int32{}}
	for _, c := range cfg.Calls {
		if c.Distinct {
			return nil, fmt.Errorf("group aggregate: %s(DISTINCT) is not supported natively yet", c.Func)
		}
		a, err := NewAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("group aggregate: %w", err)
		}
		g.accs = append(g.accs, a)
	}
	return g, nil
}

// StateKeys is the number of keys in state.
func (g *GroupAggregate) StateKeys() int64 { return g.keys }

// StateBytes is an estimate of the memory the accumulators take.
func (g *GroupAggregate) StateBytes() int64 {
	per := 0
	for _, a := range g.accs {
		per += a.GroupBytes()
	}
	return g.keys * int64(per)
}

// alloc returns a free accumulator slot; reserve must have made room for it.
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

// reserve makes room in the accumulators for n more slots.
func (g *GroupAggregate) reserve(n int) {
	for _, a := range g.accs {
		a.Grow(int(g.slots) + n)
	}
}

func (g *GroupAggregate) group(kg int) (map[string]int32, error) {
	if !g.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("group aggregate: key group %d outside %v", kg, g.cfg.KeyGroups)
	}
	i := kg - g.cfg.KeyGroups.Start
	if g.groups[i] == nil {
		g.groups[i] = map[string]int32{}
	}
	return g.groups[i], nil
}

// Process aggregates a batch of inserts, row by row in effect, and returns the changes Flink
// emits for them. The caller releases the changes.
func (g *GroupAggregate) Process(mem memory.Allocator, in *GroupInput) (*Changes, error) {
	n := in.N
	g.occ, g.prev, g.next = grown(g.occ, n)[:n], grown(g.prev, n)[:n], grown(g.next, n)[:n]
	g.first = grown(g.first, n)[:n]
	clear(g.lastOf)
	g.reserve(2 * n) // a snapshot per row, and at most a new key per row
	rounds := 0
	// Per row: its key's slot, the slot of its key's result before it (the key's slot, or the
	// snapshot of the batch's previous row of its key) and its own snapshot.
	for r := 0; r < n; r++ {
		m, err := g.group(int(in.KeyGroups[r]))
		if err != nil {
			return nil, err
		}
		key := in.Keys[in.KeyOffsets[r]:in.KeyOffsets[r+1]]
		id, ok := m[string(key)]
		g.first[r] = !ok
		if !ok {
			id = g.newKey()
			m[string(key)] = id
		}
		g.next[r] = g.alloc()
		g.prev[r], g.occ[r] = g.slotOf[id], 0
		if last, seen := g.lastOf[id]; seen {
			g.prev[r], g.occ[r] = g.next[last], g.occ[last]+1
			g.first[r] = false
		}
		g.lastOf[id] = int32(r)
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
		sel := g.round[g.roundStart[j]:g.roundStart[j+1]]
		for _, r := range sel {
			for _, a := range g.accs {
				a.Copy(g.next[r], g.prev[r])
			}
		}
		if err := g.accumulate(mem, in, sel, rounds == 1); err != nil {
			return nil, err
		}
	}
	ch, err := g.changes(mem, n)
	if err != nil {
		return nil, err
	}
	// Each key keeps its last row's snapshot; the slots before each row (the keys' slots
	// before the batch, the other rows' snapshots) are free again.
	g.free = append(g.free, g.prev...)
	for id, last := range g.lastOf {
		g.slotOf[id] = g.next[last]
	}
	return ch, nil
}

// newKey gives a new key an id and a slot of initial accumulators.
func (g *GroupAggregate) newKey() int32 {
	slot := g.alloc()
	for _, a := range g.accs {
		a.Reset(slot)
	}
	g.slotOf = append(g.slotOf, slot)
	g.keys++
	return int32(len(g.slotOf) - 1)
}

// accumulate runs the rows sel of a round into their snapshots; whole says the round holds
// every row of the batch in order (the columns are then used as they are).
func (g *GroupAggregate) accumulate(mem memory.Allocator, in *GroupInput, sel []int32, whole bool) error {
	groups := g.roundSlots[:0]
	for _, r := range sel {
		groups = append(groups, g.next[r])
	}
	g.roundSlots = groups
	for i, a := range g.accs {
		arg, filter := in.Args[i], arrow.Array(nil)
		if i < len(in.Filters) {
			filter = in.Filters[i]
		}
		var owned []arrow.Array
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
					releaseArrays(owned)
					return fmt.Errorf("group aggregate: %w", err)
				}
				owned = append(owned, filter)
			}
		}
		gs := groups
		if filter != nil {
			g.filtered = FilterGroups(g.filtered[:0], groups, filter)
			gs = g.filtered
		}
		a.Accumulate(arg, gs)
		releaseArrays(owned)
	}
	return nil
}

func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}

// changes compares each row's result before and after it and lists the changes GroupAggHelper
// emits for them.
func (g *GroupAggregate) changes(mem memory.Allocator, n int) (*Changes, error) {
	prevSlots := make([]int32, n)
	for r := 0; r < n; r++ {
		prevSlots[r] = g.prev[r]
		if g.first[r] {
			prevSlots[r] = g.next[r] // no result before a key's first row
		}
	}
	equal := make([]bool, n)
	for r := range equal {
		equal[r] = !g.first[r]
	}
	for _, a := range g.accs {
		before, err := a.Result(mem, prevSlots)
		if err != nil {
			return nil, err
		}
		after, err := a.Result(mem, g.next)
		if err != nil {
			before.Release()
			return nil, err
		}
		for r := 0; r < n; r++ {
			if equal[r] && !valuesEqual(before, after, r) {
				equal[r] = false
			}
		}
		before.Release()
		after.Release()
	}
	ch := &Changes{}
	var slots []int32
	for r := 0; r < n; r++ {
		switch {
		case g.first[r]:
			ch.Kinds, ch.Rows, slots = append(ch.Kinds, Insert), append(ch.Rows, int32(r)), append(slots, g.next[r])
		case equal[r]:
			// The same result: GroupAggHelper emits nothing (without state TTL).
		default:
			if g.cfg.GenerateUpdateBefore {
				ch.Kinds, ch.Rows, slots = append(ch.Kinds, UpdateBefore), append(ch.Rows, int32(r)), append(slots, prevSlots[r])
			}
			ch.Kinds, ch.Rows, slots = append(ch.Kinds, UpdateAfter), append(ch.Rows, int32(r)), append(slots, g.next[r])
		}
	}
	for _, a := range g.accs {
		v, err := a.Result(mem, slots)
		if err != nil {
			ch.Release()
			return nil, err
		}
		ch.Values = append(ch.Values, v)
	}
	return ch, nil
}

// valuesEqual compares row r of two result arrays as Flink's generated RecordEqualiser compares
// fields: NULLs equal each other, primitives (floating point included) by ==, others by value.
func valuesEqual(a, b arrow.Array, r int) bool {
	an, bn := a.IsNull(r), b.IsNull(r)
	if an || bn {
		return an == bn
	}
	switch x := a.(type) {
	case *array.Float64:
		return x.Value(r) == b.(*array.Float64).Value(r)
	case *array.Float32:
		return x.Value(r) == b.(*array.Float32).Value(r)
	case *array.Int64:
		return x.Value(r) == b.(*array.Int64).Value(r)
	case *array.Int32:
		return x.Value(r) == b.(*array.Int32).Value(r)
	case *array.Int16:
		return x.Value(r) == b.(*array.Int16).Value(r)
	case *array.Int8:
		return x.Value(r) == b.(*array.Int8).Value(r)
	case *array.Boolean:
		return x.Value(r) == b.(*array.Boolean).Value(r)
	case *array.Timestamp:
		return x.Value(r) == b.(*array.Timestamp).Value(r)
	case *array.Date32:
		return x.Value(r) == b.(*array.Date32).Value(r)
	case *array.Decimal128:
		return x.Value(r) == b.(*array.Decimal128).Value(r)
	case *array.String:
		return x.Value(r) == b.(*array.String).Value(r)
	case *array.Binary:
		return string(x.Value(r)) == string(b.(*array.Binary).Value(r))
	}
	return array.SliceEqual(a, int64(r), int64(r+1), b, int64(r), int64(r+1)) // other types (slices: allocates)
}

// State format of one key group of a group aggregation (integers little-endian):
//
//	magic "SLGA" | version u16 | calls u16 | keys u32 |
//	per key: key length u32, key row bytes, each call's accumulator (Accumulator.Encode) |
//	CRC-32C of everything before, u32.
const (
	groupStateMagic   = "SLGA"
	groupStateVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot serializes key group kg's accumulators (nil when it has no keys), keys in sorted
// order, so that equal state gives equal bytes.
func (g *GroupAggregate) Snapshot(kg int) ([]byte, error) {
	m, err := g.group(kg)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte(groupStateMagic)
	b = binary.LittleEndian.AppendUint16(b, groupStateVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(g.accs)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(k)))
		b = append(b, k...)
		for _, a := range g.accs {
			b = a.Encode(b, g.slotOf[m[k]])
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
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
	if len(blob) < len(groupStateMagic)+2+2+4+4 {
		return errors.New("truncated")
	}
	body, sum := blob[:len(blob)-4], binary.LittleEndian.Uint32(blob[len(blob)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return errors.New("checksum mismatch")
	}
	if string(body[:4]) != groupStateMagic {
		return fmt.Errorf("not group aggregate state (magic %q)", body[:4])
	}
	if v := binary.LittleEndian.Uint16(body[4:]); v != groupStateVersion {
		return fmt.Errorf("state version %d, this build reads %d", v, groupStateVersion)
	}
	if c := binary.LittleEndian.Uint16(body[6:]); int(c) != len(g.accs) {
		return fmt.Errorf("state of %d aggregate calls restored into %d", c, len(g.accs))
	}
	n := binary.LittleEndian.Uint32(body[8:])
	rest := body[12:]
	g.reserve(int(n))
	for ; n > 0; n-- {
		if len(rest) < 4 {
			return errors.New("truncated")
		}
		l := binary.LittleEndian.Uint32(rest)
		if uint32(len(rest)-4) < l {
			return errors.New("truncated")
		}
		key := string(rest[4 : 4+l])
		rest = rest[4+l:]
		if _, ok := m[key]; ok {
			return fmt.Errorf("key %q twice", key)
		}
		id := g.newKey()
		m[key] = id
		for _, a := range g.accs {
			if rest, err = a.Decode(rest, g.slotOf[id]); err != nil {
				return fmt.Errorf("key %q: %w", key, err)
			}
		}
	}
	if len(rest) != 0 {
		return fmt.Errorf("%d bytes after the state", len(rest))
	}
	return nil
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
