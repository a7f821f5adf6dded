package javatime

import (
	"strings"
	"time"

	"testing"
)

// Patterns print as java.time's DateTimeFormatter prints them (expected values from
// JDK 17: LocalDateTime.of(...).format(DateTimeFormatter.ofPattern(p))).
func TestDateFormatPatterns(t *testing.T) {
	ts := time.Date(2024, 2, 9, 7, 5, 3, 123456000, time.UTC)
	for p, want := range map[string]string{
		"yyyy-MM-dd HH:mm:ss":     "2024-02-09 07:05:03",
		"yy/M/d H:m:s":            "24/2/9 7:5:3",
		"D/DD/DDD":                "40/40/040",
		"S-SS-SSS-SSSSSS":         "1-12-123-123456",
		"yyyy'T'HH'h'''":          "2024T07h'",
		"''dd":                    "'09",
		"y-yyy-yyyyy":             "2024-2024-02024",
		"yyyyMMddHHmmssSSS":       "20240209070503123",
		"yyyy-MM-dd'T'HH:mm:ss.S": "2024-02-09T07:05:03.1",
	} {
		pat, err := CompilePattern(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if got := string(pat.Append(nil, ts)); got != want {
			t.Errorf("%q: got %q, want %q", p, got, want)
		}
	}
	for _, c := range []struct {
		year     int
		pattern  string
		expected string
	}{{12345, "yyyy", "+12345"}, {12345, "yy", "45"}, {5, "y yyy yyyy", "5 005 0005"}} {
		pat, _ := CompilePattern(c.pattern)
		if got := string(pat.Append(nil, time.Date(c.year, 1, 1, 0, 0, 0, 0, time.UTC))); got != c.expected {
			t.Errorf("year %d %q: got %q, want %q", c.year, c.pattern, got, c.expected)
		}
	}
	for _, p := range []string{"MMM", "EEE", "a", "[yyyy]", "yyyy'", "ddd", "HHH", "z"} {
		if _, err := CompilePattern(p); err == nil {
			t.Errorf("%q should fall back", p)
		}
	}
}

func TestDateFormatTextPatterns(t *testing.T) {
	for _, c := range []struct {
		ts      time.Time
		pattern string
		want    string
	}{
		{time.Date(2024, 2, 9, 7, 5, 3, 123456000, time.UTC), "EEE, dd MMM yyyy hh:mm a", "Fri, 09 Feb 2024 07:05 AM"},
		{time.Date(2024, 2, 9, 7, 5, 3, 0, time.UTC), "EEEE MMMM EEEEE MMMMM LLL LLLL ccc cccc E", "Friday February F F Feb February Fri Friday Fri"},
		{time.Date(2024, 11, 9, 0, 5, 3, 0, time.UTC), "G GGGG GGGGG QQQ QQQQ QQQQQ Q QQ q", "AD Anno Domini A Q4 4th quarter 4 4 04 4"},
		{time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC), "G y u uu uuuu", "BC 1 0 00 0000"},
		{time.Date(-5, 6, 1, 12, 0, 0, 0, time.UTC), "GGGG yyyy uuuu uuu u uu", "Before Christ 0006 -0005 -005 -5 05"},
		{time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "h K k a", "12 0 24 AM"},
		{time.Date(2024, 1, 1, 12, 30, 0, 0, time.UTC), "h K k a hh KK kk", "12 0 12 PM 12 00 12"},
		{time.Date(2024, 1, 15, 23, 0, 0, 5, time.UTC), "h K k F n nnn N A", "11 11 23 1 5 005 82800000000005 82800000"},
	} {
		pat, err := CompilePrintPattern(c.pattern, true)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got := string(pat.Append(nil, c.ts)); got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.ts, c.pattern, got, c.want)
		}
	}
	for _, p := range []string{"MMM", "EEE", "a", "GG", "QQQ", "cccc"} {
		if _, err := CompilePrintPattern(p, false); err == nil || !strings.Contains(err.Error(), "locale") {
			t.Errorf("%q outside an English locale: %v", p, err)
		}
	}
	for _, p := range []string{"aa", "MMMMMM", "c", "cc", "e", "w", "hhh", "FF", "z", "VV", "B"} {
		if _, err := CompilePrintPattern(p, true); err == nil {
			t.Errorf("%q should fall back", p)
		}
	}
}
