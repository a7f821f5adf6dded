package expr

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
	"github.com/sluice-project/sluice/testkit/golden"
)

// TestSimpleDateGolden checks UNIX_TIMESTAMP(s, format) (in UTC and GMT+05:30), TO_DATE(s,
// format), FROM_UNIXTIME(n, format) (also in America/New_York) and DATE_FORMAT(s, format)
// against DateTimeUtils#unixTimestamp and #parseDate of Flink 2.1.1 on JDK 17 in an
// English locale, printed by io.sluice.tools.SimpleDateGolden: hand-picked strings (spaces,
// signs, DecimalFormat's NaN, '∞' and exponents, int wrap-around of long values, Unicode digits,
// the Julian-Gregorian cutover, trailing text) and strings printed with each pattern, altered.
func TestSimpleDateGolden(t *testing.T) {
	unhex := func(s string) []byte { return golden.Bytes(t, s) }
	unix := func(p *javatext.SimpleDate, s []byte, zone *javatime.Offsets) int64 {
		ms, ok := simpleDateMillis(p, s, zone)
		if !ok || ms == math.MinInt64 {
			return math.MinInt64
		}
		return ms / 1000
	}
	var pattern, printer *javatext.SimpleDate
	var text string
	patterns, checked, printed, mismatches := 0, 0, 0, 0
	utc, india := javatime.FixedZone(0), javatime.FixedZone(19_800_000)
	newYork, err := javatime.LoadZone("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	// One offset-period cache per zone across all the file's instants, as a kernel keeps one
	// per batch.
	zones := []javatime.Offsets{utc.Offsets(), india.Offsets(), newYork.Offsets()}
	show := func(b []byte, ok bool) string {
		if !ok {
			return "~"
		}
		if len(b) == 0 {
			return "-"
		}
		return hex.EncodeToString(b)
	}
	parser, err := javatext.CompileSimpleDate("yyyy-MM-dd HH:mm:ss")
	if err != nil {
		t.Fatal(err)
	}
	for _, fields := range golden.Lines(t, "testdata/simple_date.txt") {
		switch fields[0] {
		case "F":
			text = string(unhex(fields[1]))
			if printer, err = javatext.CompileSimpleDatePrinter(text); err != nil {
				t.Fatalf("print pattern %q: %v", text, err)
			}
		case "N":
			n, _ := strconv.ParseInt(fields[1], 10, 64)
			var got []string
			for k := range zones {
				got = append(got, show(printer.Format(nil, utilCalendarFields(n*1000, &zones[k])), true))
			}
			printed++
			if strings.Join(got, " ") != strings.Join(fields[2:], " ") {
				mismatches++
				t.Errorf("FROM_UNIXTIME(%d, %q) in UTC, +05:30, New York = %v, Flink gives %v", n, text, got, fields[2:])
			}
		case "S":
			in := unhex(fields[1])
			var got []string
			for k := range zones[:2] {
				ms, ok := simpleDateMillis(parser, in, &zones[k])
				var b []byte
				if ok {
					b = printer.Format(nil, utilCalendarFields(ms, &zones[k]))
				}
				got = append(got, show(b, ok))
			}
			printed++
			if strings.Join(got, " ") != strings.Join(fields[2:], " ") {
				mismatches++
				t.Errorf("DATE_FORMAT(%q, %q) in UTC, +05:30 = %v, Flink gives %v", in, text, got, fields[2:])
			}
		case "P":
			text = string(unhex(fields[1]))
			if pattern, err = javatext.CompileSimpleDate(text); err != nil {
				t.Errorf("pattern %q: %v", text, err)
				continue
			}
			if !pattern.HasDate {
				// Quotes can hide a field (yyyy, then MM inside quoted text): not native.
				pattern = nil
				continue
			}
			patterns++
		case "I":
			if pattern == nil {
				continue
			}
			in := unhex(fields[1])
			ms, ok := simpleDateMillis(pattern, in, &zones[0])
			if !ok {
				ms = math.MinInt64
			}
			y, m, d := javatime.GregorianDate(javatime.FloorDiv(ms, 86_400_000))
			date := ymdToJulian(int32(y), int32(m), int32(d)) - julianEpoch
			got := []string{strconv.FormatInt(unix(pattern, in, &zones[0]), 10), strconv.FormatInt(unix(pattern, in, &zones[1]), 10), strconv.Itoa(int(date))}
			checked++
			if strings.Join(got, " ") != strings.Join(fields[2:], " ") {
				mismatches++
				if mismatches <= 30 {
					t.Errorf("%q under %q: UNIX_TIMESTAMP UTC/+05:30, TO_DATE = %v, Flink gives %v", in, text, got, fields[2:])
				}
			}
		}
	}
	if patterns < 20 || checked < 3000 || printed < 800 {
		t.Errorf("only %d patterns, %d strings and %d printed values checked", patterns, checked, printed)
	}
	if mismatches > 0 {
		t.Errorf("%d of %d strings differ", mismatches, checked)
	}
}
