// Package javahash reproduces Java's hashing where it decides what Flink outputs: the
// hashCode() of the objects Flink's generated code keeps (boxed numbers, BinaryStringData,
// DecimalData, TimestampData), the Murmur3 hash of Flink's binary formats, and the iteration
// order of a java.util.HashMap filled with such keys.
package javahash

import "math/bits"

const (
	c1 = 0xcc9e2d51
	c2 = 0x1b873593
	// binarySeed is the seed of Flink's binary hash codes (MurmurHashUtils.DEFAULT_SEED).
	binarySeed = 42
)

func mixK1(k uint32) uint32 {
	k *= c1
	k = bits.RotateLeft32(k, 15)
	return k * c2
}

func mixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// Murmur3 is Murmur3-32 as Flink computes it over bytes (MurmurHashUtils#hashBytes): the
// little-endian 4-byte words of b, then each remaining byte sign-extended as one more block,
// then the length mixed in.
func Murmur3(b []byte, seed uint32) uint32 {
	h := seed
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		k := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		h = mixH1(h, mixK1(k))
	}
	for _, c := range b[n:] {
		h = mixH1(h, mixK1(uint32(int32(int8(c)))))
	}
	return fmix(h ^ uint32(len(b)))
}

// Murmur3Word is Murmur3-32 of one 4-byte word with seed 0, the mixing of MathUtils#murmurHash
// (before it makes the result non-negative).
func Murmur3Word(w uint32) uint32 {
	return fmix(mixH1(0, mixK1(w)) ^ 4)
}

// Bytes is the hash code of Flink's binary data (BinarySection#hashCode, so
// BinaryStringData#hashCode and BinaryRowData#hashCode): Murmur3 with seed 42.
func Bytes(b []byte) int32 {
	return int32(Murmur3(b, binarySeed))
}
