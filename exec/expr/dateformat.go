package expr

import (
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "DATE_FORMAT", Family: "temporal",
		Doc:       "DATE_FORMAT(timestamp, format) of a TIMESTAMP or TIMESTAMP_LTZ (any precision; S prints the nano-of-second) with a constant java.time pattern of y, M, d, H, m, s, S and D (numeric forms), quoted text and punctuation, exactly as DateTimeFormatter prints them (yyyy pads and signs years beyond its width, yy prints the year mod 100, S… truncates the fraction). A TIMESTAMP_LTZ prints its wall clock in the session time zone. More numeric fields print as there: u (proleptic year, signed), h, K, k, F, n, N, A, Q/q and L as numbers. Month and day names (MMM, MMMM, MMMMM, LLL.., E.., ccc..), AM/PM (a), eras (G..) and quarters as text (QQQ..) print CLDR's English names where the planning JVM's default format locale is en or en-US, and fall back in other locales. Zones, week-based fields (e, c, w, W, Y), day periods (B) and optional sections fall back. DATE_FORMAT(string, format): DateTimeUtils#formatTimestampString, the string parsed as UNIX_TIMESTAMP(s) parses it and printed with a SimpleDateFormat pattern as FROM_UNIXTIME(n, format) prints, both in UTC whatever the session zone (as that overload of Flink's); NULL where the parse fails",
		compileIn: compileDateFormat, NanoTimestamps: true})
}

// formatField is one element of a compiled pattern: literal text, or a field printed with a
// minimum width (fraction: exactly width digits).
type formatField struct {
	letter byte // 0 for literal text
	width  int
	text   string
}

// parseJavaPattern compiles the subset of DateTimeFormatter#ofPattern that Sluice both parses
// and prints (numeric fields).
func parseJavaPattern(p string) ([]formatField, error) {
	return compileJavaPattern(p, checkPatternLetter)
}

// parseJavaPrintPattern compiles the subset of DateTimeFormatter#ofPattern that Sluice prints:
// that of parseJavaPattern, more numeric fields, and with english the text fields (month, day
// and era names, AM/PM, quarters) in the JVM's English format locale.
func parseJavaPrintPattern(p string, english bool) ([]formatField, error) {
	return compileJavaPattern(p, func(p string, c byte, n int) error {
		if checkPatternLetter(p, c, n) == nil {
			return nil
		}
		return checkPrintLetter(p, c, n, english)
	})
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
					return nil, unsupported("java.time pattern %q: unterminated quote", p)
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
			return nil, unsupported("java.time pattern %q: %q is not supported natively yet", p, c)
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
		return unsupported("java.time pattern %q: %s is not supported natively yet", p, repeatByte(c, n))
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

func compileDateFormat(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) != 2 || len(n.Args) != 2 {
		return nil, unsupported("DATE_FORMAT with %d operands", len(args))
	}
	t := args[0].Type()
	if t.Kind == catalog.TimestampLTZ {
		// formatTimestamp(ts, format, zone): the instant's wall clock in the session zone.
		if env.Zone == nil {
			return nil, noZone("DATE_FORMAT of %s", t)
		}
		t = catalog.Type{Kind: catalog.Timestamp, Precision: t.Precision, Nullable: t.Nullable}
		args[0] = &cast{unary: unary{args[0], t}, kind: castTimestampPrecision, zone: env.Zone}
	}
	if t.IsString() {
		return compileDateFormatString(n, args)
	}
	if t.Kind != catalog.Timestamp {
		return nil, unsupported("DATE_FORMAT of %s is not supported natively yet", t)
	}
	pat, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("DATE_FORMAT with a format that is not a constant string")
	}
	fields, err := parseJavaPrintPattern(pat, env.EnglishLocale)
	if err == nil && !env.javaBefore19() && hasLetter(fields, 'F') {
		// Java 19 made F the aligned week of the month (JDK-8282081).
		err = unsupported("java.time pattern %q: F changed meaning in Java 19; the planning JVM is Java 19 or later, or its version is not known here", pat)
	}
	if err != nil {
		return nil, err
	}
	return &dateFormat{unary: unary{args[0], n.Type}, fields: fields}, nil
}

// dateFormat is DateTimeUtils#formatTimestamp(TimestampData, String): the timestamp's wall clock
// (LocalDateTime.ofInstant at UTC) printed with a DateTimeFormatter.
type dateFormat struct {
	unary
	fields []formatField
}

