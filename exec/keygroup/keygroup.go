// Package keygroup routes rows to Flink key groups and subtasks exactly as Flink does: the key
// row's BinaryRowData bytes hashed by Murmur3 (seed 42, by 4-byte words), that hash mixed once
// more by MathUtils#murmurHash, modulo the maximum parallelism; key groups map to subtasks by
// KeyGroupRangeAssignment's ranges. Native state is kept per key group, so that Flink can
// snapshot, redistribute and restore it when a job is rescaled.
package keygroup

import (
	"fmt"
	"math/bits"

	"github.com/sluice-project/sluice/javacompat/javahash"
)

const (
	// MinDefaultMaxParallelism is the lower bound of Flink's default maximum parallelism.
	MinDefaultMaxParallelism = 1 << 7
	// UpperBoundMaxParallelism is the largest maximum parallelism Flink allows.
	UpperBoundMaxParallelism = 1 << 15
)

// HashRow returns BinaryRowData#hashCode of a row's bytes: Murmur3-32 with seed 42 over the
// bytes read as little-endian 4-byte words. len(row) is a multiple of 8 for every BinaryRowData.
func HashRow(row []byte) int32 {
	return javahash.Bytes(row)
}

// Murmur is MathUtils#murmurHash: one more Murmur3 round over a hash code, made non-negative.
func Murmur(code int32) int32 {
	v := int32(javahash.Murmur3Word(uint32(code)))
	switch {
	case v >= 0:
		return v
	case v != -1<<31:
		return -v
	default:
		return 0
	}
}

// OfHash is KeyGroupRangeAssignment#computeKeyGroupForKeyHash: the key group of a key whose
// hashCode() is hash.
func OfHash(hash int32, maxParallelism int) int {
	return int(Murmur(hash)) % maxParallelism
}

// Subtask is KeyGroupRangeAssignment#computeOperatorIndexForKeyGroup: the subtask that owns a
// key group.
func Subtask(keyGroup, parallelism, maxParallelism int) int {
	return keyGroup * parallelism / maxParallelism
}

// Range is an inclusive range of key groups, as Flink's KeyGroupRange.
type Range struct {
	Start, End int
}

// Contains reports whether kg lies in the range.
func (r Range) Contains(kg int) bool { return kg >= r.Start && kg <= r.End }

// Len is the number of key groups in the range.
func (r Range) Len() int { return r.End - r.Start + 1 }

// String prints the range as Flink does.
func (r Range) String() string {
	return fmt.Sprintf("KeyGroupRange{startKeyGroup=%d, endKeyGroup=%d}", r.Start, r.End)
}

// RangeOf is KeyGroupRangeAssignment#computeKeyGroupRangeForOperatorIndex.
func RangeOf(maxParallelism, parallelism, subtask int) (Range, error) {
	if err := CheckParallelism(maxParallelism, parallelism); err != nil {
		return Range{}, err
	}
	if subtask < 0 || subtask >= parallelism {
		return Range{}, fmt.Errorf("subtask index %d out of range [0, %d)", subtask, parallelism)
	}
	return Range{
		Start: (subtask*maxParallelism + parallelism - 1) / parallelism,
		End:   ((subtask+1)*maxParallelism - 1) / parallelism,
	}, nil
}

// CheckParallelism validates a (maxParallelism, parallelism) pair as Flink does.
func CheckParallelism(maxParallelism, parallelism int) error {
	for _, p := range []int{maxParallelism, parallelism} {
		if p <= 0 || p > UpperBoundMaxParallelism {
			return fmt.Errorf("operator parallelism %d not within bounds (0, %d]", p, UpperBoundMaxParallelism)
		}
	}
	if maxParallelism < parallelism {
		return fmt.Errorf("maximum parallelism %d is smaller than parallelism %d", maxParallelism, parallelism)
	}
	return nil
}

// DefaultMaxParallelism is KeyGroupRangeAssignment#computeDefaultMaxParallelism.
func DefaultMaxParallelism(parallelism int) int {
	p := roundUpToPowerOfTwo(parallelism + parallelism/2)
	return min(max(p, MinDefaultMaxParallelism), UpperBoundMaxParallelism)
}

func roundUpToPowerOfTwo(x int) int {
	if x <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(x-1))
}
