package expr

import (
	"strconv"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/javatime"
)

func init() {
	register(&Function{Name: "FROM_UNIXTIME", Family: "temporal",
		Doc:       "FROM_UNIXTIME(seconds) of an integer: DateTimeUtils#formatUnixTimestamp, SimpleDateFormat's 'yyyy-MM-dd HH:mm:ss' of the instant in the session time zone (java.util's calendar: Julian before 1582-10-15, years of era, so year 0 prints as 0001; java.util.TimeZone's offsets: today's standard offset before 1900). FROM_UNIXTIME(seconds, format) falls back (SimpleDateFormat patterns are not reproduced)",
		compileIn: compileFromUnixtime})
}

// compileFromUnixtime compiles FROM_UNIXTIME(integer).
func compileFromUnixtime(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) != 1 || !args[0].Type().IsIntegral() || !n.Type.IsString() {
		return nil, unsupported("FROM_UNIXTIME(%s) is not supported natively yet (only FROM_UNIXTIME(integer): format patterns are not reproduced)", typeNames(args))
	}
	if env.Zone == nil {
		return nil, unsupported("FROM_UNIXTIME needs the session time zone, which this plan does not carry")
	}
	seconds := args[0]
	if t := seconds.Type(); t.Kind != catalog.BigInt {
		seconds = &cast{unary: unary{seconds, catalog.BigIntType(t.Nullable)}, kind: castNumericKind}
	}
	zone := env.Zone
	return &stringFn{args: []Expr{seconds}, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		return appendUnixtime(dst, longOf(v[0])*1000, zone), true
	}}, nil
}

// appendUnixtime appends SimpleDateFormat("yyyy-MM-dd HH:mm:ss") of the instant ms in zone.
func appendUnixtime(dst []byte, ms int64, zone *javatime.Zone) []byte {
	// The day and time of day of ms + offset, without overflowing near the ends of long (as
	// GregorianCalendar adds the offset's days separately).
	rem := javatime.FloorMod(ms, millisPerDay) + zone.UtilOffsetAt(ms)
	day := javatime.FloorDiv(ms, millisPerDay) + javatime.FloorDiv(rem, millisPerDay)
	secs := javatime.FloorMod(rem, millisPerDay) / 1000
	y, m, d := javatime.CalendarDate(day)
	if y <= 0 {
		y = 1 - y // the year of era (BC)
	}
	if y < 1000 {
		for p := int64(1000); p > y && p > 1; p /= 10 {
			dst = append(dst, '0')
		}
	}
	dst = strconv.AppendInt(dst, y, 10)
	dst = append(dst, '-')
	dst = appendInt2(dst, int(m))
	dst = append(dst, '-')
	dst = appendInt2(dst, int(d))
	dst = append(dst, ' ')
	dst = appendInt2(dst, int(secs/3600))
	dst = append(dst, ':')
	dst = appendInt2(dst, int(secs/60%60))
	dst = append(dst, ':')
	return appendInt2(dst, int(secs%60))
}
