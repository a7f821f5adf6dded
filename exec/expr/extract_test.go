package expr

import (
	"testing"
	"time"
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
