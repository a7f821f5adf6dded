package expr

import (
	"bytes"
	"math"

	"github.com/sluice-project/sluice/exec/javatime"
)

// The parsing half of DateTimeFormatter#ofPattern for the numeric fields DATE_FORMAT prints
// (y, M, d, H, m, s, S): the printer-parsers ofPattern builds, with adjacent value parsing, in
// strict mode, resolved SMART (java.time.format.Parsed), then Flink's fromTemporalAccessor.

// signStyle is the java.time.format.SignStyle of a number parser.
type signStyle uint8

const (
	signNormal      signStyle = iota // a '-' only
	signNotNegative                  // no sign
	signExceedsPad                   // '+' required beyond the minimum width, '-' allowed
)

// Parsed fields, in the order fromTemporalAccessor reads them.
const (
	fieldYearOfEra = iota
	fieldMonth
	fieldDay
	fieldHour
	fieldMinute
	fieldSecond
	fieldNano
	fieldCount
)

// parseStep is one printer-parser: literal text, or a number (a fraction for S) of a field.
type parseStep struct {
	literal  string
	field    int
	minWidth int
	maxWidth int
	sign     signStyle
	reduced  bool // yy: two digits on the base year 2000
	fraction bool
	// subsequent is the width that adjacent fixed-width fields after this one reserve (> 0),
	// or -1 once this field is made fixed width by a following variable-width one.
	subsequent int
}

// isLiteral says whether the step is literal text (a number is at least one digit wide).
func (st *parseStep) isLiteral() bool { return st.minWidth == 0 }

// timestampPattern is a compiled DateTimeFormatter pattern for TO_TIMESTAMP(s, format).
type timestampPattern struct {
	steps []parseStep
}

// compileTimestampPattern builds the parser DateTimeFormatterBuilder#appendPattern builds for
// the fields of a DATE_FORMAT pattern; day-of-year (D) falls back.
func compileTimestampPattern(fields []formatField, pattern string) (*timestampPattern, error) {
	p := &timestampPattern{}
	active := -1 // the active value parser of adjacent value parsing
	for _, f := range fields {
		if f.letter == 0 {
			p.steps = append(p.steps, parseStep{literal: f.text})
			active = -1
			continue
		}
		var s parseStep
		switch f.letter {
		case 'y':
			switch {
			case f.width == 2:
				s = parseStep{field: fieldYearOfEra, minWidth: 2, maxWidth: 2, sign: signNotNegative, reduced: true}
			case f.width < 4:
				s = parseStep{field: fieldYearOfEra, minWidth: f.width, maxWidth: 19, sign: signNormal}
			default:
				s = parseStep{field: fieldYearOfEra, minWidth: f.width, maxWidth: 19, sign: signExceedsPad}
			}
		case 'M', 'd', 'H', 'm', 's':
			s.field = map[byte]int{'M': fieldMonth, 'd': fieldDay, 'H': fieldHour, 'm': fieldMinute, 's': fieldSecond}[f.letter]
			if f.width == 1 {
				s.minWidth, s.maxWidth, s.sign = 1, 19, signNormal
			} else {
				s.minWidth, s.maxWidth, s.sign = 2, 2, signNotNegative
			}
		case 'S':
			s = parseStep{field: fieldNano, minWidth: f.width, maxWidth: f.width, sign: signNotNegative, fraction: true}
		default:
			return nil, unsupported("TO_TIMESTAMP pattern %q: %s is not parsed natively yet", pattern, repeatByte(f.letter, f.width))
		}
		// DateTimeFormatterBuilder#appendValue(NumberPrinterParser).
		if active >= 0 {
			if s.minWidth == s.maxWidth && s.sign == signNotNegative {
				p.steps[active].subsequent += s.maxWidth
				s.subsequent = -1
				p.steps = append(p.steps, s)
				continue
			}
			p.steps[active].subsequent = -1
		}
		active = len(p.steps)
		p.steps = append(p.steps, s)
	}
	return p, nil
}

// parseOutcome says how TO_TIMESTAMP(s, format) ends for one string.
type parseOutcome uint8

const (
	parsedOK        parseOutcome = iota
	parseFailed                  // a DateTimeParseException: Flink tries Timestamp/Date.valueOf
	parseUnreadable              // another DateTimeException in fromTemporalAccessor: NULL
)