func (e *dateFormat) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *dateFormat) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	b := array.NewStringBuilder(ctx.Mem)
	defer b.Release()
	b.Reserve(ctx.N)
	vals := column.ReadTimestamps(a)
	var buf []byte
	for i := 0; i < ctx.N; i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		ms, nanoOfMilli := vals.At(i)
		t := time.Unix(javatime.FloorDiv(ms, 1000), javatime.FloorMod(ms, 1000)*1_000_000+nanoOfMilli).UTC()
		buf = e.appendFormatted(buf[:0], t)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

func (e *dateFormat) appendFormatted(b []byte, t time.Time) []byte {
	for _, f := range e.fields {
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
				b = javatime.AppendPadded(b, int64(yoe%100), 2)
			case f.width >= 4 && digits(int64(yoe)) > f.width:
				// SignStyle.EXCEEDS_PAD: a value wider than the pad gets a sign.
				b = append(b, '+')
				b = strconv.AppendInt(b, int64(yoe), 10)
			default:
				b = javatime.AppendPadded(b, int64(yoe), f.width)
			}
		case 'M':
			if f.width <= 2 {
				b = javatime.AppendPadded(b, int64(t.Month()), f.width)
			} else {
				b = appendName(b, t.Month().String(), f.width)
			}
		case 'd':
			b = javatime.AppendPadded(b, int64(t.Day()), f.width)
		case 'H':
			b = javatime.AppendPadded(b, int64(t.Hour()), f.width)
		case 'm':
			b = javatime.AppendPadded(b, int64(t.Minute()), f.width)
		case 's':
			b = javatime.AppendPadded(b, int64(t.Second()), f.width)
		case 'D':
			b = javatime.AppendPadded(b, int64(t.YearDay()), f.width)
		case 'u':
			b = appendProlepticYear(b, int64(t.Year()), f.width)
		case 'h', 'K', 'k':
			b = javatime.AppendPadded(b, int64(hourOf(f.letter, t.Hour())), f.width)
		case 'n':
			b = javatime.AppendPadded(b, int64(t.Nanosecond()), f.width)
		case 'N':
			b = javatime.AppendPadded(b, nanoOfDay(t), f.width)
		case 'A':
			b = javatime.AppendPadded(b, nanoOfDay(t)/1_000_000, f.width)
		case 'F':
			b = javatime.AppendPadded(b, int64((t.Day()-1)%7+1), f.width)
		case 'Q', 'q':
			b = appendQuarter(b, (int(t.Month())+2)/3, f.width)
		case 'L':
			if f.width <= 2 {
				b = javatime.AppendPadded(b, int64(t.Month()), f.width)
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
		return unsupported("java.time pattern %q: %s %s text of the JVM's format locale, which is not English", p, repeatByte(c, n), verb)
	}
	return unsupported("java.time pattern %q: %s is not %s natively yet", p, repeatByte(c, n), done)
}

// hasLetter reports whether the pattern has a field of letter c.
func hasLetter(fields []formatField, c byte) bool {
	for _, f := range fields {
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
		return javatime.AppendPadded(b, int64(q), width)
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
		return javatime.AppendPadded(b, abs%100, 2)
	}
	if year < 0 {
		b = append(b, '-')
	} else if width >= 4 && digits(abs) > width {
		b = append(b, '+')
	}
	return javatime.AppendPadded(b, abs, width)
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

// compileDateFormatString compiles DATE_FORMAT(string, format): DateTimeUtils#
// formatTimestampString(s, format), the string parsed as UNIX_TIMESTAMP(s) parses it and
// printed with the SimpleDateFormat pattern, both in UTC (that overload takes no zone, whatever
// the session's); NULL where the parse fails.
func compileDateFormatString(n *Node, args []Expr) (Expr, error) {
	pat, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("DATE_FORMAT with a format that is not a constant string")
	}
	printer, err := javatext.CompileSimpleDatePrinter(pat)
	if err != nil {
		return nil, unsupported("DATE_FORMAT(string, format): %v", err)
	}
	parser, err := javatext.CompileSimpleDate("yyyy-MM-dd HH:mm:ss")
	if err != nil {
		return nil, err
	}
	utc := javatime.FixedZone(0).Offsets() // a fixed zone: its Offsets are never written
	return &stringFn{args: args[:1], typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		ms, ok := simpleDateMillis(parser, v[0], &utc)
		if !ok {
			return dst, false
		}
		return printer.Format(dst, utilCalendarFields(ms, &utc)), true
	}}, nil
}
