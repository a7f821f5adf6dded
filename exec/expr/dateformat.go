package expr

import (
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
	pattern, err := javatime.CompilePrintPattern(pat, env.EnglishLocale)
	if err != nil {
		return nil, unsupported("%v", err)
	}
	if !env.javaBefore19() && pattern.Has('F') {
		// Java 19 made F the aligned week of the month (JDK-8282081).
		return nil, unsupported("java.time pattern %q: F changed meaning in Java 19; the planning JVM is Java 19 or later, or its version is not known here", pat)
	}
	return &dateFormat{unary: unary{args[0], n.Type}, pattern: pattern}, nil
}

// dateFormat is DateTimeUtils#formatTimestamp(TimestampData, String): the timestamp's wall clock
// (LocalDateTime.ofInstant at UTC) printed with a DateTimeFormatter.
type dateFormat struct {
	unary
	pattern *javatime.Pattern
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
		buf = e.pattern.Append(buf[:0], t)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
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
