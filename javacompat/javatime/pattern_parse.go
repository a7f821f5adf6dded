package javatime

import (
	"bytes"
	"math"
	"sort"
	"time"
)

// The parsing half of DateTimeFormatter#ofPattern for TO_TIMESTAMP(s, format): the
// printer-parsers ofPattern builds, with adjacent value parsing, in strict mode, resolved SMART
// (java.time.format.Parsed, IsoChronology), then Flink's fromTemporalAccessor.

// signStyle is the java.time.format.SignStyle of a number parser.
type signStyle uint8

const (
	signNormal      signStyle = iota // a '-' only
	signNotNegative                  // no sign
	signExceedsPad                   // '+' required beyond the minimum width, '-' allowed
)

// The ChronoFields a pattern parses (YEAR also comes from resolving a year-of-era).
const (
	fieldYearOfEra       = iota // y
	fieldYear                   // u
	fieldEra                    // G: 0 BC, 1 AD
	fieldMonth                  // M, L
	fieldDay                    // d
	fieldDayOfWeek              // E: 1 Monday .. 7 Sunday
	fieldHour                   // H
	fieldClockHourOfDay         // k: 1..24
	fieldHourOfAmPm             // K: 0..11
	fieldClockHourOfAmPm        // h: 1..12
	fieldAmPm                   // a: 0 AM, 1 PM
	fieldMinute                 // m
	fieldSecond                 // s
	fieldNano                   // S
	fieldCount
)

// numericFields are the pattern letters parsed as numbers, with their field.
var numericFields = map[byte]int{'M': fieldMonth, 'L': fieldMonth, 'd': fieldDay, 'H': fieldHour, 'k': fieldClockHourOfDay,
	'K': fieldHourOfAmPm, 'h': fieldClockHourOfAmPm, 'm': fieldMinute, 's': fieldSecond}

func isNumericField(letter byte) bool {
	_, ok := numericFields[letter]
	return ok
}

// parseStep is one printer-parser: literal text, a number (a fraction for S) of a field, or one
// of a field's texts.
type parseStep struct {
	literal  string
	field    int
	minWidth int
	maxWidth int
	sign     signStyle
	reduced  bool // yy, uu: two digits on the base year 2000
	fraction bool
	texts    []fieldText // a text field (minWidth 1)
	// subsequent is the width that adjacent fixed-width fields after this one reserve (> 0),
	// or -1 once this field is made fixed width by a following variable-width one.
	subsequent int
}

// fieldText is one of a text field's names and the value it stands for.
type fieldText struct {
	text  string
	value int64
}

// isLiteral says whether the step is literal text (a number is at least one digit wide).
func (st *parseStep) isLiteral() bool { return st.minWidth == 0 }

// Parser is a compiled DateTimeFormatter pattern for TO_TIMESTAMP(s, format).
type Parser struct {
	steps []parseStep
}

// CompileParser compiles a DateTimeFormatter#ofPattern pattern for TO_TIMESTAMP(s, format)
// in the JVM's format locale (english: English), or says why it is not parsed natively.
func CompileParser(pattern string, english bool) (*Parser, error) {
	fields, err := parseJavaParsePattern(pattern, english)
	if err != nil {
		return nil, err
	}
	return compileTimestampPattern(fields, pattern)
}

// parseJavaParsePattern compiles the subset of DateTimeFormatter#ofPattern that TO_TIMESTAMP
// parses: that of CompilePattern, u, h, K, k and L as numbers and, with english, month and day
// names (MMM, MMMM, LLL, LLLL, E..EEEE), AM/PM (a) and eras (G..GGGG) in the JVM's English
// format locale.
func parseJavaParsePattern(p string, english bool) ([]formatField, error) {
	return compileJavaPattern(p, func(p string, c byte, n int) error {
		if checkPatternLetter(p, c, n) == nil {
			return nil
		}
		ok := false
		switch c {
		case 'u':
			ok = n <= 19
		case 'h', 'K', 'k', 'L':
			ok = n <= 2 || c == 'L' && english && n <= 4
		case 'M', 'E', 'G':
			ok = english && n <= 4 // MMMMM, EEEEE and GGGGG are narrow names, several alike
		case 'a':
			ok = english && n == 1
		}
		return letterVerdict(p, c, n, ok, english, "MLEGa", "parses", "parsed")
	})
}

