package statettl

import "testing"

// State expires exactly TTL after its write, never without a TTL.
func TestExpired(t *testing.T) {
	for _, c := range []struct {
		ttl, written, now int64
		want              bool
	}{
		{100, 1000, 1099, false},
		{100, 1000, 1100, true},
		{100, 1000, 5000, true},
		{0, 1000, 1 << 62, false},
	} {
		if got := (TTL{Millis: c.ttl}).Expired(c.written, c.now); got != c.want {
			t.Errorf("TTL %d, written %d, at %d: expired %v, want %v", c.ttl, c.written, c.now, got, c.want)
		}
	}
	if got := (TTL{Clock: func() int64 { return 42 }}).Now(); got != 42 {
		t.Errorf("Now = %d with a clock at 42", got)
	}
}
