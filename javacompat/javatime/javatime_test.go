package javatime

import (
	"math"
	"math/rand"
	"testing"
	"time"
)

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

// TestAppendLocalDateTime holds TimestampData#toString values printed by Flink 2.1.1.
func TestAppendLocalDateTime(t *testing.T) {
	for _, c := range []struct {
		ms, nanos int64
		want      string
	}{
		{0, 0, "1970-01-01T00:00"},
		{1, 0, "1970-01-01T00:00:00.001"},
		{-1, 0, "1969-12-31T23:59:59.999"},
		{1000, 0, "1970-01-01T00:00:01"},
		{60000, 0, "1970-01-01T00:01"},
		{-86400000, 0, "1969-12-31T00:00"},
		{1704067200000, 0, "2024-01-01T00:00"},
		{1704067200123, 0, "2024-01-01T00:00:00.123"},
		{1704067200123, 456000, "2024-01-01T00:00:00.123456"},
		{1704067200000, 1000, "2024-01-01T00:00:00.000001"},
		{1704067200000, 1, "2024-01-01T00:00:00.000000001"},
		{1704067201000, 0, "2024-01-01T00:00:01"},
		{-62135596800000, 0, "0001-01-01T00:00"},
		{-62135596800001, 999000, "0000-12-31T23:59:59.999999"},
		{-62198755200000, 0, "-0001-01-01T00:00"},
		{-62167219200000, 0, "0000-01-01T00:00"},
		{-62167219200001, 0, "-0001-12-31T23:59:59.999"},
		{-30610224000000, 0, "1000-01-01T00:00"},
		{253402300799999, 999999, "9999-12-31T23:59:59.999999999"},
		{253402300800000, 0, "+10000-01-01T00:00"},
		{-1, 999000, "1969-12-31T23:59:59.999999"},
		{86399999, 0, "1970-01-01T23:59:59.999"},
		{7, 5000, "1970-01-01T00:00:00.007005"},
		// The int epoch day of toLocalDateTime wraps.
		{185542587187200000, 0, "-5877641-06-23T00:00"},
		{185542587187199999, 0, "+5881580-07-11T23:59:59.999"},
		{-185542587100800001, 0, "-5877641-06-23T23:59:59.999"},
		{-185542587187200001, 0, "+5881580-07-11T23:59:59.999"},
		{9223372036854775807, 0, "-1701532-04-06T07:12:55.807"},
		{-9223372036854775808, 0, "+1705471-09-26T16:47:04.192"},
	} {
		if got := string(AppendLocalDateTime([]byte("x"), c.ms, c.nanos)); got != "x"+c.want {
			t.Errorf("AppendLocalDateTime(%d, %d) = %q, want %q", c.ms, c.nanos, got[1:], c.want)
		}
	}
}

// TestOffsetsCacheAgreesWithTheRules checks the period cache of Offsets against lookups in
// the zone's rules, on instants in order and shuffled, around transitions, before 1900 and at
// the ends of the epoch-millisecond range.
func TestOffsetsCacheAgreesWithTheRules(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "America/Los_Angeles", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia"} {
		z, err := LoadZone(name)
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewSource(3))
		var instants []int64
		for ms := int64(-2_300_000_000_000); ms < 2_000_000_000_000; ms += 1_800_000 + rnd.Int63n(3_600_000*50) {
			instants = append(instants, ms)
		}
		instants = append(instants, math.MinInt64, math.MaxInt64, 0, -1)
		shuffled := append([]int64(nil), instants...)
		rnd.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, run := range [][]int64{instants, shuffled} {
			o := z.Offsets()
			for _, ms := range run {
				_, secs := time.UnixMilli(ms).In(z.Location()).Zone()
				if got := o.OffsetAt(ms); got != int64(secs)*1000 {
					t.Fatalf("%s at %d: cached offset %d, rules %d", name, ms, got, int64(secs)*1000)
				}
				if ms > math.MinInt64/2 && ms < math.MaxInt64/2 {
					if got, want := o.Instant(ms), referenceInstant(z, ms); got != want {
						t.Fatalf("%s: Instant(%d) = %d, uncached %d", name, ms, got, want)
					}
				}
			}
		}
	}
}

// referenceInstant is LocalDateTime#atZone without the cache: each offset looked up anew.
func referenceInstant(z Zone, wall int64) int64 {
	off := func(ms int64) int64 {
		_, secs := time.UnixMilli(ms).In(z.Location()).Zone()
		return int64(secs) * 1000
	}
	const day = 86_400_000
	before, after := off(wall-day), off(wall+day)
	switch {
	case off(wall-before) == before:
		return wall - before
	case off(wall-after) == after:
		return wall - after
	}
	return wall - before
}
