package expr

import "testing"

// TestParseJavaTime follows DateTimeUtils#parseTime: no range checks, a zone suffix at the
// first '-' or '+', parseFraction's rounding on the fourth char (any non-ASCII char rounds up).
func TestParseJavaTime(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int32 // -1: null or an exception
	}{
		{"12:34:56", 45_296_000},
		{"12:34:56.789", 45_296_789},
		{"1:2:3.4", 3_723_400},
		{" 1 : 2 : 3 ", 3_723_000},
		{"12:34:56.7895", 45_296_790},
		{"12:34:56.789é", 45_296_790},
		{"12:34:56.é", 45_296_000},
		{"25:00", 90_000_000},
		{"7", 25_200_000},
		{"12:30-02:00", -1}, // the zone's colon is found as the second colon
		{"12:30+1", 48_600_000},
		{"-1:00", -1},
		{"ab", -1},
		{"", -1},
		{"99999999999", -1},
		{"1:2:3.", 3_723_000},
		{"1:2:3.5-4", 3_723_500 - 4*3_600_000},
		{"1:2-3:4:5", -1},
		{"1:2:3.1\xed\xa0\x809", -1}, // invalid UTF-8 in the fraction: an error
	} {
		got, ok, _ := parseJavaTime([]byte(c.s))
		if !ok {
			got = -1
		}
		if got != c.want {
			t.Errorf("parseTime(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

// TestFlinkLocalDate: DateTimeUtils#toLocalDate is the epoch day itself from about 4800 BC on;
// before, its int arithmetic gives months LocalDate#of rejects (fuzz seed 11237: a DATE
// 2,752,512 days before 2000 cast to TIMESTAMP_LTZ failed in Flink).
func TestFlinkLocalDate(t *testing.T) {
	for d := int32(-2_472_632); d < 3_000_000; d += 997 {
		if got, err := flinkLocalDate(d); err != nil || got != int64(d) {
			t.Fatalf("toLocalDate(%d) = %d, %v; want the same day", d, got, err)
		}
	}
	failures := 0
	for d := int32(-2_472_633); d > -2_900_000; d -= 13 {
		if _, err := flinkLocalDate(d); err != nil {
			failures++
		}
	}
	if failures == 0 {
		t.Errorf("no date before 4800 BC failed; Flink's julianToLocalDate rejects some")
	}
}
