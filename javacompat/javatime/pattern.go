package javatime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DateTimeFormatter#ofPattern patterns as Flink's DATE_FORMAT prints them and TO_TIMESTAMP
// parses them: the subset of pattern letters whose output (and parse) Sluice reproduces exactly.

// Pattern is a compiled DateTimeFormatter#ofPattern pattern for printing.
type Pattern struct {
	fields []formatField
}

// unsupportedf is the error of a pattern, or a part of one, that Sluice does not reproduce.
func unsupportedf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// formatField is one element of a compiled pattern: literal text, or a field printed with a
// minimum width (fraction: exactly width digits).
type formatField struct {
	letter byte // 0 for literal text
	width  int
	text   string
}

// CompilePattern compiles the subset of DateTimeFormatter#ofPattern that Sluice both parses
// and prints (numeric fields). Errors name what is not reproduced.
func CompilePattern(p string) (*Pattern, error) {
	fields, err := compileJavaPattern(p, checkPatternLetter)
	if err != nil {
		return nil, err
	}
	return &Pattern{fields: fields}, nil
}

// CompilePrintPattern compiles the subset of DateTimeFormatter#ofPattern that Sluice prints:
// that of CompilePattern, more numeric fields, and with english the text fields (month, day
// and era names, AM/PM, quarters) in the JVM's English format locale.
func CompilePrintPattern(p string, english bool) (*Pattern, error) {
	fields, err := compileJavaPattern(p, func(p string, c byte, n int) error {
		if checkPatternLetter(p, c, n) == nil {
			return nil
		}
		return checkPrintLetter(p, c, n, english)
	})
	if err != nil {
		return nil, err
	}
	return &Pattern{fields: fields}, nil
}

// compileJavaPattern splits a pattern into literal text and letter runs, each run accepted by
// check.
func compileJavaPattern(p string, check func(p string, c byte, n int) error) ([]formatField, error) {
	var out []formatField
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			// Quoted text; '' inside or outside quotes is one quote.
			j := i + 1
			var text []byte
			for {
				if j >= len(p) {
					return nil, unsupportedf("java.time pattern %q: unterminated quote", p)
				}
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						text = append(text, '\'')
						j += 2
						continue
					}
					break
				}
				text = append(text, p[j])
				j++
			}
			if j == i+1 {
				text = []byte{'\''}
			}
			out = append(out, formatField{text: string(text)})
			i = j + 1
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			n := 1
			for i+n < len(p) && p[i+n] == c {
				n++
			}
			if err := check(p, c, n); err != nil {
				return nil, err
			}
			out = append(out, formatField{letter: c, width: n})
			i += n
		case c == '[' || c == ']' || c == '{' || c == '}' || c == '#' || c >= 0x80:
			return nil, unsupportedf("java.time pattern %q: %q is not supported natively yet", p, c)
		default:
			out = append(out, formatField{text: string(c)})
			i++
		}
	}
	return out, nil
}

func checkPatternLetter(p string, c byte, n int) error {
	ok := false
	switch c {
	case 'y':
		ok = n <= 19 // ofPattern refuses a width beyond 19
	case 'M':
		ok = n <= 2 // MMM and longer are month names
	case 'd', 'H', 'm', 's':
		ok = n <= 2
	case 'D':
		ok = n <= 3
	case 'S':
		ok = n <= 9
	}
	if !ok {
		return unsupportedf("java.time pattern %q: %s is not supported natively yet", p, repeatByte(c, n))
	}
	return nil
}

