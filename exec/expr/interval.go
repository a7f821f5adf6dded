package expr

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

var errIntOverflow = errors.New("java.lang.ArithmeticException: integer overflow")

// temporalKind is the shape of a time point plus or minus an interval, as
// ScalarOperatorGens#generateTemporalPlusMinus computes it.
type temporalKind int

const (
	tsPlusMillis   temporalKind = iota // TIMESTAMP(_LTZ) ± INTERVAL DAY TO SECOND
	tsPlusMonths                       // TIMESTAMP(_LTZ) ± INTERVAL YEAR TO MONTH
	datePlusDays                       // DATE ± INTERVAL DAY TO SECOND, a DATE
	datePlusMonths                     // DATE ± INTERVAL YEAR TO MONTH
)

// compileTimestampInterval compiles a time point plus or minus an interval (and interval plus
// time point), as Flink's generated code computes it:
//   - TIMESTAMP or TIMESTAMP_LTZ ± INTERVAL DAY TO SECOND: the interval's milliseconds added to
//     the epoch milliseconds (Java long arithmetic), the sub-millisecond part kept;
//   - TIMESTAMP or TIMESTAMP_LTZ ± INTERVAL YEAR TO MONTH: DateTimeUtils#addMonths(long, int)
//     on the epoch milliseconds (the day of month clamped to the target month's last day);
//   - DATE ± INTERVAL DAY TO SECOND into a DATE: the interval's whole days
//     (Math.toIntExact(millis / 86400000), an ArithmeticException beyond an int) in int
//     arithmetic;
//   - DATE ± INTERVAL YEAR TO MONTH: DateTimeUtils#addMonths(int, int).
//
// ok is false for other operand and result types.
func compileTimestampInterval(op string, args []Expr, res catalog.Type) (Expr, bool) {
	if len(args) != 2 || (op != "+" && op != "-") {
		return nil, false
	}
	point, iv := args[0], args[1]
	if op == "+" && point.Type().IsInterval() {
		point, iv = iv, point
	}
	pt, it := point.Type(), iv.Type()
	if !it.IsInterval() {
		return nil, false
	}
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	e := &timestampInterval{point: point, interval: iv, sign: sign, typ: res}
	switch {
	case pt.Kind == catalog.Timestamp || pt.Kind == catalog.TimestampLTZ:
		if res.Kind != pt.Kind || res.Precision != pt.Precision {
			return nil, false
		}
		e.micros = microsTimestamp(pt)
		e.nanos = pt.IsNanoTimestamp()
		e.kind = tsPlusMillis
		if it.Kind == catalog.IntervalYearMonth {
			e.kind = tsPlusMonths
		}
	case pt.Kind == catalog.Date && res.Kind == catalog.Date:
		e.kind = datePlusDays
		if it.Kind == catalog.IntervalYearMonth {
			e.kind = datePlusMonths
		}
	default:
		return nil, false
	}
	return e, true
}

