package bufpool

import "testing"

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

func BenchmarkAllocateFree(b *testing.B) {
	p := New()
	for i := 0; i < b.N; i++ {
		p.Free(p.Allocate(32 << 10))
	}
}
