package window

import "github.com/apache/arrow-go/v18/arrow"

// accSet is the accumulators of all aggregate calls, with the allocation of group ids: a group
// is one accumulator per call (a key's slice, a window being fired, a partial aggregate).
type accSet struct {
	accs     []accumulator
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
				a.grow(s.capacity)
			}
		}
	}
	for _, a := range s.accs {
		a.reset(g)
	}
	return g
}

// freeGroup returns a group for reuse.
func (s *accSet) freeGroup(g int32) { s.free = append(s.free, g) }

// merge merges group src into group dst for every call.
func (s *accSet) merge(dst, src int32) {
	for _, a := range s.accs {
		a.merge(dst, src)
	}
}

// fieldCount is the number of accumulator fields of all calls together.
func (s *accSet) fieldCount() int {
	n := 0
	for _, a := range s.accs {
		n += len(a.fieldTypes())
	}
	return n
}

// mergeFields merges partial accumulators: cols holds every call's fields in order.
func (s *accSet) mergeFields(cols []arrow.Array, groups []int32) {
	for _, a := range s.accs {
		n := len(a.fieldTypes())
		a.mergeFields(cols[:n], groups)
		cols = cols[n:]
	}
}
