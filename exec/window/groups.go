package window

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sluice-project/sluice/exec/agg"
)

// accSet is the accumulators of all aggregate calls, with the allocation of group ids: a group
// is one accumulator per call (a key's slice, a window being fired, a partial aggregate).
type accSet struct {
	accs     []agg.Accumulator
	groups   int32 // group ids handed out so far
	capacity int   // groups the accumulators have room for
	free     []int32
}

// newGroup returns a group holding fresh accumulators.
func (s *accSet) newGroup() int32 {
	var g int32
	if n := len(s.free); n > 0 {
		g = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		g = s.groups
		s.groups++
		if int(g) >= s.capacity {
			s.capacity = max(1024, 2*s.capacity)
			for _, a := range s.accs {
				a.Grow(s.capacity)
			}
		}
	}
	for _, a := range s.accs {
		a.Reset(g)
	}
	return g
}

// freeGroup returns a group for reuse.
func (s *accSet) freeGroup(g int32) { s.free = append(s.free, g) }

// merge merges group src into group dst for every call.
func (s *accSet) merge(dst, src int32) {
	for _, a := range s.accs {
		a.Merge(dst, src)
	}
}

// fieldCount is the number of accumulator fields of all calls together.
func (s *accSet) fieldCount() int {
	n := 0
	for _, a := range s.accs {
		n += len(a.FieldTypes())
	}
	return n
}

// mergeFields merges partial accumulators: cols holds every call's fields in order.
func (s *accSet) mergeFields(cols []arrow.Array, groups []int32) {
	for _, a := range s.accs {
		n := len(a.FieldTypes())
		a.MergeFields(cols[:n], groups)
		cols = cols[n:]
	}
}

// distinctViews is the number of distinct views (RAW columns) after the calls' fields.
func (s *accSet) distinctViews(calls []agg.Call) int {
	n := 0
	for _, c := range calls {
		if c.DistinctGroup >= n {
			n = c.DistinctGroup + 1
		}
	}
	return n
}

// viewCalls returns, for each distinct view, the calls that share it.
func viewCalls(calls []agg.Call) [][]int {
	var out [][]int
	for i, c := range calls {
		if c.DistinctGroup < 0 {
			continue
		}
		for len(out) <= c.DistinctGroup {
			out = append(out, nil)
		}
		out[c.DistinctGroup] = append(out[c.DistinctGroup], i)
	}
	return out
}

// viewSets returns, for the calls of one view, the calls whose sets the view carries (one per
// FILTER among the calls that keep a set, in order of first appearance) and, for each call,
// the position of its set (-1 for calls without a set).
func (s *accSet) viewSets(calls []agg.Call, members []int) (carried []int, position map[int]int) {
	position = map[int]int{}
	byFilter := map[int]int{}
	for _, i := range members {
		if _, ok := s.accs[i].(agg.DistinctSets); !ok {
			position[i] = -1
			continue
		}
		pos, ok := byFilter[calls[i].FilterArg]
		if !ok {
			pos = len(carried)
			byFilter[calls[i].FilterArg] = pos
			carried = append(carried, i)
		}
		position[i] = pos
	}
	return carried, position
}

// viewColumns encodes the distinct views of groups: one column per view holding the sets of
// the view's calls, one per FILTER (calls with the same filter hold the same set); a view of
// MIN/MAX calls only, which need no set, gets empty values.
func (s *accSet) viewColumns(mem memory.Allocator, calls []agg.Call, groups []int32) []arrow.Array {
	var cols []arrow.Array
	for _, members := range viewCalls(calls) {
		carried, _ := s.viewSets(calls, members)
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		var buf []byte
		for _, g := range groups {
			buf = buf[:0]
			for _, i := range carried {
				buf = s.accs[i].Encode(buf, g)
			}
			b.Append(buf)
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	return cols
}

// mergeViews merges distinct view columns into every call of each view that keeps a set.
func (s *accSet) mergeViews(calls []agg.Call, cols []arrow.Array, groups []int32) error {
	for v, members := range viewCalls(calls) {
		_, position := s.viewSets(calls, members)
		for _, i := range members {
			if d, ok := s.accs[i].(agg.DistinctSets); ok {
				if err := d.MergeSets(cols[v], groups, position[i]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
