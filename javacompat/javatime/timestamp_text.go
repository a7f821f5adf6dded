package javatime

// DateTime is a local date-time as java.time.LocalDateTime holds it (proleptic Gregorian).
type DateTime struct {
	Year, Month, Day     int64
	Hour, Minute, Second int64
	Nano                 int64
}

// EpochDay is LocalDate#toEpochDay: days since 1970-01-01 of the date part.
func (t DateTime) EpochDay() int64 { return GregorianEpochDay(t.Year, t.Month, t.Day) }

// EpochMillis is TimestampData#fromLocalDateTime: the epoch milliseconds (Java long arithmetic,
// wrapping for years beyond about 292 million) and the nanoseconds of the millisecond.
func (t DateTime) EpochMillis() (ms, nanoOfMilli int64) {
	nanoOfDay := ((t.Hour*60+t.Minute)*60+t.Second)*1_000_000_000 + t.Nano
	return t.EpochDay()*86_400_000 + nanoOfDay/1_000_000, nanoOfDay % 1_000_000
}

// maxYear is the largest year of java.time (Year.MAX_VALUE, also YEAR_OF_ERA's maximum).
const maxYear = 999_999_999

// ParseTimestampText parses a string as Flink's DateTimeUtils#parseTimestampData does:
// DEFAULT_TIMESTAMP_FORMATTER ("yyyy-[MM][M]-[dd][d]", then optionally
// " [HH][H]:[mm][m]:[ss][s]" and a fraction of up to 9 digits after a '.'), strict and
// case-sensitive, resolved SMART, then fromTemporalAccessor's defaults (a missing month or day
// is 1, a missing time field 0). It reproduces the formatter's quirks: a two-digit field may be
// followed by more digits of the same value ("2024-011-05" is January 5), a day beyond its
// month is clamped ("2023-02-31" is February 28), "24:00:00" is midnight of the next day, and
// a time whose minute is missing keeps the fields that were parsed. ok is false where Java
// throws (a DateTimeParseException or a DateTimeException).
func ParseTimestampText(s []byte) (t DateTime, ok bool) {
	p := textParser{s: s}
	year, ok := p.year()
	if !ok || !p.literal('-') {
		return t, false
	}
	month := p.twoThenAny()
	if !p.literal('-') {
		return t, false
	}
	day := p.twoThenAny()
	var clock timeFields
	if mark := p.pos; !p.timeSection(&clock) {
		// The optional section did not match: its position and fields are dropped.
		p.pos, clock = mark, timeFields{}
	}
	if p.pos != len(s) {
		return t, false
	}
	return resolve(year, month, day, clock)
}

// parsedField is one value the formatter parsed, if it parsed one.
type parsedField struct {
	v   int64
	set bool
}

// timeFields are the fields of the optional time section.
type timeFields struct {
	hour, minute, second, nano parsedField
}

