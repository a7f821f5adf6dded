package agg

import (
	"encoding/binary"
	"errors"
)

// errTruncated reports an accumulator's state that ends early.
var errTruncated = errors.New("truncated")

// readU32 reads a little-endian uint32 and returns the rest.
func readU32(src []byte) (uint32, []byte, error) {
	if len(src) < 4 {
		return 0, nil, errTruncated
	}
	return binary.LittleEndian.Uint32(src), src[4:], nil
}