// timestamp is DateTimeUtils#parseTimestampData(s, format) as a TIMESTAMP(3)'s epoch
// milliseconds, ok false for NULL (null or an exception). scratch is reused by the fallback for
// strings like '1999-9-10 05:20:10' or '1999-9-10': java.sql.Timestamp#valueOf or Date#valueOf
// of the trimmed string.
func (p *timestampPattern) timestamp(s []byte, scratch []uint16) (ms int64, ok bool, _ []uint16) {
	t, outcome := p.parse(s)
	if outcome == parseFailed {
		if s = javatime.Trim(s); bytes.IndexByte(s, ' ') >= 0 {
			t, ok, scratch = javatime.SQLTimestamp(s, scratch)
		} else {
			t, ok, scratch = javatime.SQLDate(s, scratch)
		}
		if ok {
			outcome = parsedOK
		}
	}
	if outcome != parsedOK {
		return 0, false, scratch
	}
	ms, _ = t.EpochMillis()
	return ms, true, scratch
}

// parse is DateTimeUtils#parseTimestampData(s, format)'s first attempt: the formatter's parse,
// SMART resolution, then fromTemporalAccessor at precision 3.
func (p *timestampPattern) parse(s []byte) (javatime.DateTime, parseOutcome) {
	var vals [fieldCount]int64
	var set [fieldCount]bool
	pos := 0
	for i := range p.steps {
		st := &p.steps[i]
		if st.isLiteral() {
			if len(s)-pos < len(st.literal) || string(s[pos:pos+len(st.literal)]) != st.literal {
				return javatime.DateTime{}, parseFailed
			}
			pos += len(st.literal)
			continue
		}
		var v int64
		var ok bool
		if st.fraction {
			v, pos, ok = st.parseFraction(s, pos)
		} else {
			v, pos, ok = st.parseNumber(s, pos)
		}
		if !ok {
			return javatime.DateTime{}, parseFailed
		}
		// DateTimeParseContext#setParsedField: a field parsed twice must agree.
		if set[st.field] && vals[st.field] != v {
			return javatime.DateTime{}, parseFailed
		}
		vals[st.field], set[st.field] = v, true
	}
	if pos != len(s) {
		return javatime.DateTime{}, parseFailed
	}
	return resolveParsed(vals, set)
}

// parseNumber is NumberPrinterParser#parse (and ReducedPrinterParser's value) in strict mode.
func (st *parseStep) parseNumber(s []byte, pos int) (int64, int, bool) {
	n := len(s)
	if pos == n {
		return 0, pos, false
	}
	negative, positive := false, false
	switch s[pos] {
	case '+':
		if st.sign != signExceedsPad {
			return 0, pos, false
		}
		positive = true
		pos++
	case '-':
		if st.sign == signNotNegative {
			return 0, pos, false
		}
		negative = true
		pos++
	}
	start := pos
	effMax := st.maxWidth + max(st.subsequent, 0)
	minEnd := start + st.minWidth
	if minEnd > n {
		return 0, pos, false
	}
	var total uint64
	big := false // more than 19 digits in the first pass, which the second pass discards
	for pass := 0; pass < 2; pass++ {
		maxEnd := min(pos+effMax, n)
		for pos < maxEnd {
			c := s[pos]
			pos++
			if c < '0' || c > '9' {
				pos--
				if pos < minEnd {
					return 0, pos, false
				}
				break
			}
			if total > (math.MaxUint64-9)/10 {
				big = true
			}
			total = total*10 + uint64(c-'0')
		}
		if st.subsequent > 0 && pass == 0 {
			effMax = max(st.minWidth, pos-start-st.subsequent)
			pos, total, big = start, 0, false
			continue
		}
		break
	}
	if big || total > math.MaxInt64 {
		// BigInteger beyond 63 bits: one digit fewer (19 digits at most are left here).
		total /= 10
		pos--
	}
	v := int64(total)
	if negative {
		if v == 0 {
			return 0, pos, false // strict: no "-0"
		}
		v = -v
	} else if st.sign == signExceedsPad {
		parsed := pos - start
		if positive && parsed <= st.minWidth || !positive && parsed > st.minWidth {
			return 0, pos, false
		}
	}
	if st.reduced && pos-start == st.minWidth && v >= 0 {
		v += 2000 // ReducedPrinterParser on the base date 2000-01-01: 00..99 are 2000..2099
	}
	return v, pos, true
}

