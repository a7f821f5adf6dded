package avroformat

import (
	"fmt"
	"math/big"
	"testing"
)

// TestTwosComplement checks BigInteger#toByteArray's bytes.
func TestTwosComplement(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "[0]"}, {1, "[1]"}, {127, "[127]"}, {128, "[0 128]"}, {255, "[0 255]"}, {256, "[1 0]"},
		{-1, "[255]"}, {-128, "[128]"}, {-129, "[255 127]"}, {-256, "[255 0]"}, {-32768, "[128 0]"}, {-32769, "[255 127 255]"},
	} {
		if got := fmt.Sprint(appendTwosComplement(nil, big.NewInt(c.v))); got != c.want {
			t.Errorf("%d: %s, want %s", c.v, got, c.want)
		}
	}
}

// TestZigzag checks Avro's varints.
func TestZigzag(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "[0]"}, {-1, "[1]"}, {1, "[2]"}, {-64, "[127]"}, {64, "[128 1]"},
		{-9223372036854775808, "[255 255 255 255 255 255 255 255 255 1]"},
	} {
		if got := fmt.Sprint(zigzag(nil, c.v)); got != c.want {
			t.Errorf("%d: %s, want %s", c.v, got, c.want)
		}
	}
}
