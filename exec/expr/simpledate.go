package expr

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "UNIX_TIMESTAMP", Family: "temporal",
		Doc:       "UNIX_TIMESTAMP(s [, format]): DateTimeUtils#unixTimestamp, SimpleDateFormat's lenient parse (default 'yyyy-MM-dd HH:mm:ss') of a constant pattern with y (3 or more letters), M, MM, d, H, m, s, S and literals, in the session time zone (java.util's offsets: a wall time in a gap is read in the offset before it, one in an overlap in the offset after it; the raw offset before 1900): spaces before numbers skipped, numbers read by DecimalFormat (a '-', Unicode digits, an exponent, \"NaN\" and '∞'; Number#intValue), adjacent fields by their letter counts, trailing text ignored; fields counted on as GregorianCalendar does (Julian before 1582-10-15); the epoch seconds truncated towards zero, Long.MIN_VALUE where the parse fails (as Flink). UNIX_TIMESTAMP(): the clock's epoch seconds, read once per batch as CURRENT_TIMESTAMP. Patterns without a year, month and day, two-digit years (which depend on the clock), month names and other letters fall back",
		compileIn: compileUnixTimestamp})
	register(&Function{Name: "CONVERT_TZ", Family: "temporal",
		Doc:     "CONVERT_TZ(s, from, to): DateTimeUtils#convertTz, the string parsed as UNIX_TIMESTAMP(s) parses it ('yyyy-MM-dd HH:mm:ss', lenient) in zone from and printed as FROM_UNIXTIME prints in zone to, NULL where the parse fails; constant zones: 'UTC', 'GMT', 'GMT+hh:mm'-style and region ('Area/City') IDs, with java.util's offsets as UNIX_TIMESTAMP and FROM_UNIXTIME use them; other text (which Java silently reads as GMT, or through its own three-letter mappings) falls back",
		compile: compileConvertTz})
}

// compileConvertTz compiles CONVERT_TZ(string, from, to).
func compileConvertTz(n *Node, args []Expr) (Expr, error) {
	if len(args) != 3 || !args[0].Type().IsString() {
		return nil, unsupported("CONVERT_TZ(%s) is not supported natively", typeNames(args))
	}
	var zones [2]javatime.Zone
	for i := range zones {
		id, ok := stringLiteral(n.Args[i+1])
		if !ok {
			return nil, unsupported("CONVERT_TZ with a time zone that is not a constant string")
		}
		var err error
		if zones[i], err = utilZone(id); err != nil {
			return nil, unsupported("CONVERT_TZ with time zone %q: %v", id, err)
		}
	}
	p, err := javatext.CompileSimpleDate("yyyy-MM-dd HH:mm:ss")
	if err != nil {
		return nil, err
	}
	return &stringFn{args: args[:1], typ: n.Type, newStr: func() func([]byte, [][]byte) ([]byte, bool) {
		from, to := zones[0].Offsets(), zones[1].Offsets()
		return func(dst []byte, v [][]byte) ([]byte, bool) {
			ms, ok := simpleDateMillis(p, v[0], &from)
			if !ok {
				return dst, false
			}
			return appendUnixtime(dst, ms, &to), true
		}
	}}, nil
}

// utilZone is java.util.TimeZone#getTimeZone(id) for the IDs whose rules Sluice has: the fixed
// zones of javatime.UtilFixedZone and region IDs ("Area/City") of the tz database. Other text
// (Java reads an unknown ID as GMT, and three-letter IDs through its own old mappings) has none.
func utilZone(id string) (javatime.Zone, error) {
	if z, ok := javatime.UtilFixedZone(id); ok {
		return z, nil
	}
	if !strings.Contains(id, "/") {
		return javatime.Zone{}, fmt.Errorf("only 'UTC', 'GMT', 'GMT+hh:mm'-style and region ('Area/City') IDs run natively (java.util reads unknown IDs as GMT and three-letter IDs through its own mappings)")
	}
	return javatime.LoadZone(id)
}

// compileSimpleDate compiles a constant SimpleDateFormat pattern of a date-time string function.
func compileSimpleDate(name string, n *Node, at int) (*javatext.SimpleDate, error) {
	format, ok := stringLiteral(n.Args[at])
	if !ok {
		return nil, unsupported("%s with a format that is not a constant string", name)
	}
	p, err := javatext.CompileSimpleDate(format)
	if err != nil {
		return nil, unsupported("%s: %v", name, err)
	}
	if !p.HasDate {
		return nil, unsupported("%s pattern %q: a pattern without a year, month and day is not parsed natively yet", name, format)
	}
	return p, nil
}

// compileUnixTimestamp compiles UNIX_TIMESTAMP(string [, format]).
func compileUnixTimestamp(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) == 0 {
		return compileClock(n, args, env, clockSeconds)
	}
	if len(args) > 2 || !args[0].Type().IsString() || n.Type.Kind != catalog.BigInt {
		return nil, unsupported("UNIX_TIMESTAMP(%s) is not supported natively", typeNames(args))
	}
	if env.Zone == nil {
		return nil, noZone("UNIX_TIMESTAMP(string)")
	}
	var p *javatext.SimpleDate
	var err error
	if len(args) == 1 {
		p, err = javatext.CompileSimpleDate("yyyy-MM-dd HH:mm:ss")
	} else {
		p, err = compileSimpleDate("UNIX_TIMESTAMP", n, 1)
	}
	if err != nil {
		return nil, err
	}
	return &unixTimestampText{unary: unary{args[0], n.Type}, pattern: p, zone: *env.Zone}, nil
}

// unixTimestampText is DateTimeUtils#unixTimestamp(String, String, TimeZone).
type unixTimestampText struct {
	unary
	pattern *javatext.SimpleDate
	zone    javatime.Zone // the session's
}

func (e *unixTimestampText) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	return e.eval(ctx, in, e.apply)
}

func (e *unixTimestampText) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	r := newBytesReader(a)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	offsets := e.zone.Offsets()
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			continue
		}
		bitutil.SetBit(vbits, i)
		ms, ok := simpleDateMillis(e.pattern, r.at(i), &offsets)
		if !ok || ms == math.MinInt64 {
			// Flink returns Long.MIN_VALUE, undivided, for a failed parse, and so for a date
			// whose milliseconds are Long.MIN_VALUE too.
			dst[i] = math.MinInt64
			continue
		}
		dst[i] = ms / 1000 // Java's division: towards zero
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// simpleDateMillis is DateTimeUtils#internalParseTimestampMillis: the epoch milliseconds of
// SimpleDateFormat#parse in zone (the parsed wall time less java.util's offset for it, see
// javatime.Offsets#UtilWallOffset), ok false where it throws.
func simpleDateMillis(p *javatext.SimpleDate, s []byte, zone *javatime.Offsets) (int64, bool) {
	f, ok := p.Parse(s)
	if !ok {
		return 0, false
	}
	wall := javatime.LenientCalendarMillis(f.Year, f.Month, f.Day, f.Hour, f.Minute, f.Second, f.Millisecond)
	return wall - zone.UtilWallOffset(wall), true
}
