package expr

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
)

// TestToTimestampFormatGolden checks TO_TIMESTAMP(s, format) against
// DateTimeUtils#parseTimestampData(s, format) of Flink 2.1.1 on JDK 17, printed by
// io.sluice.tools.ToTimestampGolden in a JVM of default zone UTC (the same in GMT+05:30 and
// GMT-10:00) for patterns of every kind the
// parser takes (adjacent fields, reduced years, fractions, conflicts, partial dates and times)
// on hand-picked strings (the Timestamp#valueOf fallback, Julian dates, Unicode digits, signs)
// and strings printed with each pattern, some altered.
func TestToTimestampFormatGolden(t *testing.T) {
	unhex := func(s string) []byte { return goldenBytes(t, s) }
	var pattern *timestampPattern
	var patternText string
	var scratch []uint16
	native, checked, mismatches := 0, 0, 0
	for _, fields := range goldenLines(t, "testdata/to_timestamp.txt") {
		switch fields[0] {
		case "P":
			patternText = string(unhex(fields[1]))
			pattern = nil
			parsed, err := parseJavaParsePattern(patternText, true)
			if err == nil {
				pattern, err = compileTimestampPattern(parsed, patternText)
			}
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
			ms, ok, s := pattern.timestamp(in, scratch)
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

// TestToTimestampFormatOnlyProjected checks that TO_TIMESTAMP(s, format) inside another
// expression falls back: Flink's value there can keep sub-millisecond digits.
func TestToTimestampFormatOnlyProjected(t *testing.T) {
	str := catalog.StringType(true)
	ts := catalog.TimestampType(3, true)
	types := []catalog.Type{str}
	parse := call("TO_TIMESTAMP", ts, ref(0, str), lit("yyyy-MM-dd HH:mm:ss", str))
	if _, err := CompileIn(parse, types, Env{JVMZoneFixed: true}); err != nil {
		t.Fatalf("projected TO_TIMESTAMP(s, format): %v", err)
	}
	around := call("IS NULL", catalog.BooleanType(false), parse)
	if _, err := CompileIn(around, types, Env{JVMZoneFixed: true}); err == nil || !strings.Contains(err.Error(), "sub-millisecond") {
		t.Errorf("TO_TIMESTAMP(s, format) inside IS NULL: %v, want a fallback", err)
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
		fields, err := parseJavaParsePattern(c.pattern, c.english)
		if err == nil {
			_, err = compileTimestampPattern(fields, c.pattern)
		}
		if (err == nil) != c.native {
			t.Errorf("%q (english %v): %v, want native %v", c.pattern, c.english, err, c.native)
		}
	}
}
