package bufpool

import (
	"sync"
	"testing"
)

func TestReuseAndZeroing(t *testing.T) {
	p := New()
	a := p.Allocate(100)
	if len(a) != 100 || cap(a) != 128 {
		t.Fatalf("len %d cap %d", len(a), cap(a))
	}
	for i := range a {
		a[i] = 0xff
	}
	p.Free(a)
	b := p.Allocate(120)
	if &b[:1][0] != &a[:1][0] {
		t.Fatal("a freed buffer of the same class is reused")
	}
	for i, v := range b {
		if v != 0 {
			t.Fatalf("byte %d not zeroed", i)
		}
	}
	c := p.Reallocate(300, b)
	if len(c) != 300 {
		t.Fatalf("reallocate to %d", len(c))
	}
	if d := p.Allocate(1 << 27); len(d) != 1<<27 {
		t.Fatal("large buffers are plain allocations")
	}
}

// Buffers freed on another goroutine while the owner allocates (a sink releasing batches it
// ingested in the background) are never handed out twice: each live buffer keeps what its
// holder wrote. Under -race this also fails on any unguarded access to the free lists.
func TestConcurrentFree(t *testing.T) {
	p := New()
	const rounds = 2000
	freed := make(chan []byte, 64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for b := range freed {
			p.Free(b)
		}
	}()
	live := make([][]byte, 0, 8)
	for i := 0; i < rounds; i++ {
		b := p.Allocate(256)
		for j := range b {
			b[j] = byte(i)
		}
		live = append(live, b)
		if len(live) == cap(live) {
			for k, l := range live {
				want := byte(i - len(live) + 1 + k)
				for j := range l {
					if l[j] != want {
						t.Fatalf("round %d: a live buffer was handed out again (byte %d is %d, want %d)", i, j, l[j], want)
					}
				}
				freed <- l
			}
			live = live[:0]
		}
	}
	close(freed)
	wg.Wait()
}

func BenchmarkAllocateFree(b *testing.B) {
	p := New()
	for i := 0; i < b.N; i++ {
		p.Free(p.Allocate(32 << 10))
	}
}
