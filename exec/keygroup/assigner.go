package keygroup

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
)

// Assigner computes the key group of every row of a batch from its key columns. The key row is
// what Flink's BinaryRowDataKeySelector projects: the key fields in order, RowKind byte 0,
// written exactly as BinaryRowData; its hashCode decides the key group.
type Assigner struct {
	enc            *binaryrow.Encoder
	maxParallelism int
	offsets        []int32
	buf            []byte
}

// NewAssigner returns an assigner for keys of the given field types.
func NewAssigner(keyTypes []catalog.Type, maxParallelism int) (*Assigner, error) {
	if maxParallelism <= 0 || maxParallelism > UpperBoundMaxParallelism {
		return nil, fmt.Errorf("key groups: maximum parallelism %d not within bounds (0, %d]", maxParallelism, UpperBoundMaxParallelism)
	}
	enc, err := binaryrow.NewEncoderWithNulls(keyTypes, binaryrow.WriterNulls)
	if err != nil {
		return nil, fmt.Errorf("key groups: %w", err)
	}
	return &Assigner{enc: enc, maxParallelism: maxParallelism}, nil
}

// MaxParallelism is the number of key groups.
func (a *Assigner) MaxParallelism() int { return a.maxParallelism }

// Assign writes the key group of each of the n rows into groups (len(groups) >= n) and the key
// rows' hash codes into hashes when hashes is not nil.
func (a *Assigner) Assign(keys []arrow.Array, n int, groups []int32, hashes []int32) error {
	if len(groups) < n {
		return fmt.Errorf("key groups: %d slots for %d rows", len(groups), n)
	}
	if cap(a.offsets) < n+1 {
		a.offsets = make([]int32, n+1, 2*n+1)
	}
	a.offsets = a.offsets[:n+1]
	offsets := a.offsets
	if err := a.enc.Layout(keys, n, offsets); err != nil {
		return fmt.Errorf("key groups: %w", err)
	}
	size := int(offsets[n])
	if cap(a.buf) < size {
		a.buf = make([]byte, size, 2*size)
	}
	a.buf = a.buf[:size]
	buf := a.buf
	if err := a.enc.Encode(keys, nil, n, offsets, buf); err != nil {
		return fmt.Errorf("key groups: %w", err)
	}
	for r := 0; r < n; r++ {
		h := HashRow(buf[offsets[r]:offsets[r+1]])
		if hashes != nil {
			hashes[r] = h
		}
		groups[r] = int32(OfHash(h, a.maxParallelism))
	}
	return nil
}

// KeyRows returns the encoded key rows of the last Assign call: row r is
// data[offsets[r]:offsets[r+1]]. They stay valid until the next call.
func (a *Assigner) KeyRows() (data []byte, offsets []int32) {
	return a.buf, a.offsets
}
