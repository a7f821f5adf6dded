package javatext

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// SimpleDate is a java.text.SimpleDateFormat pattern of numeric fields, compiled for parsing as
// SimpleDateFormat#parse(String) parses (lenient, with a locale whose digits, signs and symbols
// are the ROOT/English ones): y (three or more letters: the year as written), M and MM (the
// month number), d, H, m, s, S (the milliseconds as written), quoted text and other characters
// as literals. A pattern needing anything else (two-digit years, which depend on the clock,
// month names, other letters) is refused.
type SimpleDate struct {
	steps []simpleStep
	// HasDate says that the pattern sets the year, the month and the day.
	HasDate bool
}

type simpleStep struct {
	literal string // a literal when field < 0
	field   int
	count   int
	// obey: the next step is a number field, so this one reads at most count characters.
	obey bool
}

// Calendar fields a SimpleDate sets.
const (
	fieldYear = iota
	fieldMonth
	fieldDay
	fieldHour
	fieldMinute
	fieldSecond
	fieldMillisecond
	fieldCount
)

// CalendarFields are the fields SimpleDateFormat#parse sets on its calendar before computing
// the time: Month is 0-based as Calendar#MONTH; fields not in the pattern are 0 (Calendar#clear),
// Year then being 1970.
type CalendarFields struct {
	Year, Month, Day, Hour, Minute, Second, Millisecond int32
}

// CompileSimpleDate compiles pattern as SimpleDateFormat#compile does, for the letters above:
// a quote opens or closes quoted text, two quotes are a literal quote anywhere.
func CompileSimpleDate(pattern string) (*SimpleDate, error) { return compileSimpleDate(pattern, false) }

// CompileSimpleDatePrinter compiles a pattern for Format: as CompileSimpleDate, and the one- and
// two-letter years too (printing them does not depend on the clock).
func CompileSimpleDatePrinter(pattern string) (*SimpleDate, error) {
	return compileSimpleDate(pattern, true)
}

func compileSimpleDate(pattern string, printing bool) (*SimpleDate, error) {
	p := &SimpleDate{}
	var has [fieldCount]bool
	inQuote := false
	var quoted []byte
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'' && i+1 < len(pattern) && pattern[i+1] == '\'':
			// Two quotes are one literal quote, inside quoted text or not.
			if inQuote {
				quoted = append(quoted, '\'')
			} else {
				p.addLiteral("'")
			}
			i += 2
		case c == '\'':
			if inQuote {
				p.addLiteral(string(quoted))
			}
			inQuote, quoted = !inQuote, quoted[:0]
			i++
		case inQuote:
			quoted = append(quoted, c)
			i++
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			n := 1
			for i+n < len(pattern) && pattern[i+n] == c {
				n++
			}
			f := -1
			switch {
			case c == 'y' && (n >= 3 || printing):
				f = fieldYear
			case c == 'M' && n <= 2:
				f = fieldMonth
			case c == 'd':
				f = fieldDay
			case c == 'H':
				f = fieldHour
			case c == 'm':
				f = fieldMinute
			case c == 's':
				f = fieldSecond
			case c == 'S':
				f = fieldMillisecond
			}
			if f < 0 {
				return nil, fmt.Errorf("SimpleDateFormat pattern %q: %s is not parsed natively yet", pattern, pattern[i:i+n])
			}
			if len(p.steps) > 0 && p.steps[len(p.steps)-1].field >= 0 {
				p.steps[len(p.steps)-1].obey = true // shouldObeyCount: every field here is numeric
			}
			p.steps = append(p.steps, simpleStep{field: f, count: n})
			has[f] = true
			i += n
		default:
			// One character, whole (a literal may be any Unicode text).
			_, size := utf8.DecodeRuneInString(pattern[i:])
			p.addLiteral(pattern[i : i+size])
			i += size
		}
	}
	if inQuote {
		return nil, fmt.Errorf("SimpleDateFormat pattern %q: unterminated quote", pattern)
	}
	p.HasDate = has[fieldYear] && has[fieldMonth] && has[fieldDay]
	return p, nil
}

