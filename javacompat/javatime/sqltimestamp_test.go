package javatime

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestJavaDigitsAsCharacterDigit checks JavaDigit against the runs of chars that
// Character#digit(c, 10) of JDK 17 reads as digits (testdata/java_digits.txt, printed by
// io.sluice.tools.ToTimestampGolden digits), every char of the Basic Multilingual Plane.
func TestJavaDigitsAsCharacterDigit(t *testing.T) {
	f, err := os.Open("testdata/java_digits.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := make([]int, 0x10000)
	for i := range want {
		want[i] = -1
	}
	runs := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		lo, err1 := strconv.ParseUint(fields[1], 16, 32)
		hi, err2 := strconv.ParseUint(fields[2], 16, 32)
		if fields[0] != "D" || err1 != nil || err2 != nil || (hi-lo+1)%10 != 0 {
			t.Fatalf("bad line %q", sc.Text())
		}
		for c := lo; c <= hi; c++ {
			want[c] = int(c-lo) % 10
		}
		runs++
	}
	if runs < 30 {
		t.Fatalf("only %d runs of digits", runs)
	}
	for c := range want {
		if got := JavaDigit(uint16(c)); got != want[c] {
			t.Errorf("JavaDigit(U+%04X) = %d, Java's Character#digit gives %d", c, got, want[c])
		}
	}
}

// TestSQLTimestampNormalizes checks java.util.Date's lenient normalization and hybrid calendar
// on cases worked out by hand (the golden file of exec/expr covers them against Java).
func TestSQLTimestampNormalizes(t *testing.T) {
	cases := []struct {
		in   string
		want DateTime
		ok   bool
	}{
		{"2024-02-31 10:00:00", DateTime{Year: 2024, Month: 3, Day: 2, Hour: 10}, true},
		{"2024-01-05 25:61:61.5", DateTime{Year: 2024, Month: 1, Day: 6, Hour: 2, Minute: 2, Second: 1, Nano: 500_000_000}, true},
		{" 1999-9-10 05:20:10 ", DateTime{Year: 1999, Month: 9, Day: 10, Hour: 5, Minute: 20, Second: 10}, true},
		{"1000-02-29 00:00:00", DateTime{}, false}, // a Julian leap day LocalDateTime refuses
		{"2024-01-05 10:20", DateTime{}, false},
		{"2024-13-05 10:20:30", DateTime{}, false},
		{"2024-01-05 10:20:30.", DateTime{}, false},
		{"2024-01-05 10:20:30.1234567890", DateTime{}, false},
	}
	for _, c := range cases {
		got, ok, _ := SQLTimestamp([]byte(c.in), nil)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("SQLTimestamp(%q) = %+v %v, want %+v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestUtilFixedZone checks the IDs java.util.TimeZone#getTimeZone reads as fixed offsets
// (TimeZone#parseCustomTimeZone) and those Sluice leaves to Java.
func TestUtilFixedZone(t *testing.T) {
	for id, want := range map[string]int64{
		"UTC": 0, "GMT": 0, "GMT+8": 8 * 3_600_000, "GMT-08": -8 * 3_600_000, "GMT+0830": 30_600_000,
		"GMT+8:30": 30_600_000, "GMT-05:30": -19_800_000, "GMT+00:00": 0, "GMT+123": 4_980_000,
	} {
		z, ok := UtilFixedZone(id)
		off, fixed := z.FixedOffset()
		if !ok || !fixed || off != want {
			t.Errorf("UtilFixedZone(%q) = %d %v, want %d", id, off, ok, want)
		}
	}
	for _, id := range []string{"Asia/Shanghai", "PST", "+08:00", "GMT+", "GMT+24", "GMT+8:60", "GMT+8:5", "GMT+123:00", "GMT+08:00:00", "gmt+8", "Z", ""} {
		if _, ok := UtilFixedZone(id); ok {
			t.Errorf("UtilFixedZone(%q) accepted", id)
		}
	}
}
