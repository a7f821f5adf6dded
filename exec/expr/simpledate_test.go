package expr

import (
	"bufio"
	"encoding/hex"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/javatext"
	"github.com/sluice-project/sluice/exec/javatime"
)

// TestSimpleDateGolden checks UNIX_TIMESTAMP(s, format) (in UTC and GMT+05:30) and TO_DATE(s,
// format) against DateTimeUtils#unixTimestamp and #parseDate of Flink 2.1.1 on JDK 17 in an
// English locale, printed by io.sluice.tools.SimpleDateGolden: hand-picked strings (spaces,
// signs, DecimalFormat's NaN, '∞' and exponents, int wrap-around of long values, Unicode digits,
// the Julian-Gregorian cutover, trailing text) and strings printed with each pattern, altered.
func TestSimpleDateGolden(t *testing.T) {
	f, err := os.Open("testdata/simple_date.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unhex := func(s string) []byte {
		if s == "-" {
			return nil
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatalf("golden file: %v", err)
		}
		return b
	}
	unix := func(p *javatext.SimpleDate, s []byte, offset int64) int64 {
		ms, ok := simpleDateMillis(p, s, offset)
		if !ok || ms == math.MinInt64 {
			return math.MinInt64
		}
		return ms / 1000
	}
	var pattern *javatext.SimpleDate
	var text string
	patterns, checked, mismatches := 0, 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch fields[0] {
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
			ms, ok := simpleDateMillis(pattern, in, 0)
			if !ok {
				ms = math.MinInt64
			}
			y, m, d := javatime.GregorianDate(javatime.FloorDiv(ms, 86_400_000))
			date := ymdToJulian(int32(y), int32(m), int32(d)) - julianEpoch
			got := []string{strconv.FormatInt(unix(pattern, in, 0), 10), strconv.FormatInt(unix(pattern, in, 19_800_000), 10), strconv.Itoa(int(date))}
			checked++
			if strings.Join(got, " ") != strings.Join(fields[2:], " ") {
				mismatches++
				if mismatches <= 30 {
					t.Errorf("%q under %q: UNIX_TIMESTAMP UTC/+05:30, TO_DATE = %v, Flink gives %v", in, text, got, fields[2:])
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if patterns < 20 || checked < 3000 {
		t.Errorf("only %d patterns and %d strings checked", patterns, checked)
	}
	if mismatches > 0 {
		t.Errorf("%d of %d strings differ", mismatches, checked)
	}
}