func (p *SimpleDate) addLiteral(s string) {
	if n := len(p.steps); n > 0 && p.steps[n-1].field < 0 {
		p.steps[n-1].literal += s
		return
	}
	p.steps = append(p.steps, simpleStep{literal: s, field: -1})
}

// Parse is SimpleDateFormat#parse(String) up to the calendar: the fields of a string whose
// beginning fits the pattern (trailing text is ignored); ok is false where it throws a
// ParseException. s is decoded as Java decodes a string (an invalid UTF-8 byte is U+FFFD).
func (p *SimpleDate) Parse(s []byte) (f CalendarFields, ok bool) {
	f.Year = 1970
	pos := 0
	for _, st := range p.steps {
		if st.field < 0 {
			if len(s)-pos < len(st.literal) || string(s[pos:pos+len(st.literal)]) != st.literal {
				return f, false
			}
			pos += len(st.literal)
			continue
		}
		// subParse: spaces and tabs before a number are skipped.
		start := pos
		for {
			if pos >= len(s) {
				return f, false
			}
			if s[pos] != ' ' && s[pos] != '\t' {
				break
			}
			pos++
		}
		text := s
		if st.obey {
			// The number is read from text.substring(0, start + count): count chars from the
			// field's start, spaces included.
			end, ok := charsAhead(s, start, st.count)
			if !ok {
				return f, false
			}
			text = s[:end]
		}
		v, next, ok := parseDecimalInt(text, pos)
		if !ok {
			return f, false
		}
		pos = next
		switch st.field {
		case fieldYear:
			f.Year = v
		case fieldMonth:
			f.Month = v - 1
		case fieldDay:
			f.Day = v
		case fieldHour:
			f.Hour = v
		case fieldMinute:
			f.Minute = v
		case fieldSecond:
			f.Second = v
		case fieldMillisecond:
			f.Millisecond = v
		}
	}
	return f, true
}

// Format is SimpleDateFormat#format of calendar fields (a year of the era, a 0-based month):
// literals as they are, each number zero-padded to its letter count (zeroPaddingNumber), a
// two-letter year as its last two digits.
func (p *SimpleDate) Format(dst []byte, f CalendarFields) []byte {
	for _, st := range p.steps {
		var v int32
		switch st.field {
		case -1:
			dst = append(dst, st.literal...)
			continue
		case fieldYear:
			v = f.Year
			if st.count == 2 {
				v %= 100
			}
		case fieldMonth:
			v = f.Month + 1
		case fieldDay:
			v = f.Day
		case fieldHour:
			v = f.Hour
		case fieldMinute:
			v = f.Minute
		case fieldSecond:
			v = f.Second
		case fieldMillisecond:
			v = f.Millisecond
		}
		dst = javatime.AppendPadded(dst, int64(v), st.count)
	}
	return dst
}

// charsAhead is the byte offset n UTF-16 chars after start, ok false when the string is shorter.
func charsAhead(s []byte, start, n int) (int, bool) {
	i := start
	for ; n > 0; n-- {
		if i >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRune(s[i:])
		if r >= 0x10000 {
			n-- // a surrogate pair is two chars
			if n == 0 {
				return 0, false // the cut would split the pair: no digit there anyway
			}
		}
		i += size
	}
	return i, true
}

// parseDecimalInt is DecimalFormat#parse of SimpleDateFormat's integer-only number format (no
// grouping; digits of any Unicode decimal digit range of the Basic Multilingual Plane, an
// optional '-', "NaN", '∞', an exponent after 'E') followed by Number#intValue: a value that
// fits a long keeps its low 32 bits, any other is a double cast to int (saturating, NaN 0).
func parseDecimalInt(s []byte, pos int) (int32, int, bool) {
	if hasPrefixAt(s, pos, "NaN") {
		return 0, pos + 3, true
	}
	neg := false
	if pos < len(s) && s[pos] == '-' {
		neg = true
		pos++
	}
	if hasPrefixAt(s, pos, "∞") {
		if neg {
			return math.MinInt32, pos + len("∞"), true
		}
		return math.MaxInt32, pos + len("∞"), true
	}
	var buf [24]byte
	digits := buf[:0] // without leading zeros; on the stack for any int-sized number
	sawDigit := false
	exponent := int32(0)
	for pos < len(s) {
		r, size := utf8.DecodeRune(s[pos:])
		if d := javaDigit(r); d >= 0 {
			sawDigit = true
			if d > 0 || len(digits) > 0 {
				digits = append(digits, byte('0'+d))
			}
			pos += size
			continue
		}
		if r == 'E' {
			if e, next, ok := parseExponent(s, pos+1); ok {
				exponent, pos = e, next
			}
		}
		break
	}
	if !sawDigit {
		return 0, pos, false
	}
	return intValue(digits, exponent, neg), pos, true
}

