// Package exchange splits Arrow batches for Flink's hash exchange: every row goes to the
// subtask that owns its key group, computed exactly as Flink's KeyGroupStreamPartitioner does
// (see package keygroup), and a batch becomes one sub-batch per target channel. The sub-batches
// keep their rows' order, so each consumer sees its rows in the order the producer emitted them.
package exchange

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// Part is the sub-batch of one target channel.
type Part struct {
	Channel int
	Batch   arrow.RecordBatch
}

// Splitter routes the rows of batches of one schema by their key columns.
type Splitter struct {
	keyCols     []int
	assigner    *keygroup.Assigner
	parallelism int
	mem         memory.Allocator

	groups []int32
	counts []int32
	next   []int32
	sel    []int32
	keys   []arrow.Array
}

// NewSplitter returns a splitter for rows keyed by the columns keyCols (of Flink types
// keyTypes), sent to parallelism channels of an operator with maxParallelism key groups.
func NewSplitter(keyCols []int, keyTypes []catalog.Type, parallelism, maxParallelism int, mem memory.Allocator) (*Splitter, error) {
	if len(keyCols) != len(keyTypes) {
		return nil, fmt.Errorf("exchange: %d key columns with %d types", len(keyCols), len(keyTypes))
	}
	if err := keygroup.CheckParallelism(maxParallelism, parallelism); err != nil {
		return nil, fmt.Errorf("exchange: %w", err)
	}
	as, err := keygroup.NewAssigner(keyTypes, maxParallelism)
	if err != nil {
		return nil, fmt.Errorf("exchange: %w", err)
	}
	return &Splitter{
		keyCols:     append([]int(nil), keyCols...),
		assigner:    as,
		parallelism: parallelism,
		mem:         mem,
		counts:      make([]int32, parallelism+1),
		keys:        make([]arrow.Array, len(keyCols)),
	}, nil
}

// Parallelism is the number of target channels.
func (s *Splitter) Parallelism() int { return s.parallelism }

// Split returns the rows of b for each channel that receives any, in channel order. The caller
// releases the parts' batches. A batch whose rows all go to one channel is passed on as it is.
func (s *Splitter) Split(b arrow.RecordBatch) ([]Part, error) {
	n := int(b.NumRows())
	if n == 0 {
		return nil, nil
	}
	for i, c := range s.keyCols {
		if c < 0 || c >= int(b.NumCols()) {
			return nil, fmt.Errorf("exchange: key column %d of a batch with %d columns", c, b.NumCols())
		}
		s.keys[i] = b.Column(c)
	}
	if cap(s.groups) < n {
		s.groups = make([]int32, n, 2*n)
	}
	groups := s.groups[:n]
	if err := s.assigner.Assign(s.keys, n, groups, nil); err != nil {
		return nil, fmt.Errorf("exchange: %w", err)
	}
	// Key group -> channel in place, then a stable counting sort of row indices by channel.
	maxP := int32(s.assigner.MaxParallelism())
	p := int32(s.parallelism)
	counts := s.counts
	clear(counts)
	for r, g := range groups {
		ch := g * p / maxP
		groups[r] = ch
		counts[ch+1]++
	}
	used := 0
	for ch := 1; ch <= s.parallelism; ch++ {
		if counts[ch] > 0 {
			used++
		}
		counts[ch] += counts[ch-1]
	}
	if used == 1 {
		b.Retain()
		return []Part{{Channel: int(groups[0]), Batch: b}}, nil
	}
	if cap(s.sel) < n {
		s.sel = make([]int32, n, 2*n)
	}
	sel := s.sel[:n]
	s.next = append(s.next[:0], counts[:s.parallelism]...)
	next := s.next
	for r, ch := range groups {
		sel[next[ch]] = int32(r)
		next[ch]++
	}
	parts := make([]Part, 0, used)
	for ch := 0; ch < s.parallelism; ch++ {
		from, to := counts[ch], counts[ch+1]
		if from == to {
			continue
		}
		sub, err := column.TakeBatch(b, sel[from:to], s.mem)
		if err != nil {
			for _, p := range parts {
				p.Batch.Release()
			}
			return nil, fmt.Errorf("exchange: channel %d: %w", ch, err)
		}
		parts = append(parts, Part{Channel: ch, Batch: sub})
	}
	return parts, nil
}
