package expr

import (
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "FROM_UNIXTIME", Family: "temporal",
		Doc:       "FROM_UNIXTIME(seconds) of an integer: DateTimeUtils#formatUnixTimestamp, SimpleDateFormat's 'yyyy-MM-dd HH:mm:ss' of the instant in the session time zone (java.util's calendar: Julian before 1582-10-15, years of era, so year 0 prints as 0001; java.util.TimeZone's offsets: today's standard offset before 1900). FROM_UNIXTIME(seconds, format) with a constant SimpleDateFormat pattern of y, M, MM, d, H, m, s, S and literals (numbers zero-padded to their letter counts, yy the last two digits of the year of era), in any session time zone; other letters fall back",
		compileIn: compileFromUnixtime})
}

// compileFromUnixtime compiles FROM_UNIXTIME(integer).
func compileFromUnixtime(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) < 1 || len(args) > 2 || !args[0].Type().IsIntegral() || !n.Type.IsString() {
		return nil, unsupported("FROM_UNIXTIME(%s) is not supported natively yet", typeNames(args))
	}
	format := defaultDateFormat
	if len(args) == 2 {
		pat, ok := stringLiteral(n.Args[1])
		if !ok {
			return nil, unsupported("FROM_UNIXTIME with a format that is not a constant string")
		}
		var err error
		if format, err = javatext.CompileSimpleDatePrinter(pat); err != nil {
			return nil, unsupported("FROM_UNIXTIME: %v", err)
		}
	}
	if env.Zone == nil {
		return nil, noZone("FROM_UNIXTIME")
	}
	seconds := args[0]
	if t := seconds.Type(); t.Kind != catalog.BigInt {
		seconds = &cast{unary: unary{seconds, catalog.BigIntType(t.Nullable)}, kind: castNumericKind}
	}
	zone := env.Zone
	return &stringFn{args: []Expr{seconds}, typ: n.Type, newStr: func() func([]byte, [][]byte) ([]byte, bool) {
		offsets := zone.Offsets()
		return func(dst []byte, v [][]byte) ([]byte, bool) {
			return format.Format(dst, utilCalendarFields(longOf(v[0])*1000, &offsets)), true
		}
	}}, nil
}

// defaultDateFormat is DateTimeUtils' TIMESTAMP_FORMAT_STRING as a SimpleDateFormat printer.
var defaultDateFormat = func() *javatext.SimpleDate {
	p, err := javatext.CompileSimpleDatePrinter("yyyy-MM-dd HH:mm:ss")
	if err != nil {
		panic(err)
	}
	return p
}()

// appendUnixtime appends SimpleDateFormat("yyyy-MM-dd HH:mm:ss") of the instant ms in zone.
func appendUnixtime(dst []byte, ms int64, zone *javatime.Offsets) []byte {
	return defaultDateFormat.Format(dst, utilCalendarFields(ms, zone))
}

// utilCalendarFields are the fields java.util's GregorianCalendar shows for the instant ms in
// zone (java.util.TimeZone's offsets): the year of the era (year 0 is 1 BC), Julian dates
// before 1582-10-15.
func utilCalendarFields(ms int64, zone *javatime.Offsets) javatext.CalendarFields {
	// The day and time of day of ms + offset, without overflowing near the ends of long (as
	// GregorianCalendar adds the offset's days separately).
	rem := javatime.FloorMod(ms, millisPerDay) + zone.UtilOffsetAt(ms)
	day := javatime.FloorDiv(ms, millisPerDay) + javatime.FloorDiv(rem, millisPerDay)
	tod := javatime.FloorMod(rem, millisPerDay)
	y, m, d := javatime.CalendarDate(day)
	if y <= 0 {
		y = 1 - y // the year of era (BC)
	}
	return javatext.CalendarFields{Year: int32(y), Month: int32(m - 1), Day: int32(d), Hour: int32(tod / 3_600_000),
		Minute: int32(tod / 60_000 % 60), Second: int32(tod / 1000 % 60), Millisecond: int32(tod % 1000)}
}
