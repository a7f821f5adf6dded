package javatime

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// SQLTimestamp is java.sql.Timestamp.valueOf(s).toLocalDateTime() in a JVM whose default time
// zone has a fixed offset (which then cancels out): "yyyy-[m]m-[d]d hh:mm:ss[.f...]" after
// String#trim, every part read by Integer#parseInt (a sign and any Unicode decimal digits of
// the Basic Multilingual Plane), a four-character year, a month 1 to 12 and a day 1 to 31, a
// fraction of 1 to 9 digits; then java.util.Date's lenient normalization (February 31 is in
// March, hour 25 is the next day) in its hybrid calendar (Julian before 1582-10-15), read back
// into a LocalDateTime. ok is false where Java throws (IllegalArgumentException, or
// LocalDateTime#of refusing a Julian February 29 of a year that is not a Gregorian leap year).
// scratch is reused for the string's UTF-16 form and returned.
func SQLTimestamp(s []byte, scratch []uint16) (t DateTime, ok bool, _ []uint16) {
	u := javaChars(Trim(s), scratch[:0])
	space := indexChar(u, ' ', 0)
	if space < 0 {
		return t, false, u
	}
	date, tm := u[:space], u[space+1:]
	firstDash := indexChar(date, '-', 0)
	secondDash := indexChar(date, '-', firstDash+1)
	firstColon := indexChar(tm, ':', 0)
	secondColon := indexChar(tm, ':', firstColon+1)
	period := indexChar(tm, '.', secondColon+1)
	if !(firstDash > 0 && secondDash > 0 && secondDash < len(date)-1) {
		return t, false, u
	}
	yyyy, mm, dd := date[:firstDash], date[firstDash+1:secondDash], date[secondDash+1:]
	if len(yyyy) != 4 || len(mm) < 1 || len(mm) > 2 || len(dd) < 1 || len(dd) > 2 {
		return t, false, u
	}
	year, ok1 := parseJavaInt(yyyy)
	month, ok2 := parseJavaInt(mm)
	day, ok3 := parseJavaInt(dd)
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > 31 {
		return t, false, u
	}
	n := len(tm)
	if !(firstColon > 0 && secondColon > 0 && secondColon < n-1) {
		return t, false, u
	}
	hour, ok1 := parseJavaInt(tm[:firstColon])
	minute, ok2 := parseJavaInt(tm[firstColon+1 : secondColon])
	var second, nanos int64
	ok3 = true
	switch {
	case period > 0 && period < n-1:
		second, ok3 = parseJavaInt(tm[secondColon+1 : period])
		digits := n - (period + 1)
		if digits > 9 || !isJavaDigit(tm[period+1]) {
			return t, false, u
		}
		f, ok := parseJavaInt(tm[period+1:])
		if !ok {
			return t, false, u
		}
		for ; digits < 9; digits++ {
			f *= 10 // int arithmetic: at most 9 digits, so no overflow
		}
		nanos = f
	case period > 0:
		return t, false, u
	default:
		second, ok3 = parseJavaInt(tm[secondColon+1:])
	}
	if !ok1 || !ok2 || !ok3 {
		return t, false, u
	}
	t, ok = utilDate(year, month, day, hour, minute, second)
	t.Nano = nanos
	return t, ok, u
}

// SQLDate is java.sql.Date.valueOf(s).toLocalDate() at midnight, in a JVM whose default time
// zone has a fixed offset: "yyyy-[m]m-[d]d" with the checks and the normalization of
// SQLTimestamp (s is not trimmed).
func SQLDate(s []byte, scratch []uint16) (t DateTime, ok bool, _ []uint16) {
	u := javaChars(s, scratch[:0])
	firstDash := indexChar(u, '-', 0)
	secondDash := indexChar(u, '-', firstDash+1)
	n := len(u)
	if !(firstDash > 0 && secondDash > 0 && secondDash < n-1) {
		return t, false, u
	}
	if firstDash != 4 || secondDash-firstDash <= 1 || secondDash-firstDash > 3 || n-secondDash <= 1 || n-secondDash > 3 {
		return t, false, u
	}
	year, ok1 := parseJavaInt(u[:firstDash])
	month, ok2 := parseJavaInt(u[firstDash+1 : secondDash])
	day, ok3 := parseJavaInt(u[secondDash+1:])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > 31 {
		return t, false, u
	}
	t, ok = utilDate(year, month, day, 0, 0, 0)
	return t, ok, u
}

