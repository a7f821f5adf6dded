package javatime

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
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
