package javatime

import (
	"strconv"
	"testing"

	"github.com/sluice-project/sluice/testkit/golden"
)

// TestToTimestampFormatGolden checks TO_TIMESTAMP(s, format) against
// DateTimeUtils#parseTimestampData(s, format) of Flink 2.1.1 on JDK 17, printed by
// io.sluice.tools.ToTimestampGolden in a JVM of default zone UTC (the same in GMT+05:30 and
// GMT-10:00) for patterns of every kind the
// parser takes (adjacent fields, reduced years, fractions, conflicts, partial dates and times)
// on hand-picked strings (the Timestamp#valueOf fallback, Julian dates, Unicode digits, signs)
// and strings printed with each pattern, some altered.
func TestToTimestampFormatGolden(t *testing.T) {
	unhex := func(s string) []byte { return golden.Bytes(t, s) }
	var pattern *Parser
	var patternText string
	var scratch []uint16
	native, checked, mismatches := 0, 0, 0
	for _, fields := range golden.Lines(t, "testdata/to_timestamp.txt") {
		switch fields[0] {
		case "P":
			patternText = string(unhex(fields[1]))
			pattern = nil
			var err error
			pattern, err = CompileParser(patternText, true)
			if err != nil {
				t.Errorf("pattern %q: %v", patternText, err)
				continue
			}
			native++
		case "I":
			if pattern == nil {
				continue
			}
			in := unhex(fields[1])
			ms, ok, s := pattern.Timestamp(in, scratch)
			scratch = s
			got := "N"
			if ok {
				got = strconv.FormatInt(ms, 10)
			}
			checked++
			if got != fields[2] {
				mismatches++
				if mismatches <= 400 {
					t.Errorf("TO_TIMESTAMP(%q, %q) = %s, Flink gives %s", in, patternText, got, fields[2])
				}
			}
		}
	}
	if native < 50 || checked < 12000 {
		t.Errorf("only %d patterns and %d strings checked", native, checked)
	}
	if mismatches > 0 {
		t.Errorf("%d of %d strings differ", mismatches, checked)
	}
}

// TestToTimestampPatternVerdicts checks which TO_TIMESTAMP patterns parse natively: names,
// AM/PM and eras only in an English format locale, and never the narrow names (several months
// share one).
func TestToTimestampPatternVerdicts(t *testing.T) {
	for _, c := range []struct {
		pattern string
		english bool
		native  bool
	}{
		{"yyyy-MM-dd HH:mm:ss", false, true},
		{"uuuu-L-d h:mm K k", false, true},
		{"dd MMM yyyy", true, true},
		{"dd MMM yyyy", false, false},
		{"EEEE, MMMM d G yyyy hh:mm a", true, true},
		{"yyyy-MM-dd a", false, false},
		{"yyyy MMMMM dd", true, false},
		{"EEEEE", true, false},
		{"GGGGG", true, false},
		{"aa", true, false},
		{"hhh", true, false},
		{"yyyy-DDD", true, false},
		{"ccc", true, false},
	} {
		_, err := CompileParser(c.pattern, c.english)
		if (err == nil) != c.native {
			t.Errorf("%q (english %v): %v, want native %v", c.pattern, c.english, err, c.native)
		}
	}
}