// parseFraction is FractionPrinterParser#parse (JDK 17) of a fixed width without a decimal
// point, in strict mode: exactly width digits.
func (st *parseStep) parseFraction(s []byte, pos int) (int64, int, bool) {
	n := len(s)
	if pos == n || pos+st.minWidth > n {
		return 0, pos, false
	}
	start, minEnd, maxEnd := pos, pos+st.minWidth, min(pos+st.maxWidth, n)
	var total int64
	for pos < maxEnd {
		c := s[pos]
		pos++
		if c < '0' || c > '9' {
			if pos <= minEnd {
				return 0, start, false
			}
			pos--
			break
		}
		total = total*10 + int64(c-'0')
	}
	return total * powersOf10[9-(pos-start)], pos, true
}

// resolveParsed is Parsed#resolve (SMART, ISO chronology, no zone) followed by Flink's
// fromTemporalAccessor(accessor, 3).
func resolveParsed(vals [fieldCount]int64, set [fieldCount]bool) (javatime.DateTime, parseOutcome) {
	fail := func() (javatime.DateTime, parseOutcome) { return javatime.DateTime{}, parseFailed }
	// IsoChronology#resolveYearOfEra: no era, so the year of era is the year (1 to 10^9).
	year, hasYear := vals[fieldYearOfEra], set[fieldYearOfEra]
	if hasYear && (year < 1 || year > 1_000_000_000) {
		return fail()
	}
	month, hasMonth := vals[fieldMonth], set[fieldMonth]
	day, hasDay := vals[fieldDay], set[fieldDay]
	dateResolved := hasYear && hasMonth && hasDay
	if dateResolved {
		// resolveYMD: checked ranges, then a day beyond the month's end is its last day.
		if year > 999_999_999 || month < 1 || month > 12 || day < 1 || day > 31 {
			return fail()
		}
		day = min(day, javatime.DaysInMonth(year, month))
	}
	// resolveTimeLenient: an hour with what can be defaulted becomes a LocalTime; then every
	// time field left is checked against its range.
	hour, minute, second, nano := vals[fieldHour], vals[fieldMinute], vals[fieldSecond], vals[fieldNano]
	hasH, hasM, hasS, hasN := set[fieldHour], set[fieldMinute], set[fieldSecond], set[fieldNano]
	excessDay := false
	timeResolved := hasH && !(!hasM && (hasS || hasN)) && !(hasM && !hasS && hasN)
	if timeResolved {
		if minute < 0 || minute > 59 || nano < 0 || nano > 999_999_999 {
			return fail()
		}
		if hour == 24 && minute == 0 && second == 0 && nano == 0 {
			hour, excessDay = 0, true // 24:00 is the end of the day
		} else if hour < 0 || hour > 23 || second < 0 || second > 59 {
			return fail()
		}
	} else if hasH {
		// An hour with a second but no minute (or a fraction but no second) stays unresolved
		// and, as resolveTimeLenient returns early, unchecked: TemporalAccessor#get fails on it.
		if hour < 0 || hour > 23 || hasM && (minute < 0 || minute > 59) || hasS && (second < 0 || second > 59) {
			return javatime.DateTime{}, parseUnreadable
		}
	} else if hasM && (minute < 0 || minute > 59) || hasS && (second < 0 || second > 59) {
		return fail()
	}
	// fromTemporalAccessor: TemporalAccessor#get checks an unresolved field against its range
	// (a DateTimeException that Flink does not catch as a parse failure), then LocalDateTime#of.
	if !hasYear {
		year = 1970
	} else if !dateResolved && year > 999_999_999 {
		return javatime.DateTime{}, parseUnreadable
	}
	if !hasMonth {
		month = 1
	} else if !dateResolved && (month < 1 || month > 12) {
		return javatime.DateTime{}, parseUnreadable
	}
	if !hasDay {
		day = 1
	} else if !dateResolved && (day < 1 || day > 31) {
		return javatime.DateTime{}, parseUnreadable
	}
	if day > javatime.DaysInMonth(year, month) {
		return javatime.DateTime{}, parseUnreadable
	}
	t := javatime.DateTime{Year: year, Month: month, Day: day, Hour: hour, Minute: minute, Second: second, Nano: nano / 1_000_000 * 1_000_000}
	if excessDay && dateResolved {
		// Parsed#resolvePeriod: the day after (only when a date was resolved); LocalDate#plus
		// beyond its last day throws, which the formatter reports as a parse failure.
		if year == 999_999_999 && month == 12 && day == 31 {
			return fail()
		}
		t.Year, t.Month, t.Day = javatime.GregorianDate(t.EpochDay() + 1)
	}
	return t, parsedOK
}
