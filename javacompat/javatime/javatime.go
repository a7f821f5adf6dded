// Package javatime converts between epoch milliseconds and local date-times exactly as
// java.sql.Timestamp does in a time zone of fixed offset: Flink's Parquet reader and writer go
// through it when 'parquet.utc-timezone' is false, and java.util's hybrid calendar counts dates
// before 1582-10-15 in the Julian calendar.
package javatime

// gregorianCutover is 1582-10-15T00:00:00Z in epoch milliseconds: before it,
// java.sql.Timestamp (which Flink's reader goes through when 'utc-timezone' is false) counts
// dates in the Julian calendar.
const gregorianCutover = -12219292800000

// WallClock is java.sql.Timestamp(ms).toLocalDateTime() in a zone with a fixed offset, as epoch
// milliseconds of the local date-time: the offset added, and before the Gregorian cutover the
// Julian calendar's date read as a proleptic Gregorian date (the hybrid calendar of java.util).
func WallClock(ms, offsetMillis int64) int64 {
	local := ms + offsetMillis
	if local >= gregorianCutover {
		return local
	}
	day := FloorDiv(local, 86_400_000)
	rem := local - day*86_400_000
	y, m, d := julianDate(day)
	return GregorianEpochDay(y, m, d)*86_400_000 + rem
}

// FloorDiv is Math.floorDiv.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// FloorMod is Math.floorMod.
func FloorMod(a, b int64) int64 {
	return a - FloorDiv(a, b)*b
}

// SplitMicros splits epoch microseconds into TimestampData's millisecond and nanoOfMillisecond
// (0..999,000), as TimestampData#fromInstant would.
func SplitMicros(us int64) (ms, nanoOfMilli int64) {
	ms = FloorDiv(us, 1000)
	return ms, (us - ms*1000) * 1000
}

// julianDate returns the Julian-calendar date of an epoch day (days since 1970-01-01 in the
// proleptic Gregorian calendar).
func julianDate(epochDay int64) (y, m, d int64) {
	jdn := epochDay + 2440588 // Julian day number
	c := jdn + 32082
	dd := FloorDiv(4*c+3, 1461)
	e := c - FloorDiv(1461*dd, 4)
	mm := FloorDiv(5*e+2, 153)
	d = e - FloorDiv(153*mm+2, 5) + 1
	m = mm + 3 - 12*FloorDiv(mm, 10)
	y = dd - 4800 + FloorDiv(mm, 10)
	return y, m, d
}

// GregorianEpochDay is LocalDate#toEpochDay: the epoch day of a proleptic Gregorian date.
func GregorianEpochDay(y, m, d int64) int64 {
	a := FloorDiv(14-m, 12)
	yy := y + 4800 - a
	mm := m + 12*a - 3
	jdn := d + FloorDiv(153*mm+2, 5) + 365*yy + FloorDiv(yy, 4) - FloorDiv(yy, 100) + FloorDiv(yy, 400) - 32045
	return jdn - 2440588
}

// InstantOf is java.sql.Timestamp.valueOf(local date-time).getTime() in a zone of fixed offset:
// the local date-time (as epoch milliseconds of its fields) minus the offset, its date read in
// the Julian calendar before 1582-10-15 (java.util's hybrid calendar).
func InstantOf(localMillis, offsetMillis int64) int64 {
	if localMillis >= gregorianCutover {
		return localMillis - offsetMillis
	}
	day := FloorDiv(localMillis, 86_400_000)
	rem := localMillis - day*86_400_000
	y, m, d := gregorianDate(day)
	return julianEpochDay(y, m, d)*86_400_000 + rem - offsetMillis
}

// gregorianDate returns the proleptic Gregorian date of an epoch day.
func gregorianDate(epochDay int64) (y, m, d int64) {
	jdn := epochDay + 2440588
	a := jdn + 32044
	b := FloorDiv(4*a+3, 146097)
	c := a - FloorDiv(146097*b, 4)
	dd := FloorDiv(4*c+3, 1461)
	e := c - FloorDiv(1461*dd, 4)
	mm := FloorDiv(5*e+2, 153)
	d = e - FloorDiv(153*mm+2, 5) + 1
	m = mm + 3 - 12*FloorDiv(mm, 10)
	y = 100*b + dd - 4800 + FloorDiv(mm, 10)
	return y, m, d
}

// GregorianDate is LocalDate#ofEpochDay: the proleptic Gregorian date of an epoch day.
func GregorianDate(epochDay int64) (y, m, d int64) { return gregorianDate(epochDay) }

// julianEpochDay returns the epoch day (proleptic Gregorian count) of a Julian-calendar date.
func julianEpochDay(y, m, d int64) int64 {
	a := FloorDiv(14-m, 12)
	yy := y + 4800 - a
	mm := m + 12*a - 3
	jdn := d + FloorDiv(153*mm+2, 5) + 365*yy + FloorDiv(yy, 4) - 32083
	return jdn - 2440588
}

// LocalMillis is java.sql.Timestamp(ms) with setNanos(nanos), read as a LocalDateTime in a zone
// of fixed offset: the wall clock of the instant's second plus the given fraction.
func LocalMillis(ms, nanos, offsetMillis int64) int64 {
	return WallClock(FloorDiv(ms, 1000)*1000, offsetMillis) + nanos/1_000_000
}

// DaysInMonth is the length of a month of the proleptic Gregorian calendar (the lastDay of
// Flink's DateTimeUtils and Calcite's, with Java's remainder for years before 1).
func DaysInMonth(year, month int64) int64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// CalendarDate is the date java.util.GregorianCalendar shows for an epoch day (days since
// 1970-01-01 of the local clock): Gregorian from 1582-10-15 on, Julian before (years before 1
// as proleptic years: 0 is 1 BC).
func CalendarDate(epochDay int64) (y, m, d int64) {
	if epochDay >= gregorianCutover/86_400_000 {
		return gregorianDate(epochDay)
	}
	return julianDate(epochDay)
}
