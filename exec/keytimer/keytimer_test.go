package keytimer

import (
	"container/heap"
	"reflect"
	"testing"
)

// Timers pop in time order, ties by key group and then key.
func TestHeapOrder(t *testing.T) {
	h := &Heap{}
	for _, tm := range []Timer{{5, 1, "b"}, {3, 2, "a"}, {5, 0, "z"}, {5, 1, "a"}, {1, 9, "q"}} {
		heap.Push(h, tm)
	}
	var got []Timer
	for h.Len() > 0 {
		got = append(got, heap.Pop(h).(Timer))
	}
	want := []Timer{{1, 9, "q"}, {3, 2, "a"}, {5, 0, "z"}, {5, 1, "a"}, {5, 1, "b"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
