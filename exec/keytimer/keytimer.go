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

// Heap is a min-heap of timers for container/heap.
type Heap []Timer

// Len implements heap.Interface.
func (h Heap) Len() int { return len(h) }

// Less orders timers by time, then key group, then key.
func (h Heap) Less(i, j int) bool {
	if h[i].At != h[j].At {
		return h[i].At < h[j].At
	}
	if h[i].KeyGroup != h[j].KeyGroup {
		return h[i].KeyGroup < h[j].KeyGroup
	}
	return h[i].Key < h[j].Key
}

// Swap implements heap.Interface.
func (h Heap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push implements heap.Interface.
func (h *Heap) Push(x any) { *h = append(*h, x.(Timer)) }

// Pop implements heap.Interface.
func (h *Heap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
