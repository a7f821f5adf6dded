package javatime

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestParseTimestampTextMatchesFlink compares ParseTimestampText and EpochMillis with the
// TimestampData that Flink's DateTimeUtils#parseTimestampData returned for the strings of testdata/timestamp_text.txt
// (written by io.sluice.tools.TimestampTextGolden: hand-picked quirks and 4,000 random strings).
func TestParseTimestampTextMatchesFlink(t *testing.T) {
	f, err := os.Open("testdata/timestamp_text.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines, valid := 0, 0
	for sc.Scan() {
		h, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("line %d: no tab", lines+1)
		}
		in := []byte{}
		if h != "-" {
			if in, err = hex.DecodeString(h); err != nil {
				t.Fatalf("line %d: %v", lines+1, err)
			}
		}
		lines++
		got := "error"
		if d, ok := ParseTimestampText(in); ok {
			ms, nanos := d.EpochMillis()
			got = fmt.Sprintf("%d %d", ms, nanos)
			valid++
		}
		if got != want {
			t.Errorf("%q: %s, Flink %s", in, got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 4000 || valid < 1000 {
		t.Fatalf("%d lines, %d parsed: the golden file is incomplete", lines, valid)
	}
}

// TestEpochMillis checks TimestampData#fromLocalDateTime's arithmetic, including the wrap of
// Java's long multiplication for the largest years.
func TestEpochMillis(t *testing.T) {
	for _, c := range []struct {
		t            DateTime
		ms, nanoOfMs int64
	}{
		{DateTime{1970, 1, 1, 0, 0, 0, 0}, 0, 0},
		{DateTime{1969, 12, 31, 23, 59, 59, 999_999_999}, -1, 999_999},
		{DateTime{2024, 2, 29, 12, 34, 56, 789_123_456}, 1_709_210_096_789, 123_456},
		{DateTime{1, 1, 1, 0, 0, 0, 0}, -62_135_596_800_000, 0},
		// Epoch day 365,241,780,471 times 86,400,000 wraps as Java's long does.
		{DateTime{999_999_999, 12, 31, 0, 0, 0, 0}, -5_336_598_314_724_703_232, 0},
	} {
		ms, nanos := c.t.EpochMillis()
		if ms != c.ms || nanos != c.nanoOfMs {
			t.Errorf("%+v: %d ms + %d ns, want %d + %d", c.t, ms, nanos, c.ms, c.nanoOfMs)
		}
	}
}

// TestUtilOffsetAt holds java.util.TimeZone#getOffset values printed by Java 17: today's raw
// offset before 1900 (not local mean time), the tz database from 1900 on.
func TestUtilOffsetAt(t *testing.T) {
	for _, c := range []struct {
		zone    string
		instant string
		want    int64
	}{
		{"Europe/Berlin", "1200-01-01T00:00:00Z", 3600000},
		{"Europe/Berlin", "1850-06-01T00:00:00Z", 3600000},
		{"Europe/Berlin", "1940-07-01T00:00:00Z", 7200000},
		{"Pacific/Kiritimati", "1899-12-31T23:59:59Z", 50400000},
		{"Pacific/Kiritimati", "1900-01-01T00:00:00Z", -37760000},
		{"Europe/Amsterdam", "1850-06-01T00:00:00Z", 3600000},
		{"Asia/Shanghai", "1900-01-01T00:00:00Z", 29143000},
		{"Africa/Monrovia", "1899-12-31T23:59:59Z", 0},
		{"America/Los_Angeles", "1850-06-01T00:00:00Z", -28800000},
		// The last year of epoch milliseconds: northern summer time does not start, southern
		// summer time that began the year before still ends.
		{"Europe/Berlin", "+292278993-07-01T00:00:00Z", 7200000},
		{"Europe/Berlin", "+292278994-04-01T00:00:00Z", 3600000},
		{"Europe/Berlin", "+292278994-07-01T00:00:00Z", 3600000},
		{"Australia/Sydney", "+292278994-01-01T00:00:00Z", 39600000},
		{"Australia/Sydney", "+292278994-07-01T00:00:00Z", 36000000},
	} {
		z, err := LoadZone(c.zone)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := instantMillis(c.instant)
		if err != nil {
			t.Fatal(err)
		}
		if got := z.UtilOffsetAt(ms); got != c.want {
			t.Errorf("%s at %s: %d, Java %d", c.zone, c.instant, got, c.want)
		}
	}
}

// instantMillis parses an ISO instant, with a '+' and more digits for years beyond 9999.
func instantMillis(s string) (int64, error) {
	if !strings.HasPrefix(s, "+") {
		t, err := time.Parse(time.RFC3339, s)
		return t.UnixMilli(), err
	}
	dash := strings.IndexByte(s, '-')
	year, err := strconv.Atoi(s[1:dash])
	if err != nil {
		return 0, err
	}
	t, err := time.Parse(time.RFC3339, "2000"+s[dash:])
	if err != nil {
		return 0, err
	}
	return time.Date(year, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC).UnixMilli(), nil
}