// parseExponent reads the exponent after 'E': an optional '-' and digits that fit a long, cast
// to int as DecimalFormat does; ok false leaves the 'E' unread.
func parseExponent(s []byte, pos int) (int32, int, bool) {
	neg := false
	if pos < len(s) && s[pos] == '-' {
		neg = true
		pos++
	}
	var v uint64
	n := 0
	for pos < len(s) {
		r, size := utf8.DecodeRune(s[pos:])
		d := javaDigit(r)
		if d < 0 {
			break
		}
		if v > (math.MaxUint64-9)/10 {
			return 0, 0, false // beyond any long
		}
		v = v*10 + uint64(d)
		n++
		pos += size
	}
	if n == 0 || v > math.MaxInt64 && !(neg && v == 1<<63) {
		return 0, 0, false
	}
	e := int64(v)
	if neg {
		e = -e
	}
	return int32(e), pos, true
}

// intValue is Number#intValue of the number DecimalFormat builds from the digits (no leading
// zeros), the exponent and the sign: DigitList's decimalAt is the digit count plus the
// exponent (int arithmetic) and the value 0.DIGITS × 10^decimalAt; a Long when it is a whole
// number within long range (DigitList#fitsIntoLong), else a Double (DigitList#getDouble).
func intValue(digits []byte, exponent int32, neg bool) int32 {
	decimalAt := int32(len(digits)) + exponent
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	count := int32(len(digits))
	if count == 0 {
		return 0
	}
	fits := decimalAt >= count && decimalAt <= 19
	longMin := false
	if fits && decimalAt == 19 {
		const minRep = "9223372036854775808"
		cmp := 0
		for i := range digits {
			if digits[i] != minRep[i] {
				cmp = int(digits[i]) - int(minRep[i])
				break
			}
		}
		switch {
		case cmp > 0:
			fits = false
		case cmp == 0 && count == decimalAt:
			fits, longMin = neg, neg // Long.MIN_VALUE's digits: only negative fits
		}
	}
	if fits {
		if longMin {
			return 0 // Long.MIN_VALUE#intValue: its low 32 bits are 0
		}
		var v int64
		for _, d := range digits {
			v = v*10 + int64(d-'0')
		}
		for i := count; i < decimalAt; i++ {
			v *= 10
		}
		if neg {
			v = -v
		}
		return int32(v) // Long#intValue: the low 32 bits
	}
	d, _ := strconv.ParseFloat("0."+string(digits)+"E"+strconv.Itoa(int(decimalAt)), 64)
	if neg {
		d = -d
	}
	return DoubleToInt(d)
}

// DoubleToInt is Java's (int) d (Double#intValue): towards zero, saturating, NaN 0.
func DoubleToInt(d float64) int32 {
	switch {
	case d != d:
		return 0
	case d >= math.MaxInt32:
		return math.MaxInt32
	case d <= math.MinInt32:
		return math.MinInt32
	}
	return int32(d)
}

func hasPrefixAt(s []byte, pos int, prefix string) bool {
	return len(s)-pos >= len(prefix) && string(s[pos:pos+len(prefix)]) == prefix
}

// javaDigit is Character#digit(char, 10) for a rune: BMP digits only (a supplementary digit
// is two chars to Java, neither a digit).
func javaDigit(r rune) int {
	if r < 0 || r > 0xFFFF {
		return -1
	}
	return javatime.JavaDigit(uint16(r))
}
