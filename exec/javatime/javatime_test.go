package javatime

import "testing"

func TestWallClockBeforeGregorianCutover(t *testing.T) {
	// java.sql.Timestamp(ms).toLocalDateTime() in UTC: from the cutover on, the same instant;
	// one millisecond before it, the Julian date 1582-10-04T23:59:59.999, read as a proleptic
	// Gregorian date (ten days earlier than the instant's Gregorian date 1582-10-14).
	cases := []struct{ ms, offset, want int64 }{
		{0, 0, 0},
		{gregorianCutover, 0, gregorianCutover},
		{gregorianCutover - 1, 0, gregorianCutover - 1 - 10*86_400_000},
		{1_000, 19_800_000, 19_801_000},
		// 1500-03-01T00:00Z is 1500-02-20 in the Julian calendar (nine days behind).
		{-14826672000000, 0, -14826672000000 - 9*86_400_000},
	}
	for _, c := range cases {
		if got := WallClock(c.ms, c.offset); got != c.want {
			t.Errorf("WallClock(%d, %d) = %d, want %d", c.ms, c.offset, got, c.want)
		}
	}
}

func TestInstantOfInvertsWallClock(t *testing.T) {
	for _, ms := range []int64{0, 1_600_000_000_123, -1, gregorianCutover + 1000, -14826672000000, -20000000000000} {
		for _, off := range []int64{0, 19_800_000, -12_600_000} {
			if got := InstantOf(WallClock(ms, off), off); got != ms {
				t.Errorf("InstantOf(WallClock(%d, %d)) = %d", ms, off, got)
			}
		}
	}
}