// utilDate is new java.util.Date(year - 1900, month - 1, day, hour, minute, second) read back
// into a LocalDateTime (month 1..12, day 1..31, the time fields any int): the fields are
// counted from the calendar of the year (Gregorian from 1583 on, Julian before, and
// GregorianCalendar's own rule for 1582: Julian dates before its cutover, the ten missing days
// counted as Julian), recounted in the other calendar when the instant lands on its side of the
// cutover, then read in the calendar of the instant (a year before Christ as its year of the
// era, as Date#getYear gives it). ok is false where LocalDateTime#of refuses the date read back
// (a Julian February 29 in a year that is not a Gregorian leap year).
func utilDate(year, month, day, hour, minute, second int64) (DateTime, bool) {
	const dayMillis = 86_400_000
	cutoverDay := int64(gregorianCutover / dayMillis)
	tod := ((hour*60+minute)*60 + second) * 1000
	var ms int64
	if year == 1582 {
		carry := FloorDiv(tod, dayMillis)
		rest := tod - carry*dayMillis
		fixed := GregorianEpochDay(year, month, 1) + day - 1 + carry
		if fixed < cutoverDay {
			fixed = julianEpochDay(year, month, 1) + day - 1 + carry
		}
		ms = fixed*dayMillis + rest
	} else {
		gregorian := year > 1582
		ms = calendarMillis(gregorian, year, month, day, tod)
		if (ms >= gregorianCutover) != gregorian {
			ms = calendarMillis(!gregorian, year, month, day, tod)
		}
	}
	epochDay := FloorDiv(ms, dayMillis)
	rem := ms - epochDay*dayMillis
	y, m, d := CalendarDate(epochDay)
	if y <= 0 {
		y = 1 - y // Date#getYear of a date before Christ: its year of the era (1 BC is 1)
	}
	if d > DaysInMonth(y, m) {
		return DateTime{}, false
	}
	return DateTime{Year: y, Month: m, Day: d, Hour: rem / 3_600_000, Minute: rem / 60_000 % 60, Second: rem / 1000 % 60}, true
}

// calendarMillis is the local epoch milliseconds of a date of the Gregorian or the Julian
// calendar (a day beyond the month's end counts on) plus a time of day in milliseconds.
func calendarMillis(gregorian bool, year, month, day, tod int64) int64 {
	first := julianEpochDay(year, month, 1)
	if gregorian {
		first = GregorianEpochDay(year, month, 1)
	}
	return (first+day-1)*86_400_000 + tod
}

// Trim is String#trim on UTF-8: the bytes up to U+0020 removed from both ends.
func Trim(s []byte) []byte {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// javaChars appends the UTF-16 chars of a Java string decoded from UTF-8 (an invalid byte is a
// U+FFFD, which no parser here accepts).
func javaChars(s []byte, dst []uint16) []uint16 {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		s = s[n:]
		if r < 0x10000 {
			dst = append(dst, uint16(r))
			continue
		}
		hi, lo := utf16.EncodeRune(r)
		dst = append(dst, uint16(hi), uint16(lo))
	}
	return dst
}

// indexChar is String#indexOf(ch, from).
func indexChar(u []uint16, c uint16, from int) int {
	if from < 0 {
		from = 0
	}
	for i := from; i < len(u); i++ {
		if u[i] == c {
			return i
		}
	}
	return -1
}

// parseJavaInt is Integer#parseInt(s, 10) on UTF-16 chars: an optional sign and at least one
// decimal digit (Character#digit: any Unicode decimal digit of the Basic Multilingual Plane),
// within int range.
func parseJavaInt(u []uint16) (int64, bool) {
	if len(u) == 0 {
		return 0, false
	}
	i, neg := 0, false
	if u[0] == '-' || u[0] == '+' {
		neg, i = u[0] == '-', 1
		if len(u) == 1 {
			return 0, false
		}
	}
	var v int64
	for ; i < len(u); i++ {
		d := JavaDigit(u[i])
		if d < 0 {
			return 0, false
		}
		v = v*10 + int64(d)
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 || v < -1<<31 {
		return 0, false
	}
	return v, true
}

// isJavaDigit is Character#isDigit(char).
func isJavaDigit(c uint16) bool { return JavaDigit(c) >= 0 }

// JavaDigit is Character#digit(char, 10): the value of a Unicode decimal digit (general
// category Nd, whose digits come in runs of ten from zero), -1 for anything else.
func JavaDigit(c uint16) int {
	if c < 0x80 {
		if c >= '0' && c <= '9' {
			return int(c - '0')
		}
		return -1
	}
	for _, r := range unicode.Nd.R16 {
		if c < r.Lo {
			return -1
		}
		if c <= r.Hi {
			return int(c-r.Lo) % 10
		}
	}
	return -1
}

// LenientCalendarMillis is the local time (epoch milliseconds read as UTC, before the zone's
// offset is taken off) a lenient java.util.GregorianCalendar computes from the year, 0-based
// month, day of month and time fields after Calendar#clear, as GregorianCalendar#computeTime:
// the time of day counted into days, months beyond the year into years, days beyond the month
// on; the date counted in the Gregorian calendar from 1582-10-15 on (for a year after 1582, or
// 1582 itself when the date lands there), else in the Julian calendar.
func LenientCalendarMillis(year, month, day, hour, minute, second, millis int32) int64 {
	const dayMillis = 86_400_000
	tod := ((int64(hour)*60+int64(minute))*60+int64(second))*1000 + int64(millis)
	carry := tod / dayMillis
	tod %= dayMillis
	for tod < 0 {
		tod += dayMillis
		carry--
	}
	fixed := func(gregorian bool) int64 {
		// GregorianCalendar#getFixedDate: the month folded into the year (int arithmetic).
		y, m := year, month
		if m > 11 {
			y += m / 12
			m %= 12
		} else if m < 0 {
			y += int32(FloorDiv(int64(m), 12))
			m = int32(FloorMod(int64(m), 12))
		}
		first := julianEpochDay(int64(y), int64(m)+1, 1)
		if gregorian {
			first = GregorianEpochDay(int64(y), int64(m)+1, 1)
		}
		return carry + first + int64(day) - 1
	}
	cutoverDay := int64(gregorianCutover / dayMillis)
	days := fixed(false)
	if year >= 1582 {
		if g := fixed(true); g >= cutoverDay {
			days = g
		}
	}
	return days*dayMillis + tod
}
