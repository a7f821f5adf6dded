package expr

import (
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/javatext"
	"github.com/sluice-project/sluice/exec/javatime"
)

func init() {
	register(&Function{Name: "DATE_FORMAT", Family: "temporal",
		Doc:       "DATE_FORMAT(timestamp, format) of a TIMESTAMP or TIMESTAMP_LTZ (any precision; S prints the nano-of-second) with a constant java.time pattern of y, M, d, H, m, s, S and D (numeric forms), quoted text and punctuation, exactly as DateTimeFormatter prints them (yyyy pads and signs years beyond its width, yy prints the year mod 100, S… truncates the fraction). A TIMESTAMP_LTZ prints its wall clock in the session time zone. Month and day names, AM/PM, zones and optional sections fall back. DATE_FORMAT(string, format): DateTimeUtils#formatTimestampString, the string parsed as UNIX_TIMESTAMP(s) parses it and printed with a SimpleDateFormat pattern as FROM_UNIXTIME(n, format) prints, both in UTC whatever the session zone (as that overload of Flink's); NULL where the parse fails",
		compileIn: compileDateFormat, NanoTimestamps: true})
}

// formatField is one element of a compiled pattern: literal text, or a field printed with a
// minimum width (fraction: exactly width digits).
type formatField struct {
	letter byte // 0 for literal text
	width  int
	text   string
}

// parseJavaPattern compiles the subset of DateTimeFormatter#ofPattern that Sluice prints.
func parseJavaPattern(p string) ([]formatField, error) {
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
			if err := checkPatternLetter(p, c, n); err != nil {
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
	fields, err := parseJavaPattern(pat)
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
			b = javatime.AppendPadded(b, int64(t.Month()), f.width)
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
