package expr

import "testing"

func TestTruncateTimestampAsFlink(t *testing.T) {
	cases := []struct {
		ms, nano  int64
		precision int
		wantMs    int64
		wantNano  int64
	}{
		{1_500, 0, 0, 1_000, 0},             // 00:00:01.5 -> 00:00:01
		{-1_500, 0, 0, -1_000, 0},           // towards zero, as Java's division: 23:59:59.000
		{1_234, 567_000, 3, 1_234, 0},       // microseconds dropped at precision 3
		{1_234, 567_000, 5, 1_234, 560_000}, // one digit of the micros dropped
		{1_000, 1_000, 4, 1_000, 1_000},     // nano-of-second "1000" has 4 digits: kept at precision 4
		{1_000, 10_000, 4, 1_000, 0},        // "10000" has 5 digits: the 10 µs are below precision 4
		{1_001, 0, 2, 1_000, 0},             // nano-of-second 1000000 has 7 digits
		{0, 0, 0, 0, 0},
	}
	for _, c := range cases {
		ms, nano := truncateTimestamp(c.ms, c.nano, c.precision)
		if ms != c.wantMs || nano != c.wantNano {
			t.Errorf("truncate(%d ms, %d ns, %d) = (%d, %d), want (%d, %d)", c.ms, c.nano, c.precision, ms, nano, c.wantMs, c.wantNano)
		}
	}
}
