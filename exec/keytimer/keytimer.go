// Package keytimer holds the event-time timers of keyed native operators: the times keys wait
// for (a window's end, a row's expiry or emission), as a heap in time order, ties by key group
// and then key, so that timers due at one watermark fire in a deterministic order.
package keytimer

// Timer is one key's timer.
type Timer struct {
	// At is the event time (epoch milliseconds) the timer fires at.
	At       int64
	KeyGroup int
	// Key is the key row's bytes.
	Key string
}

// before orders timers by time, then key group, then key.
func (t *Timer) before(u *Timer) bool {
	if t.At != u.At {
		return t.At < u.At
	}
	if t.KeyGroup != u.KeyGroup {
		return t.KeyGroup < u.KeyGroup
	}
	return t.Key < u.Key
}

// Heap is a min-heap of timers, its first element the next to fire. Its methods move timers
// by value: no interface boxing, no allocation but the slice's growth.
type Heap []Timer

// Len is the number of timers.
func (h Heap) Len() int { return len(h) }

// Add adds a timer.
func (h *Heap) Add(t Timer) {
	*h = append(*h, t)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].before(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

// Next removes and returns the first timer; the heap must not be empty.
func (h *Heap) Next() Timer {
	s := *h
	first := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = Timer{} // lets go of the key
	s = s[:last]
	*h = s
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].before(&s[l]) {
			m = r
		}
		if !s[m].before(&s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	return first
}