// compileTimestampPattern builds the parser DateTimeFormatterBuilder#appendPattern builds for
// the fields of parseJavaParsePattern; day-of-year (D) falls back.
func compileTimestampPattern(fields []formatField, pattern string) (*Parser, error) {
	p := &Parser{}
	active := -1 // the active value parser of adjacent value parsing
	for _, f := range fields {
		if f.letter == 0 {
			p.steps = append(p.steps, parseStep{literal: f.text})
			active = -1
			continue
		}
		var s parseStep
		switch {
		case f.letter == 'y' || f.letter == 'u':
			field := fieldYearOfEra
			if f.letter == 'u' {
				field = fieldYear
			}
			switch {
			case f.width == 2:
				s = parseStep{field: field, minWidth: 2, maxWidth: 2, sign: signNotNegative, reduced: true}
			case f.width < 4:
				s = parseStep{field: field, minWidth: f.width, maxWidth: 19, sign: signNormal}
			default:
				s = parseStep{field: field, minWidth: f.width, maxWidth: 19, sign: signExceedsPad}
			}
		case f.letter == 'S':
			s = parseStep{field: fieldNano, minWidth: f.width, maxWidth: f.width, sign: signNotNegative, fraction: true}
		case f.width <= 2 && isNumericField(f.letter):
			s.field = numericFields[f.letter]
			if f.width == 1 {
				s.minWidth, s.maxWidth, s.sign = 1, 19, signNormal
			} else {
				s.minWidth, s.maxWidth, s.sign = 2, 2, signNotNegative
			}
		default:
			texts, field := textsOf(f)
			if texts == nil {
				return nil, unsupportedf("TO_TIMESTAMP pattern %q: %s is not parsed natively yet", pattern, repeatByte(f.letter, f.width))
			}
			// DateTimeFormatterBuilder#appendText ends adjacent value parsing as literals do.
			p.steps = append(p.steps, parseStep{field: field, minWidth: 1, texts: texts})
			active = -1
			continue
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

// textsOf gives the names a text field of an English format locale parses (TextStyle SHORT
// for widths up to 3, FULL for 4; the standalone month names are the same), longest first as
// DateTimeTextProvider sorts them, or nil for a letter that is not a text field.
func textsOf(f formatField) ([]fieldText, int) {
	var texts []fieldText
	var field int
	name := func(full string) string { return string(appendName(nil, full, max(f.width, 3))) }
	switch f.letter {
	case 'M', 'L':
		field = fieldMonth
		for m := time.January; m <= time.December; m++ {
			texts = append(texts, fieldText{name(m.String()), int64(m)})
		}
	case 'E':
		field = fieldDayOfWeek
		for d := int64(1); d <= 7; d++ { // ISO: 1 Monday .. 7 Sunday
			texts = append(texts, fieldText{name(time.Weekday(d % 7).String()), d})
		}
	case 'a':
		field = fieldAmPm
		texts = []fieldText{{"AM", 0}, {"PM", 1}}
	case 'G':
		field = fieldEra
		texts = []fieldText{{string(appendEra(nil, false, f.width)), 0}, {string(appendEra(nil, true, f.width)), 1}}
	default:
		return nil, 0
	}
	sort.SliceStable(texts, func(i, j int) bool { return len(texts[i].text) > len(texts[j].text) })
	return texts, field
}

// parseOutcome says how TO_TIMESTAMP(s, format) ends for one string.
type parseOutcome uint8

const (
	parsedOK        parseOutcome = iota
	parseFailed                  // a DateTimeParseException: Flink tries Timestamp/Date.valueOf
	parseUnreadable              // another DateTimeException in fromTemporalAccessor: NULL
)

// Timestamp is DateTimeUtils#parseTimestampData(s, format) as a TIMESTAMP(3)'s epoch
// milliseconds, ok false for NULL (null or an exception). scratch is reused by the fallback for
// strings like '1999-9-10 05:20:10' or '1999-9-10': java.sql.Timestamp#valueOf or Date#valueOf
// of the trimmed string.
func (p *Parser) Timestamp(s []byte, scratch []uint16) (ms int64, ok bool, _ []uint16) {
	t, outcome := p.parse(s)
	if outcome == parseFailed {
		if s = Trim(s); bytes.IndexByte(s, ' ') >= 0 {
			t, ok, scratch = SQLTimestamp(s, scratch)
		} else {
			t, ok, scratch = SQLDate(s, scratch)
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
func (p *Parser) parse(s []byte) (DateTime, parseOutcome) {
	var f parsedFields
	pos := 0
	for i := range p.steps {
		st := &p.steps[i]
		if st.isLiteral() {
			if len(s)-pos < len(st.literal) || string(s[pos:pos+len(st.literal)]) != st.literal {
				return DateTime{}, parseFailed
			}
			pos += len(st.literal)
			continue
		}
		var v int64
		var ok bool
		switch {
		case st.texts != nil:
			v, pos, ok = st.parseText(s, pos)
		case st.fraction:
			v, pos, ok = st.parseFraction(s, pos)
		default:
			v, pos, ok = st.parseNumber(s, pos)
		}
		// DateTimeParseContext#setParsedField: a field parsed twice must agree.
		if !ok || !f.put(st.field, v) {
			return DateTime{}, parseFailed
		}
	}
	if pos != len(s) {
		return DateTime{}, parseFailed
	}
	return f.resolve()
}

// parseText is TextPrinterParser#parse in strict mode: the first (longest) of the field's
// texts that the string goes on with, compared case-sensitively; no number in its place.
func (st *parseStep) parseText(s []byte, pos int) (int64, int, bool) {
	for _, t := range st.texts {
		if len(s)-pos >= len(t.text) && string(s[pos:pos+len(t.text)]) == t.text {
			return t.value, pos + len(t.text), true
		}
	}
	return 0, pos, false
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
	if big || total > math.MaxInt64 && !(negative && total == 1<<63) {
		// BigInteger beyond 63 bits (after its sign: -2^63 fits): one digit fewer (19 digits
		// at most are left here).
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
	return total * PowersOf10[9-(pos-start)], pos, true
}

// parsedFields is the field-value map of java.time.format.Parsed.
type parsedFields struct {
	v   [fieldCount]int64
	has [fieldCount]bool
}

// put sets a field, false when it holds another value (Parsed#updateCheckConflict,
// AbstractChronology#addFieldValue).
func (f *parsedFields) put(field int, v int64) bool {
	if f.has[field] && f.v[field] != v {
		return false
	}
	f.v[field], f.has[field] = v, true
	return true
}

// remove takes a field out of the map.
func (f *parsedFields) remove(field int) (int64, bool) {
	v, ok := f.v[field], f.has[field]
	f.has[field] = false
	return v, ok
}

// read is TemporalAccessor#get of an unresolved field into to (left as it is when the field
// was not parsed): false where the value is out of the field's range.
func (f *parsedFields) read(field int, to *int64) bool {
	if !f.has[field] {
		return true
	}
	if !inRange(field, f.v[field]) {
		return false
	}
	*to = f.v[field]
	return true
}

// fieldRanges are the ChronoField ranges ChronoField#checkValidValue and
// TemporalAccessor#get check.
var fieldRanges = [fieldCount][2]int64{
	fieldYearOfEra:       {1, 1_000_000_000},
	fieldYear:            {-999_999_999, 999_999_999},
	fieldEra:             {0, 1},
	fieldMonth:           {1, 12},
	fieldDay:             {1, 31},
	fieldDayOfWeek:       {1, 7},
	fieldHour:            {0, 23},
	fieldClockHourOfDay:  {1, 24},
	fieldHourOfAmPm:      {0, 11},
	fieldClockHourOfAmPm: {1, 12},
	fieldAmPm:            {0, 1},
	fieldMinute:          {0, 59},
	fieldSecond:          {0, 59},
	fieldNano:            {0, 999_999_999},
}

func inRange(field int, v int64) bool {
	return fieldRanges[field][0] <= v && v <= fieldRanges[field][1]
}

// resolvedTime is Parsed's time and excess days (24:00 is midnight and a day more).
type resolvedTime struct {
	hour, minute, second, nano int64
	set, excessDay             bool
}

// resolveTime is Parsed#resolveTime in SMART mode: false where LocalTime#of or a range check
// throws.
func (t *resolvedTime) resolveTime(hour, minute, second, nano int64) bool {
	if !inRange(fieldMinute, minute) || !inRange(fieldNano, nano) {
		return false
	}
	if hour == 24 && minute == 0 && second == 0 && nano == 0 {
		*t = resolvedTime{set: true, excessDay: true}
		return true
	}
	if !inRange(fieldHour, hour) || !inRange(fieldSecond, second) {
		return false
	}
	*t = resolvedTime{hour: hour, minute: minute, second: second, nano: nano, set: true}
	return true
}

// resolve is Parsed#resolve (SMART, ISO chronology, no zone) followed by Flink's
// fromTemporalAccessor(accessor, 3). Any DateTimeException of the resolve is a parse failure
// (DateTimeFormatter#parse wraps it); one of fromTemporalAccessor is not.
func (f *parsedFields) resolve() (DateTime, parseOutcome) {
	fail := func() (DateTime, parseOutcome) { return DateTime{}, parseFailed }
	// IsoChronology#resolveYearOfEra: the era, or one invented from the year.
	if yoe, ok := f.remove(fieldYearOfEra); ok {
		if !inRange(fieldYearOfEra, yoe) {
			return fail()
		}
		year := yoe
		if era, ok := f.remove(fieldEra); ok && era == 0 || !ok && f.has[fieldYear] && f.v[fieldYear] <= 0 {
			year = 1 - yoe
		}
		if !f.put(fieldYear, year) {
			return fail()
		}
	}
	// IsoChronology#resolveYMD: checked ranges, then a day beyond the month's end is its last day.
	var date DateTime
	hasDate := f.has[fieldYear] && f.has[fieldMonth] && f.has[fieldDay]
	if hasDate {
		year, _ := f.remove(fieldYear)
		month, _ := f.remove(fieldMonth)
		day, _ := f.remove(fieldDay)
		if !inRange(fieldYear, year) || !inRange(fieldMonth, month) || !inRange(fieldDay, day) {
			return fail()
		}
		date = DateTime{Year: year, Month: month, Day: min(day, DaysInMonth(year, month))}
	}
	// resolveTimeFields: clock hours to hours, AM/PM with the hour of it to the hour of day.
	if ch, ok := f.remove(fieldClockHourOfDay); ok {
		if ch != 0 && !inRange(fieldClockHourOfDay, ch) || !f.put(fieldHour, ch%24) {
			return fail()
		}
	}
	if ch, ok := f.remove(fieldClockHourOfAmPm); ok {
		if ch != 0 && !inRange(fieldClockHourOfAmPm, ch) || !f.put(fieldHourOfAmPm, ch%12) {
			return fail()
		}
	}
	if f.has[fieldAmPm] && f.has[fieldHourOfAmPm] {
		ap, _ := f.remove(fieldAmPm)
		hap, _ := f.remove(fieldHourOfAmPm)
		if !inRange(fieldHourOfAmPm, hap) || !f.put(fieldHour, ap*12+hap) {
			return fail()
		}
	}
	var tm resolvedTime
	if f.has[fieldHour] && f.has[fieldMinute] && f.has[fieldSecond] && f.has[fieldNano] {
		h, _ := f.remove(fieldHour)
		m, _ := f.remove(fieldMinute)
		s, _ := f.remove(fieldSecond)
		n, _ := f.remove(fieldNano)
		if !tm.resolveTime(h, m, s, n) {
			return fail()
		}
	}
	// resolveTimeLenient: AM/PM alone is the middle of its half day; an hour with what can be
	// defaulted becomes a time; an hour with a second or a fraction but no minute, or with a
	// minute and a fraction but no second, stays unresolved and, as it returns early, unchecked.
	checkRest := true
	if !tm.set {
		if !f.has[fieldHour] && !f.has[fieldMinute] && !f.has[fieldSecond] && !f.has[fieldNano] && f.has[fieldAmPm] {
			ap, _ := f.remove(fieldAmPm)
			tm.resolveTime(ap*12+6, 0, 0, 0)
		}
		if f.has[fieldHour] {
			hasM, hasS, hasN := f.has[fieldMinute], f.has[fieldSecond], f.has[fieldNano]
			if !hasM && (hasS || hasN) || hasM && !hasS && hasN {
				checkRest = false
			} else {
				h, _ := f.remove(fieldHour)
				m, _ := f.remove(fieldMinute)
				s, _ := f.remove(fieldSecond)
				n, _ := f.remove(fieldNano)
				if !tm.resolveTime(h, m, s, n) {
					return fail()
				}
			}
		}
	}
	if checkRest {
		for _, field := range [...]int{fieldHour, fieldHourOfAmPm, fieldAmPm, fieldMinute, fieldSecond, fieldNano} {
			if f.has[field] && !inRange(field, f.v[field]) {
				return fail()
			}
		}
	}
	// crossCheck: fields left over must agree with the date and the time.
	if hasDate {
		if era, ok := f.remove(fieldEra); ok && (era == 1) != (date.Year >= 1) {
			return fail()
		}
		if dow, ok := f.remove(fieldDayOfWeek); ok && dow != FloorMod(date.EpochDay()+3, 7)+1 {
			return fail()
		}
	}
	if tm.set {
		if ap, ok := f.remove(fieldAmPm); ok && ap != tm.hour/12 {
			return fail()
		}
		if hap, ok := f.remove(fieldHourOfAmPm); ok && hap != tm.hour%12 {
			return fail()
		}
	}
	// fromTemporalAccessor: resolved values, else unresolved fields through TemporalAccessor#get
	// (a range check whose DateTimeException Flink does not read as a parse failure), else
	// 1970-01-01 00:00; then LocalDateTime#of.
	t := DateTime{Year: 1970, Month: 1, Day: 1}
	if hasDate {
		t.Year, t.Month, t.Day = date.Year, date.Month, date.Day
	} else if !f.read(fieldYear, &t.Year) || !f.read(fieldMonth, &t.Month) || !f.read(fieldDay, &t.Day) {
		return DateTime{}, parseUnreadable
	}
	if tm.set {
		t.Hour, t.Minute, t.Second, t.Nano = tm.hour, tm.minute, tm.second, tm.nano
	} else if !f.read(fieldHour, &t.Hour) || !f.read(fieldMinute, &t.Minute) || !f.read(fieldSecond, &t.Second) || !f.read(fieldNano, &t.Nano) {
		return DateTime{}, parseUnreadable
	}
	if t.Day > DaysInMonth(t.Year, t.Month) {
		return DateTime{}, parseUnreadable
	}
	t.Nano = t.Nano / 1_000_000 * 1_000_000
	if tm.excessDay && hasDate {
		// Parsed#resolvePeriod: the day after (only when a date was resolved); LocalDate#plus
		// beyond its last day throws, which the formatter reports as a parse failure.
		if t.Year == 999_999_999 && t.Month == 12 && t.Day == 31 {
			return fail()
		}
		t.Year, t.Month, t.Day = GregorianDate(t.EpochDay() + 1)
	}
	return t, parsedOK
}

// PowersOf10 holds 10^0 .. 10^9: the scales between seconds, fractions and nanoseconds.
var PowersOf10 = [10]int64{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000}
