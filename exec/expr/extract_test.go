package expr

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Calcite's julian-day arithmetic (DateTimeUtils#julianExtract) agrees with the proleptic
// Gregorian calendar of Go's time package from 0001-01-01 to 9999-12-31: every day near the
// ends and around 1900-2100, every 13th day elsewhere.
func TestExtractFromDateMatchesCalendar(t *testing.T) {
	first := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	last := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	dense := func(d time.Time) bool {
		return d.Year() <= 3 || d.Year() >= 9997 || d.Year() >= 1899 && d.Year() <= 2101
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		if !dense(d) && d.YearDay()%13 != 0 {
			continue
		}
		days := int32(d.Unix() / 86400)
		isoYear, isoWeek := d.ISOWeek()
		isoDow := (int(d.Weekday())+6)%7 + 1
		for unit, want := range map[string]int{
			"YEAR": d.Year(), "MONTH": int(d.Month()), "DAY": d.Day(), "DOY": d.YearDay(),
			"DOW": int(d.Weekday()) + 1, "ISODOW": isoDow, "WEEK": isoWeek, "ISOYEAR": isoYear,
			"QUARTER": (int(d.Month()) + 2) / 3, "DECADE": d.Year() / 10, "CENTURY": (d.Year() + 99) / 100,
			"MILLENNIUM": (d.Year() + 999) / 1000,
		} {
			if got := extractFromDate(unit, days); got != int64(want) {
				t.Fatalf("%s of %s: got %d, want %d", unit, d.Format("2006-01-02"), got, want)
			}
		}
	}
}

// Flink's quirks on TIMESTAMP: the epoch day comes from a truncating division and times of day
// from Java's remainder, so pre-epoch instants count in the next day with negative hours.
func TestExtractTimestampQuirks(t *testing.T) {
	ms := time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC).UnixMilli() // -3600000
	if got := extractFromDate("YEAR", int32(ms/millisPerDay)); got != 1970 {
		t.Errorf("YEAR of 1969-12-31 23:00 = %d, want Flink's 1970", got)
	}
	if got := ms % timeOfDay["HOUR"][0] / timeOfDay["HOUR"][1]; got != -1 {
		t.Errorf("HOUR of 1969-12-31 23:00 = %d, want Flink's -1", got)
	}
}

// TestExtractLocalZonedTimestamp checks EXTRACT on TIMESTAMP_LTZ: the TIMESTAMP arithmetic on
// the epoch millis plus the session zone's offset (extractFromTimestamp), and a fallback
// without a session zone.
func TestExtractLocalZonedTimestamp(t *testing.T) {
	ltz := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}
	types := []catalog.Type{ltz}
	// 1969-12-31T23:00Z and 2024-01-01T00:00Z at GMT+05:30.
	in := batch(t, types, []any{int64(-3_600_000), int64(1_704_067_200_000), nil})
	defer in.Release()
	zone := javatime.FixedZone(5*3_600_000 + 30*60_000)
	for _, c := range []struct {
		unit string
		want string
	}{
		{"HOUR", "[4 5 (null)]"},
		{"MINUTE", "[30 30 (null)]"},
		{"YEAR", "[1970 2024 (null)]"},
		{"EPOCH", "[16200 1704087000 (null)]"},
	} {
		n := call("EXTRACT", catalog.BigIntType(true), lit(Symbol{Value: c.unit}, catalog.Type{Kind: catalog.Symbol}), ref(0, ltz))
		e, err := CompileIn(n, types, Env{Zone: &zone})
		if err != nil {
			t.Fatalf("%s: %v", c.unit, err)
		}
		ctx := NewCtx(memory.DefaultAllocator, int(in.NumRows()))
		out, err := e.Eval(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("EXTRACT(%s FROM ltz) = %s, want %s", c.unit, out, c.want)
		}
		out.Release()
		if _, err := Compile(n, types); err == nil || !strings.Contains(err.Error(), "session time zone") {
			t.Errorf("%s without a zone: %v, want a fallback", c.unit, err)
		}
	}
}
