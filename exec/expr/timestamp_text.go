package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/javatime"
)

func init() {
	register(&Function{Name: "TO_TIMESTAMP", Family: "temporal",
		Doc:     "TO_TIMESTAMP(s): a TIMESTAMP(3) parsed as CAST(s AS TIMESTAMP(3)), NULL where that fails (Flink catches the exception). TO_TIMESTAMP(s, format) falls back (java.time patterns are not reproduced)",
		compile: compileToTimestamp})
	register(&Function{Name: "TO_DATE", Family: "temporal",
		Doc:     "TO_DATE(s): DateTimeUtils#parseDate as CAST(s AS DATE), but NULL where that returns null (a part beyond an int still fails the job, as Integer#parseInt's exception does in Flink). TO_DATE(s, format) falls back",
		compile: compileToDate})
}

// textTimestamp is the value DateTimeUtils#parseTimestampData(s, precision) gives a string in a
// column of the target precision: epoch milliseconds up to precision 3, microseconds above.
// ok is false where Java throws; overflow is set where a TIMESTAMP(4..6) cannot hold the
// value in microseconds (years beyond about ±294,000; Flink's TimestampData can).
// With a zone (CAST to TIMESTAMP_LTZ), the wall clock is read in it (LocalDateTime#atZone).
func textTimestamp(s []byte, precision int, zone *javatime.Zone) (v int64, ok, overflow bool) {
	t, ok := javatime.ParseTimestampText(s)
	if !ok {
		return 0, false, false
	}
	// fromTemporalAccessor: the nano-of-second floored to the precision.
	t.Nano = t.Nano / powersOf10[9-precision] * powersOf10[9-precision]
	ms, nanoOfMilli := t.EpochMillis()
	if zone != nil {
		ms = zone.Instant(ms)
	}
	if precision <= 3 {
		return ms, true, false
	}
	us := ms * 1000
	if us/1000 != ms || us > 1<<63-1-999 {
		return 0, true, true
	}
	return us + nanoOfMilli/1000, true, false
}

// parseTimestamps parses a string column into TIMESTAMP(precision) values (TIMESTAMP_LTZ with a
// zone): a failure is NULL when lenient, else a failed row.
func parseTimestamps(ctx *Ctx, a arrow.Array, precision int, lenient bool, typ catalog.Type, zone *javatime.Zone) arrow.Array {
	n := ctx.N
	r := newBytesReader(a)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	for i := 0; i < n; i++ {
		if !r.isValid(i) {
			continue
		}
		s := r.at(i)
		v, ok, overflow := textTimestamp(s, precision, zone)
		switch {
		case overflow:
			ctx.fail(i, fmt.Errorf("java.time.DateTimeException: '%s' is beyond the years a TIMESTAMP(%d) holds in Sluice (about -290,000 to 294,000)", s, precision))
		case !ok:
			if !lenient {
				ctx.fail(i, fmt.Errorf("java.time.format.DateTimeParseException: Text '%s' could not be parsed", s))
			}
		default:
			dst[i] = v
			bitutil.SetBit(vbits, i)
		}
	}
	return column.MakeArray(arrowType(typ), n, valid, buf)
}

// compileToTimestamp compiles TO_TIMESTAMP(string).
func compileToTimestamp(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || !args[0].Type().IsString() || n.Type.Kind != catalog.Timestamp || n.Type.Precision != 3 {
		return nil, unsupported("TO_TIMESTAMP(%s) is not supported natively yet (only TO_TIMESTAMP(string): format patterns are not reproduced)", typeNames(args))
	}
	return &fromString{arg: args[0], typ: n.Type, try: true}, nil
}

// compileToDate compiles TO_DATE(string).
func compileToDate(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || !args[0].Type().IsString() || n.Type.Kind != catalog.Date {
		return nil, unsupported("TO_DATE(%s) is not supported natively yet (only TO_DATE(string): format patterns are not reproduced)", typeNames(args))
	}
	return &fromString{arg: args[0], typ: n.Type, try: true, nullOnly: true}, nil
}
