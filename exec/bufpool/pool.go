// Package bufpool is an Arrow memory allocator that recycles the buffers of one pipeline: a
// batch's columns are released before the next batch is built, so the next batch reuses their
// memory instead of asking the Go heap (and its garbage collector) again.
//
// Each pipeline (one task thread) owns a Pool, but a Pool is safe for concurrent use: a batch
// may be released on another goroutine than the one that built it (a sink ingesting its
// buffered batches in the background, a C driver releasing exported arrays), and that release
// frees the batch's buffers into its pool.
package bufpool

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxClass bounds the size classes kept (2^26 = 64 MiB); larger buffers go back to the heap.
const maxClass = 26

// Pool recycles buffers by power-of-two size class. Allocated memory is zeroed, as Go's
// allocator returns it.
type Pool struct {
	mu   sync.Mutex
	free [maxClass + 1][][]byte
}

var _ memory.Allocator = (*Pool)(nil)

// New returns an empty pool.
func New() *Pool { return &Pool{} }

func class(size int) int {
	if size <= 64 {
		return 6
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns a zeroed buffer of size bytes.
func (p *Pool) Allocate(size int) []byte {
	c := class(size)
	if c <= maxClass {
		p.mu.Lock()
		if l := p.free[c]; len(l) > 0 {
			b := l[len(l)-1][:size]
			l[len(l)-1] = nil
			p.free[c] = l[:len(l)-1]
			p.mu.Unlock()
			clear(b)
			return b
		}
		p.mu.Unlock()
		return make([]byte, size, 1<<c)
	}
	return make([]byte, size)
}

// Reallocate grows or shrinks b to size bytes, keeping its contents; new bytes are zero.
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free returns b to the pool when it is one of the pool's size classes.
func (p *Pool) Free(b []byte) {
	c := class(cap(b))
	if c <= maxClass && cap(b) == 1<<c {
		p.mu.Lock()
		p.free[c] = append(p.free[c], b[:0])
		p.mu.Unlock()
	}
}