func repeatByte(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// Append appends t (a wall clock, read in UTC) as DateTimeFormatter#format prints it with the
// pattern.
func (p *Pattern) Append(b []byte, t time.Time) []byte {
	for _, f := range p.fields {
		switch f.letter {
		case 0:
			b = append(b, f.text...)
		case 'y':
			yoe := t.Year()
			if yoe < 1 {
				yoe = 1 - yoe // YEAR_OF_ERA
			}
			switch {
			case f.width == 2:
				// appendValueReduced(YEAR_OF_ERA, 2, 2, 2000): the last two digits.
				b = AppendPadded(b, int64(yoe%100), 2)
			case f.width >= 4 && digits(int64(yoe)) > f.width:
				// SignStyle.EXCEEDS_PAD: a value wider than the pad gets a sign.
				b = append(b, '+')
				b = strconv.AppendInt(b, int64(yoe), 10)
			default:
				b = AppendPadded(b, int64(yoe), f.width)
			}
		case 'M':
			if f.width <= 2 {
				b = AppendPadded(b, int64(t.Month()), f.width)
			} else {
				b = appendName(b, t.Month().String(), f.width)
			}
		case 'd':
			b = AppendPadded(b, int64(t.Day()), f.width)
		case 'H':
			b = AppendPadded(b, int64(t.Hour()), f.width)
		case 'm':
			b = AppendPadded(b, int64(t.Minute()), f.width)
		case 's':
			b = AppendPadded(b, int64(t.Second()), f.width)
		case 'D':
			b = AppendPadded(b, int64(t.YearDay()), f.width)
		case 'u':
			b = appendProlepticYear(b, int64(t.Year()), f.width)
		case 'h', 'K', 'k':
			b = AppendPadded(b, int64(hourOf(f.letter, t.Hour())), f.width)
		case 'n':
			b = AppendPadded(b, int64(t.Nanosecond()), f.width)
		case 'N':
			b = AppendPadded(b, nanoOfDay(t), f.width)
		case 'A':
			b = AppendPadded(b, nanoOfDay(t)/1_000_000, f.width)
		case 'F':
			b = AppendPadded(b, int64((t.Day()-1)%7+1), f.width)
		case 'Q', 'q':
			b = appendQuarter(b, (int(t.Month())+2)/3, f.width)
		case 'L':
			if f.width <= 2 {
				b = AppendPadded(b, int64(t.Month()), f.width)
			} else {
				b = appendName(b, t.Month().String(), f.width)
			}
		case 'E', 'c':
			b = appendName(b, t.Weekday().String(), max(f.width, 3))
		case 'a':
			if t.Hour() < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'G':
			b = appendEra(b, t.Year() >= 1, f.width)
		case 'S':
			// appendFraction(NANO_OF_SECOND, n, n, false): the first n digits of the nanos.
			ns := t.Nanosecond()
			var d [9]byte
			for k := 8; k >= 0; k-- {
				d[k] = byte('0' + ns%10)
				ns /= 10
			}
			b = append(b, d[:f.width]...)
		}
	}
	return b
}

// checkPrintLetter accepts the letter runs DATE_FORMAT prints beyond checkPatternLetter's:
// numeric fields always, text fields only in an English format locale (english), whose names
// are CLDR's "en" ones that Java 9 and later print.
func checkPrintLetter(p string, c byte, n int, english bool) error {
	ok := false
	switch c {
	case 'u', 'n', 'N', 'A':
		ok = n <= 19
	case 'h', 'K', 'k':
		ok = n <= 2
	case 'F':
		ok = n == 1
	case 'Q', 'q', 'L':
		ok = n <= 2 || english && n <= 5
	case 'M', 'E', 'G':
		ok = english && n <= 5
	case 'c':
		ok = english && n >= 3 && n <= 5 // c and cc are the locale's week numbering
	case 'a':
		ok = english && n == 1
	}
	return letterVerdict(p, c, n, ok, english, "MLEGQqca", "prints", "supported")
}

// letterVerdict is the fallback of a letter run a pattern compiler does not take (ok false):
// for a text letter outside an English locale the locale is the reason, otherwise the run.
// verb is what the function does with the text ("prints", "parses"), done how far it got.
func letterVerdict(p string, c byte, n int, ok, english bool, textLetters, verb, done string) error {
	if ok {
		return nil
	}
	if !english && strings.ContainsRune(textLetters, rune(c)) {
		return unsupportedf("java.time pattern %q: %s %s text of the JVM's format locale, which is not English", p, repeatByte(c, n), verb)
	}
	return unsupportedf("java.time pattern %q: %s is not %s natively yet", p, repeatByte(c, n), done)
}

// Has reports whether the pattern has a field of letter c.
func (p *Pattern) Has(c byte) bool {
	for _, f := range p.fields {
		if f.letter == c {
			return true
		}
	}
	return false
}

// appendName appends an English month or day name (Go's time names are CLDR's en ones) in
// TextStyle SHORT (width 3: the first three letters), FULL (4) or NARROW (5: the first letter).
func appendName(b []byte, name string, width int) []byte {
	switch width {
	case 3:
		return append(b, name[:3]...)
	case 4:
		return append(b, name...)
	}
	return append(b, name[0])
}

// appendEra appends ERA's text: AD/BC, Anno Domini/Before Christ, A/B.
func appendEra(b []byte, ad bool, width int) []byte {
	switch {
	case width == 4 && ad:
		return append(b, "Anno Domini"...)
	case width == 4:
		return append(b, "Before Christ"...)
	case width == 5 && ad:
		return append(b, 'A')
	case width == 5:
		return append(b, 'B')
	case ad:
		return append(b, "AD"...)
	}
	return append(b, "BC"...)
}

// appendQuarter appends QUARTER_OF_YEAR: a number (width 1, 2 padded), Q3, 3rd quarter, 3.
func appendQuarter(b []byte, q, width int) []byte {
	switch width {
	case 1, 2:
		return AppendPadded(b, int64(q), width)
	case 3:
		return append(b, 'Q', byte('0'+q))
	case 4:
		return append(b, [4]string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}[q-1]...)
	}
	return append(b, byte('0'+q))
}

// appendProlepticYear appends YEAR ('u'): two letters the last two digits of its absolute
// value; otherwise padded to the width with a '-' when negative, and with 4 or more letters a
// '+' when wider than the pad (SignStyle.NORMAL, EXCEEDS_PAD).
func appendProlepticYear(b []byte, year int64, width int) []byte {
	abs := year
	if abs < 0 {
		abs = -abs
	}
	if width == 2 {
		return AppendPadded(b, abs%100, 2)
	}
	if year < 0 {
		b = append(b, '-')
	} else if width >= 4 && digits(abs) > width {
		b = append(b, '+')
	}
	return AppendPadded(b, abs, width)
}

// hourOf is the hour of day h (0..23) as letter prints it: h clock-hour-of-am-pm (1..12),
// K hour-of-am-pm (0..11), k clock-hour-of-day (1..24).
func hourOf(letter byte, h int) int {
	switch {
	case letter == 'K':
		return h % 12
	case letter == 'h' && h%12 == 0:
		return 12
	case letter == 'h':
		return h % 12
	case h == 0:
		return 24
	}
	return h
}

func nanoOfDay(t time.Time) int64 {
	return int64(t.Hour())*3_600_000_000_000 + int64(t.Minute())*60_000_000_000 + int64(t.Second())*1_000_000_000 + int64(t.Nanosecond())
}

func digits(v int64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
