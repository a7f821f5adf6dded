package keytimer

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

func TestHeapOrder(t *testing.T) {
	h := &Heap{}
	for _, tm := range []Timer{{5, 1, "b"}, {3, 2, "a"}, {5, 0, "z"}, {5, 1, "a"}, {1, 9, "q"}} {
		h.Add(tm)
	}
	var got []Timer
	for h.Len() > 0 {
		got = append(got, h.Next())
	}
	want := []Timer{{1, 9, "q"}, {3, 2, "a"}, {5, 0, "z"}, {5, 1, "a"}, {5, 1, "b"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Timers added and taken in random interleavings: each one taken is the least of those in the
// heap, and every timer added comes out once.
func TestHeapSortsRandomTimers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 50 {
		h := &Heap{}
		var in []Timer // a reference: the timers in the heap
		take := func() {
			got := h.Next()
			least := 0
			for i := range in {
				if in[i].before(&in[least]) {
					least = i
				}
			}
			if got != in[least] {
				t.Fatalf("round %d: took %v, want %v", round, got, in[least])
			}
			in = slices.Delete(in, least, least+1)
		}
		for range 1 + rng.IntN(300) {
			tm := Timer{At: int64(rng.IntN(10)), KeyGroup: rng.IntN(4), Key: strconv.Itoa(rng.IntN(20))}
			h.Add(tm)
			in = append(in, tm)
			if rng.IntN(4) == 0 {
				take()
			}
		}
		for h.Len() > 0 {
			take()
		}
		if len(in) != 0 {
			t.Fatalf("round %d: %d timers never came out", round, len(in))
		}
	}
	// Without interleaving, timers come out exactly sorted.
	h := &Heap{}
	var all, got []Timer
	for i := range 1000 {
		tm := Timer{At: int64(rng.IntN(50)), KeyGroup: rng.IntN(8), Key: strconv.Itoa(i % 37)}
		h.Add(tm)
		all = append(all, tm)
	}
	for h.Len() > 0 {
		got = append(got, h.Next())
	}
	slices.SortStableFunc(all, func(a, b Timer) int {
		switch {
		case a.before(&b):
			return -1
		case b.before(&a):
			return 1
		}
		return 0
	})
	if !reflect.DeepEqual(got, all) {
		t.Fatal("timers out of order")
	}
}

func BenchmarkHeap(b *testing.B) {
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = strconv.Itoa(i * 7919)
	}
	h := &Heap{}
	b.ReportAllocs()
	for b.Loop() {
		for i, k := range keys {
			h.Add(Timer{At: int64(i % 16), KeyGroup: i % 128, Key: k})
		}
		for h.Len() > 0 {
			h.Next()
		}
	}
}
