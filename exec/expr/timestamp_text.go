package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "TO_TIMESTAMP", Family: "temporal",
		Doc:       "TO_TIMESTAMP(s): a TIMESTAMP(3) parsed as CAST(s AS TIMESTAMP(3)), NULL where that fails (Flink catches the exception). TO_TIMESTAMP(s, format) with a constant java.time pattern of y, u, M, L, d, H, h, K, k, m, s, S (numeric forms), quoted text and punctuation, and, where the planning JVM's default format locale is en or en-US, month and day names (MMM, MMMM, LLL, LLLL, E to EEEE), AM/PM (a) and eras (G to GGGG): DateTimeUtils#parseTimestampData(s, format), i.e. DateTimeFormatter's strict parse (adjacent value parsing as in 'yyyyMMddHHmmss', a sign beyond yyyy's width, yy on 2000, names matched case-sensitively in the pattern's style only) resolved SMART (a day beyond the month's end clamped, 24:00 the next day, h or K with a to the hour of day, a alone the middle of its half day, a day of the week, era or AM/PM that does not fit the date or time fails the parse), missing fields defaulted, the fraction cut to milliseconds; where that parse fails, java.sql.Timestamp#valueOf or Date#valueOf of the trimmed string (single-digit fields, Integer#parseInt's signs and Unicode digits, java.util.Date's lenient normalization in its Julian-Gregorian calendar), NULL where those fail. Falls back when the JVM's default time zone is not a fixed offset (Timestamp#valueOf goes through it), for names in other locales, narrow names (MMMMM, EEEEE, GGGGG: several alike), other pattern letters and non-constant formats",
		compileIn: compileToTimestamp, operandFallback: toTimestampOperandFallback})
	register(&Function{Name: "TO_DATE", Family: "temporal",
		Doc:       "TO_DATE(s): DateTimeUtils#parseDate as CAST(s AS DATE), but NULL where that returns null (a part beyond an int still fails the job, as Integer#parseInt's exception does in Flink). TO_DATE(s, format): DateTimeUtils#parseDate(s, format), the date in UTC of SimpleDateFormat's lenient parse as for UNIX_TIMESTAMP(s, format); where the parse fails, the date of Long.MIN_VALUE milliseconds through Flink's int arithmetic (as Flink, never NULL)",
		compileIn: compileToDate})
}

// toTimestampOperandFallback keeps TO_TIMESTAMP(s, format) out of enclosing expressions: where
// Flink reads the string with Timestamp#valueOf, its TIMESTAMP(3) value keeps the
// sub-millisecond digits until a row drops them, so an enclosing expression sees them (CEIL,
// comparisons, DATE_FORMAT) while a projected value does not.
func toTimestampOperandFallback(n *Node) string {
	if len(n.Args) != 2 {
		return ""
	}
	return "the value Flink computes there can keep sub-millisecond digits (Timestamp#valueOf), which Sluice's TIMESTAMP(3) does not hold; only a projected TO_TIMESTAMP(s, format) runs natively"
}

// textTimestamp is the value DateTimeUtils#parseTimestampData(s, precision) gives a string:
// epoch milliseconds and nanoseconds of the millisecond, the nano-of-second floored to the
// precision. ok is false where Java throws. With a zone (CAST to TIMESTAMP_LTZ), the wall
// clock is read in it (LocalDateTime#atZone).
func textTimestamp(s []byte, precision int, zone *javatime.Zone) (ms, nanoOfMilli int64, ok bool) {
	t, ok := javatime.ParseTimestampText(s)
	if !ok {
		return 0, 0, false
	}
	// fromTemporalAccessor: the nano-of-second floored to the precision.
	t.Nano = t.Nano / javatime.PowersOf10[9-precision] * javatime.PowersOf10[9-precision]
	ms, nanoOfMilli = t.EpochMillis()
	if zone != nil {
		ms = zone.Instant(ms)
	}
	return ms, nanoOfMilli, true
}