// compileIntervalArith compiles arithmetic whose result is an interval, as Flink's generated
// code (generateBinaryArithmeticOperator on the intervals' primitives: INT months, BIGINT
// milliseconds): an interval plus or minus an interval of the same kind, and an interval times
// an integer (either order; TIMESTAMPADD with a non-literal amount is planned as one). An
// integer operand is cast to the interval's primitive with Java's narrowing, the result wraps
// as Java int/long arithmetic does. ok is false when the result is not an interval.
func compileIntervalArith(op string, args []Expr, res catalog.Type) (Expr, bool, error) {
	isInterval := res.IsInterval()
	if len(args) != 2 || !isInterval || (op != "+" && op != "-" && op != "*") {
		return nil, false, nil
	}
	prim := catalog.BigIntType(res.Nullable)
	if res.Kind == catalog.IntervalYearMonth {
		prim = catalog.IntType(res.Nullable)
	}
	ops := make([]Expr, 2)
	intervals := 0
	for i, a := range args {
		t := a.Type()
		switch {
		case t.Kind == res.Kind:
			ops[i] = &reinterpret{arg: a, typ: prim.WithNullable(t.Nullable)}
			intervals++
		case t.IsIntegral() && op == "*":
			ops[i] = a
		default:
			// Flink has no cast from FLOAT, DOUBLE or DECIMAL to an interval: it fails to
			// generate code for such a product, as for mixed interval kinds.
			return nil, true, unsupported("%s on %s is not supported natively (Flink cannot compile it either)", op, typeNames(args))
		}
	}
	if (op == "*") != (intervals == 1) {
		return nil, true, unsupported("%s on %s is not supported natively", op, typeNames(args))
	}
	if op != "*" && !args[0].Type().Nullable && args[1].Type().Nullable {
		// generateTemporalPlusMinus types the sum as its left operand: NOT NULL, so the
		// projection writes the generated code's default value (-1) where the sum is NULL.
		return nil, true, unsupported("%s on %s: Flink's generated code writes -1 for a NULL result when the left interval is NOT NULL; not reproduced", op, typeNames(args))
	}
	calc := javaPromote(prim, prim)
	e := &primitiveArith{op: op[0], left: ops[0], right: ops[1], leftCast: prim, calc: calc, typ: prim}
	e.k, _ = constantAs(ops[1], prim, calc)
	return &reinterpret{arg: e, typ: res}, true, nil
}

type timestampInterval struct {
	point, interval Expr
	kind            temporalKind
	sign            int64
	// micros: the time point is a TIMESTAMP(4..6), stored in microseconds; nanos: a
	// TIMESTAMP(7..9), TimestampData's parts.
	micros, nanos bool
	typ           catalog.Type
}

func (e *timestampInterval) Type() catalog.Type { return e.typ }

