package expr

import (
	"math/big"
	"testing"
)

func TestRoundUnscaled(t *testing.T) {
	cases := []struct {
		name     string
		v        string
		scale    int
		digits   int
		truncate bool
		want     string
	}{
		{"half up", "25", 1, 0, false, "3"},            // ROUND(2.5) = 3
		{"half up negative", "-25", 1, 0, false, "-3"}, // away from zero
		{"keep digits", "12345", 2, 1, false, "1235"},  // ROUND(123.45, 1) = 123.5
		{"tens", "15", 0, -1, false, "20"},
		{"tens negative", "-15", 0, -1, false, "-20"},
		{"truncate down", "-199", 2, 1, true, "-19"}, // TRUNCATE(-1.99, 1) = -1.9
		{"truncate tens", "199", 0, -1, true, "190"},
	}
	for _, c := range cases {
		v, _ := new(big.Int).SetString(c.v, 10)
		e := &roundFn{digits: c.digits, truncate: c.truncate}
		if got := e.roundUnscaled(v, c.scale).String(); got != c.want {
			t.Errorf("%s: %s at scale %d to %d digits = %s, want %s", c.name, c.v, c.scale, c.digits, got, c.want)
		}
	}
}