// parseTimestamps parses a string column into TIMESTAMP(precision) values (TIMESTAMP_LTZ with a
// zone): a failure is NULL when lenient, else a failed row. A value a TIMESTAMP(4..6) cannot
// hold in microseconds (years beyond about ±294,000; Flink's TimestampData can) fails the row.
func parseTimestamps(ctx *Ctx, a arrow.Array, precision int, lenient bool, typ catalog.Type, zone *javatime.Zone) arrow.Array {
	n := ctx.N
	r := newBytesReader(a)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	w := column.NewTimestampWriter(ctx.Mem, arrowType(typ), n)
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			w.Set(i, 0, 0)
			continue
		}
		s := r.at(i)
		ms, nanoOfMilli, ok := textTimestamp(s, precision, zone)
		switch {
		case !ok:
			w.Set(i, 0, 0)
			if !lenient {
				ctx.fail(i, fmt.Errorf("java.time.format.DateTimeParseException: Text '%s' could not be parsed", s))
			}
		case !w.Set(i, ms, nanoOfMilli):
			ctx.fail(i, fmt.Errorf("java.time.DateTimeException: '%s' is beyond the years a TIMESTAMP(%d) holds in Sluice (about -290,000 to 294,000)", s, precision))
		default:
			bitutil.SetBit(vbits, i)
		}
	}
	return w.Finish(n, valid)
}

// compileToTimestamp compiles TO_TIMESTAMP(string [, format]).
func compileToTimestamp(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) < 1 || len(args) > 2 || !args[0].Type().IsString() || n.Type.Kind != catalog.Timestamp || n.Type.Precision != 3 {
		return nil, unsupported("TO_TIMESTAMP(%s) is not supported natively yet", typeNames(args))
	}
	if len(args) == 1 {
		return &fromString{arg: args[0], typ: n.Type, try: true}, nil
	}
	format, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("TO_TIMESTAMP with a format that is not a constant string")
	}
	if !env.JVMZoneFixed {
		return nil, unsupported("TO_TIMESTAMP(s, format) reads strings its pattern does not fit with java.sql.Timestamp#valueOf, through the JVM's default time zone, which has no fixed offset here")
	}
	pattern, err := javatime.CompileParser(format, env.EnglishLocale)
	if err != nil {
		return nil, unsupported("%v", err)
	}
	return &toTimestampFormat{unary: unary{args[0], n.Type}, pattern: pattern}, nil
}

// toTimestampFormat is DateTimeUtils#parseTimestampData(s, format) into a TIMESTAMP(3), NULL
// where it returns null or throws (Flink's generated code catches the exception).
type toTimestampFormat struct {
	unary
	pattern *javatime.Parser
}

func (e *toTimestampFormat) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	return e.eval(ctx, in, e.apply)
}

func (e *toTimestampFormat) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	r := newBytesReader(a)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	var scratch []uint16
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			continue
		}
		var ok bool
		if dst[i], ok, scratch = e.pattern.Timestamp(r.at(i), scratch); ok {
			bitutil.SetBit(vbits, i)
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// compileToDate compiles TO_DATE(string [, format]).
func compileToDate(n *Node, args []Expr, _ Env) (Expr, error) {
	if len(args) < 1 || len(args) > 2 || !args[0].Type().IsString() || n.Type.Kind != catalog.Date {
		return nil, unsupported("TO_DATE(%s) is not supported natively yet", typeNames(args))
	}
	if len(args) == 1 {
		return &fromString{arg: args[0], typ: n.Type, try: true, nullOnly: true}, nil
	}
	p, err := compileSimpleDate("TO_DATE", n, 1)
	if err != nil {
		return nil, err
	}
	return &toDateFormat{unary: unary{args[0], n.Type}, pattern: p}, nil
}

// toDateFormat is DateTimeUtils#parseDate(String, String): the UTC date of the parsed instant,
// that of Long.MIN_VALUE milliseconds where the parse fails, as epoch days through
// DateTimeUtils#ymdToUnixDate's int arithmetic.
type toDateFormat struct {
	unary
	pattern *javatext.SimpleDate
}

func (e *toDateFormat) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *toDateFormat) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	r := newBytesReader(a)
	buf, dst := column.NewValues[int32](ctx.Mem, n)
	utc := javatime.FixedZone(0).Offsets()
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			continue
		}
		ms, ok := simpleDateMillis(e.pattern, r.at(i), &utc)
		if !ok {
			ms = math.MinInt64
		}
		y, m, d := javatime.GregorianDate(javatime.FloorDiv(ms, 86_400_000))
		dst[i] = ymdToJulian(int32(y), int32(m), int32(d)) - julianEpoch
	}
	return column.MakeArray(arrowType(e.typ), n, column.CopyValidity(a, ctx.Mem), buf), nil
}