func (e *timestampInterval) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	pa, ia, err := evalBoth(ctx, in, e.point, e.interval)
	if err != nil {
		return nil, err
	}
	defer pa.Release()
	defer ia.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, pa, ia)
	var vbits []byte
	if valid != nil {
		vbits = valid.Bytes()
	}
	if e.nanos {
		return e.evalNanos(ctx, pa, ia, valid, vbits), nil
	}
	switch e.kind {
	case tsPlusMillis:
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		pv, iv := column.Values[int64](pa), column.Values[int64](ia)
		if !e.micros {
			// Epoch milliseconds ± the interval's, in wrapping long arithmetic.
			for i := range dst {
				dst[i] = pv[i] + e.sign*iv[i]
			}
			return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
		}
		// (ms ± r) in wrapping long arithmetic, the micros of the millisecond kept.
		var failed []int
		for i := range dst {
			ms, sub := javatime.FloorDiv(pv[i], 1000), javatime.FloorMod(pv[i], 1000)
			us, ok := microsOf(ms+e.sign*iv[i], sub)
			if !ok && (vbits == nil || bitutil.BitIsSet(vbits, i)) {
				failed = append(failed, i)
			}
			dst[i] = us
		}
		valid = failRows(ctx, valid, failed, e.beyondMicros())
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	case tsPlusMonths:
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		pv, iv := column.Values[int64](pa), column.Values[int32](ia)
		var failed []int
		for i := range dst {
			if vbits != nil && !bitutil.BitIsSet(vbits, i) {
				continue
			}
			m := e.months(iv[i])
			if e.micros {
				ms, sub := javatime.FloorDiv(pv[i], 1000), javatime.FloorMod(pv[i], 1000)
				us, ok := microsOf(addMonthsMillis(ms, m), sub)
				if !ok {
					failed = append(failed, i)
				}
				dst[i] = us
			} else {
				dst[i] = addMonthsMillis(pv[i], m)
			}
		}
		valid = failRows(ctx, valid, failed, e.beyondMicros())
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	case datePlusDays:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		pv, iv := column.Values[int32](pa), column.Values[int64](ia)
		var failed []int
		for i := range dst {
			if vbits != nil && !bitutil.BitIsSet(vbits, i) {
				continue
			}
			days := iv[i] / millisPerDay
			if days < math.MinInt32 || days > math.MaxInt32 {
				failed = append(failed, i)
				continue
			}
			dst[i] = pv[i] + int32(e.sign)*int32(days)
		}
		valid = failRows(ctx, valid, failed, errIntOverflow)
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	default: // datePlusMonths
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		pv, iv := column.Values[int32](pa), column.Values[int32](ia)
		for i := range dst {
			if vbits != nil && !bitutil.BitIsSet(vbits, i) {
				continue
			}
			dst[i] = addMonthsDate(pv[i], e.months(iv[i]))
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
}

// evalNanos is Eval for a TIMESTAMP(7..9) time point: the milliseconds move (by the interval's
// milliseconds, or by DateTimeUtils#addMonths), the nanos of the millisecond stay.
func (e *timestampInterval) evalNanos(ctx *Ctx, pa, ia arrow.Array, valid *memory.Buffer, vbits []byte) arrow.Array {
	n := ctx.N
	src := column.ReadTimestamps(pa)
	w := column.NewTimestampWriter(ctx.Mem, arrowType(e.typ), n)
	var millis []int64
	var months []int32
	if e.kind == tsPlusMillis {
		millis = column.Values[int64](ia)
	} else {
		months = column.Values[int32](ia)
	}
	for i := 0; i < n; i++ {
		if vbits != nil && !bitutil.BitIsSet(vbits, i) {
			w.Set(i, 0, 0)
			continue
		}
		ms, nanoOfMilli := src.At(i)
		if e.kind == tsPlusMillis {
			ms += e.sign * millis[i]
		} else {
			ms = addMonthsMillis(ms, e.months(months[i]))
		}
		w.Set(i, ms, nanoOfMilli)
	}
	return w.Finish(n, valid)
}

// microsOf returns epoch milliseconds and microseconds of the millisecond as epoch
// microseconds; ok is false when they do not fit an int64 (years beyond about ±292,000, which
// Flink's TimestampData holds and Sluice's TIMESTAMP(4..6) columns cannot).
func microsOf(ms, subMicros int64) (int64, bool) {
	us := ms*1000 + subMicros
	return us, javatime.FloorDiv(us, 1000) == ms
}

// beyondMicros is the error of a result that a TIMESTAMP(4..6) column cannot hold.
func (e *timestampInterval) beyondMicros() error {
	return fmt.Errorf("java.time.DateTimeException: the result is beyond the years a %s holds in Sluice (about -290,000 to 294,000)", e.typ)
}

// months is the interval's months with the operator's sign (Java int negation: MIN_VALUE
// stays).
func (e *timestampInterval) months(m int32) int32 {
	if e.sign < 0 {
		return -m
	}
	return m
}

// addMonthsDate is DateTimeUtils#addMonths(int date, int m): the date's year, month and day
// (julian-day arithmetic), m months on, the day clamped to the month's last day.
func addMonthsDate(date, m int32) int32 {
	y0 := int32(extractFromDate("YEAR", date))
	m0 := int32(extractFromDate("MONTH", date))
	d0 := int32(extractFromDate("DAY", date))
	m0 += m
	y0 += int32(javatime.FloorDiv(int64(m0), 12))
	m0 = int32(javatime.FloorMod(int64(m0), 12))
	if m0 == 0 {
		y0--
		m0 += 12
	}
	if last := int32(javatime.DaysInMonth(int64(y0), int64(m0))); d0 > last {
		d0 = last
	}
	return ymdToJulian(y0, m0, d0) - julianEpoch
}

// addMonthsMillis is DateTimeUtils#addMonths(long timestamp, int m): the date part moved by
// m months, the time of day kept.
func addMonthsMillis(ts int64, m int32) int64 {
	millis := javatime.FloorMod(ts, millisPerDay)
	ts -= millis
	x := int64(addMonthsDate(int32(ts/millisPerDay), m))
	return x*millisPerDay + millis
}
