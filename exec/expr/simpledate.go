package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/javatext"
	"github.com/sluice-project/sluice/exec/javatime"
)

func init() {
	register(&Function{Name: "UNIX_TIMESTAMP", Family: "temporal",
		Doc:       "UNIX_TIMESTAMP(s [, format]): DateTimeUtils#unixTimestamp, SimpleDateFormat's lenient parse (default 'yyyy-MM-dd HH:mm:ss') of a constant pattern with y (3 or more letters), M, MM, d, H, m, s, S and literals, in the session time zone when it is a fixed offset: spaces before numbers skipped, numbers read by DecimalFormat (a '-', Unicode digits, an exponent, \"NaN\" and '∞'; Number#intValue), adjacent fields by their letter counts, trailing text ignored; fields counted on as GregorianCalendar does (Julian before 1582-10-15); the epoch seconds truncated towards zero, Long.MIN_VALUE where the parse fails (as Flink). UNIX_TIMESTAMP(): the clock's epoch seconds, read once per batch as CURRENT_TIMESTAMP. Zones with transitions, patterns without a year, month and day, two-digit years (which depend on the clock), month names and other letters",
		compileIn: compileUnixTimestamp})
	register(&Function{Name: "CONVERT_TZ", Family: "temporal",
		Doc:     "CONVERT_TZ(s, from, to): DateTimeUtils#convertTz, the string parsed as UNIX_TIMESTAMP(s) parses it ('yyyy-MM-dd HH:mm:ss', lenient) in zone from and printed as FROM_UNIXTIME prints in zone to, NULL where the parse fails; constant zones that java.util.TimeZone reads as a fixed offset: 'UTC', 'GMT' and 'GMT+hh:mm'-style IDs. Region IDs (java.util's transition rules) and other text (which Java silently reads as GMT) fall back",
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
		if zones[i], ok = javatime.UtilFixedZone(id); !ok {
			return nil, unsupported("CONVERT_TZ with time zone %q: only 'UTC', 'GMT' and 'GMT+hh:mm'-style zones run natively (java.util's zone rules and its reading of unknown IDs as GMT are not reproduced)", id)
		}
	}
	p, err := javatext.CompileSimpleDate("yyyy-MM-dd HH:mm:ss")
	if err != nil {
		return nil, err
	}
	from, _ := zones[0].FixedOffset()
	to := zones[1]
	return &stringFn{args: args[:1], typ: n.Type, newStr: func() func([]byte, [][]byte) ([]byte, bool) {
		offsets := to.Offsets()
		return func(dst []byte, v [][]byte) ([]byte, bool) {
			ms, ok := simpleDateMillis(p, v[0], from)
			if !ok {
				return dst, false
			}
			return appendUnixtime(dst, ms, &offsets), true
		}
	}}, nil
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
		return nil, unsupported("UNIX_TIMESTAMP(string) needs the session time zone, which this plan does not carry")
	}
	offset, fixed := env.Zone.FixedOffset()
	if !fixed {
		return nil, unsupported("UNIX_TIMESTAMP(string) in session time zone %s: java.util's rules for zones with transitions are not reproduced yet", env.Zone)
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
	return &unixTimestampText{unary: unary{args[0], n.Type}, pattern: p, offset: offset}, nil
}

// unixTimestampText is DateTimeUtils#unixTimestamp(String, String, TimeZone).
type unixTimestampText struct {
	unary
	pattern *javatext.SimpleDate
	offset  int64 // the session zone's, in milliseconds
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
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			continue
		}
		bitutil.SetBit(vbits, i)
		ms, ok := simpleDateMillis(e.pattern, r.at(i), e.offset)
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

// simpleDateMillis is DateTimeUtils#internalParseTimestampMillis in a zone of fixed offset:
// the epoch milliseconds of SimpleDateFormat#parse, ok false where it throws.
func simpleDateMillis(p *javatext.SimpleDate, s []byte, offset int64) (int64, bool) {
	f, ok := p.Parse(s)
	if !ok {
		return 0, false
	}
	return javatime.LenientCalendarMillis(f.Year, f.Month, f.Day, f.Hour, f.Minute, f.Second, f.Millisecond) - offset, true
}
