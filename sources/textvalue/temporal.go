package textvalue

// Dates, times and timestamps in the forms of Flink's TimeFormats (docs/internals/
// flink-json-format.md §6), for the texts whose value does not depend on how java.time resolves
// them: four-digit years, real dates (the SQL forms' SMART resolution would move 02-30 to 02-28;
// those texts are left to Flink) and hours below 24.

// civilDay is the epoch day of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
func civilDay(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// num reads n ASCII digits at b[at:].
func num(b []byte, at, n int) (int, bool) {
	if at+n > len(b) {
		return 0, false
	}
	v := 0
	for _, c := range b[at : at+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// ParseDate reads "YYYY-MM-DD" at b[0:] and returns its epoch day and length.
func ParseDate(b []byte) (int64, int, bool) {
	y, ok1 := num(b, 0, 4)
	m, ok2 := num(b, 5, 2)
	d, ok3 := num(b, 8, 2)
	if !ok1 || !ok2 || !ok3 || b[4] != '-' || b[7] != '-' || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, false
	}
	return civilDay(y, m, d), 10, true
}

// ParseTime reads "HH:mm" and, where seconds are optional, ":ss" and a fraction of 0 to 9
// digits, and returns the nanosecond of the day and the length read.
func ParseTime(b []byte, secondsOptional bool) (int64, int, bool) {
	h, ok1 := num(b, 0, 2)
	mi, ok2 := num(b, 3, 2)
	if !ok1 || !ok2 || b[2] != ':' || h > 23 || mi > 59 {
		return 0, 0, false
	}
	nanos := int64(h*3600+mi*60) * 1e9
	n := 5
	if n == len(b) || b[n] != ':' {
		return nanos, n, secondsOptional
	}
	sec, ok := num(b, n+1, 2)
	if !ok || sec > 59 {
		return 0, 0, false
	}
	nanos += int64(sec) * 1e9
	n += 3
	if n < len(b) && b[n] == '.' {
		n++
		// appendFraction(NANO_OF_SECOND, 0, 9): up to 9 digits, none at all too.
		scale := int64(1e8)
		for k := 0; n < len(b) && b[n] >= '0' && b[n] <= '9'; k++ {
			if k == 9 {
				return 0, 0, false
			}
			nanos += int64(b[n]-'0') * scale
			scale /= 10
			n++
		}
	}
	return nanos, n, true
}

// Timestamp is a date and time: epoch day and nanosecond of the day.
type Timestamp struct {
	// Day is the epoch day, Nanos the nanosecond of the day.
	Day, Nanos int64
}

// EpochMillis is the timestamp's millisecond and nanosecond of that millisecond, as Flink's
// TimestampData.fromLocalDateTime.
func (t Timestamp) EpochMillis() (int64, int32) {
	return t.Day*86_400_000 + t.Nanos/1_000_000, int32(t.Nanos % 1_000_000)
}

// ParseTimestamp reads a TIMESTAMP (zone false) or TIMESTAMP_LTZ (zone true, a 'Z' after it)
// in the SQL form "YYYY-MM-DD HH:mm:ss[.f]" or the ISO-8601 form "YYYY-MM-DDTHH:mm[:ss[.f]]".
func ParseTimestamp(b []byte, iso, zone bool) (Timestamp, bool) {
	day, n, ok := ParseDate(b)
	sep := byte(' ')
	if iso {
		sep = 'T'
	}
	if !ok || n >= len(b) || b[n] != sep {
		return Timestamp{}, false
	}
	nanos, m, ok := ParseTime(b[n+1:], iso)
	if !ok {
		return Timestamp{}, false
	}
	n += 1 + m
	if zone {
		if n >= len(b) || b[n] != 'Z' {
			return Timestamp{}, false
		}
		n++
	}
	if n != len(b) {
		return Timestamp{}, false
	}
	return Timestamp{Day: day, Nanos: nanos}, true
}