// textParser walks a string as DateTimeFormatter's printer-parsers do.
type textParser struct {
	s   []byte
	pos int
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// literal matches one character (CharLiteralPrinterParser, case-sensitive).
func (p *textParser) literal(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// timeSection parses " [HH][H]:[mm][m]:[ss][s]" and the fraction; false when a literal of it
// does not match (the optional section then fails as a whole).
func (p *textParser) timeSection(f *timeFields) bool {
	if !p.literal(' ') {
		return false
	}
	f.hour = p.twoThenAny()
	if !p.literal(':') {
		return false
	}
	f.minute = p.twoThenAny()
	if !p.literal(':') {
		return false
	}
	f.second = p.twoThenAny()
	f.nano = p.fraction()
	return true
}

// year parses "yyyy": YEAR_OF_ERA with at least 4 digits and SignStyle.EXCEEDS_PAD, so exactly
// four digits without a sign or more than four after a '+'. A '-' (a negative year of era, or
// minus zero) and year 0 fail when the year of era is resolved, so they fail here.
func (p *textParser) year() (int64, bool) {
	s, pos := p.s, p.pos
	if pos >= len(s) {
		return 0, false
	}
	if s[pos] == '-' {
		return 0, false
	}
	plus := s[pos] == '+'
	if plus {
		pos++
	}
	start := pos
	var v int64
	for pos < len(s) && pos-start < 19 && isDigit(s[pos]) {
		if v <= maxYear {
			v = v*10 + int64(s[pos]-'0')
		}
		pos++
	}
	n := pos - start
	if n < 4 || (plus && n <= 4) || (!plus && n > 4) || v < 1 || v > maxYear {
		return 0, false
	}
	p.pos = pos
	return v, true
}

// twoThenAny parses "[XX][X]": an optional field of exactly two digits, then an optional field
// of the same value with SignStyle.NORMAL (a '-' allowed, 1 to 19 digits). When both parse, the
// second must give the same value (else the conflict drops the second section); when only the
// second parses, its value (possibly negative) is the field's.
func (p *textParser) twoThenAny() parsedField {
	var f parsedField
	s := p.s
	if p.pos+2 <= len(s) && isDigit(s[p.pos]) && isDigit(s[p.pos+1]) {
		f = parsedField{int64(s[p.pos]-'0')*10 + int64(s[p.pos+1]-'0'), true}
		p.pos += 2
	}
	if v, end, ok := p.number(); ok && (!f.set || v == f.v) {
		f = parsedField{v, true}
		p.pos = end
	}
	return f
}

// number is NumberPrinterParser(field, 1, 19, NORMAL) in strict mode at the current position:
// an optional '-' (not '+'), then 1 to 19 digits; minus zero fails. Values of 19 digits are
// beyond every field's range, so their exact value does not matter: they are MaxInt64.
func (p *textParser) number() (v int64, end int, ok bool) {
	s, pos := p.s, p.pos
	if pos >= len(s) || s[pos] == '+' {
		return 0, 0, false
	}
	neg := s[pos] == '-'
	if neg {
		pos++
	}
	start := pos
	for pos < len(s) && pos-start < 19 && isDigit(s[pos]) {
		if pos-start < 18 {
			v = v*10 + int64(s[pos]-'0')
		} else {
			v = 1<<63 - 1
		}
		pos++
	}
	if pos == start || (neg && v == 0) {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, pos, true
}

// fraction is appendFraction(NANO_OF_SECOND, 0, 9, true): nothing without a '.', else the '.'
// and up to 9 digits (none is zero nanoseconds).
func (p *textParser) fraction() parsedField {
	if p.pos >= len(p.s) || p.s[p.pos] != '.' {
		return parsedField{}
	}
	p.pos++
	start := p.pos
	var v int64
	for p.pos < len(p.s) && p.pos-start < 9 && isDigit(p.s[p.pos]) {
		v = v*10 + int64(p.s[p.pos]-'0')
		p.pos++
	}
	for i := p.pos - start; i < 9; i++ {
		v *= 10
	}
	return parsedField{v, true}
}

// within reports whether an unset field or a set one within [lo, hi].
func within(f parsedField, lo, hi int64) bool { return !f.set || f.v >= lo && f.v <= hi }

// resolve is the SMART resolution of the parsed fields (java.time.format.Parsed) followed by
// DateTimeUtils#fromTemporalAccessor.
func resolve(year int64, month, day parsedField, c timeFields) (DateTime, bool) {
	t := DateTime{Year: year, Month: 1, Day: 1}
	// Fields that stay unresolved are range-checked when fromTemporalAccessor reads them.
	if !within(month, 1, 12) || !within(day, 1, 31) {
		return t, false
	}
	if month.set {
		t.Month = month.v
	}
	if day.set {
		t.Day = day.v
	}
	// Year, month and day together resolve to a date (IsoChronology#resolveYMD): SMART clamps
	// the day to the month's length.
	dateResolved := month.set && day.set
	if dateResolved {
		t.Day = min(t.Day, DaysInMonth(t.Year, t.Month))
	}
	h, m, sec, ns := c.hour, c.minute, c.second, c.nano
	nextDay := false
	if h.set && !(!m.set && (sec.set || ns.set)) && !(m.set && !sec.set && ns.set) {
		// Parsed#resolveTime (SMART), missing fields 0; 24:00 is the end of the day.
		if !within(m, 0, 59) || !within(ns, 0, 999_999_999) {
			return t, false
		}
		if h.v == 24 && m.v == 0 && sec.v == 0 && ns.v == 0 {
			nextDay = true
		} else if !within(h, 0, 23) || !within(sec, 0, 59) {
			return t, false
		} else {
			t.Hour = h.v
		}
	} else {
		// No time: the parsed fields are read one by one.
		if !within(h, 0, 23) || !within(m, 0, 59) || !within(sec, 0, 59) || !within(ns, 0, 999_999_999) {
			return t, false
		}
		t.Hour = h.v
	}
	t.Minute, t.Second, t.Nano = m.v, sec.v, ns.v
	if nextDay && dateResolved {
		// The excess day moves a resolved date only (Parsed#resolvePeriod).
		if t.Year == maxYear && t.Month == 12 && t.Day == 31 {
			return t, false
		}
		t.Year, t.Month, t.Day = gregorianDate(t.EpochDay() + 1)
	}
	return t, true
}
