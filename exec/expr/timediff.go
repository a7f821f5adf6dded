package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// The difference of two time points, as ScalarOperatorGens#generateTemporalPlusMinus (and
// generateTimestampLtzMinus) computes it: Calcite turns TIMESTAMPDIFF(unit, a, b) into
// CAST(REINTERPRET(b - a) [/INT units] AS INTEGER), where b - a is an interval of the unit.

func init() {
	register(&Function{Name: "REINTERPRET", Family: "conversion",
		Doc:            "an interval's internal value as an integer (Flink's Reinterpret, in the plans of TIMESTAMPDIFF): INTERVAL DAY TO SECOND as its BIGINT milliseconds, INTERVAL YEAR TO MONTH as its INT or BIGINT months; and a timestamp as the same timestamp marked as the rowtime attribute (the Calc above a source that generates watermarks itself, such as Kafka's). Other reinterpretations fall back",
		NanoTimestamps: true, // a timestamp's marking passes its values as they are
		compile:        compileReinterpret})
	register(&Function{Name: "/INT", Family: "arithmetic",
		Doc:     "integer division that Calcite plans for TIMESTAMPDIFF's units, as /",
		compile: compileArith})
}

// pointMillis says how a time point operand becomes epoch milliseconds for a difference.
type pointMillis int

const (
	pointEpochMillis pointMillis = iota // TIMESTAMP(p ≤ 3), TIMESTAMP_LTZ(p ≤ 3)
	pointEpochMicros                    // TIMESTAMP(4..6), TIMESTAMP_LTZ(4..6): floorDiv(micros, 1000)
	pointEpochDay                       // DATE: days * 86400000L
	pointNanos                          // TIMESTAMP(7..9), TIMESTAMP_LTZ(7..9): the millisecond part
)

func pointMillisOf(t catalog.Type) (pointMillis, bool) {
	switch t.Kind {
	case catalog.Timestamp, catalog.TimestampLTZ:
		switch {
		case t.Precision <= 3:
			return pointEpochMillis, true
		case t.Precision <= 6:
			return pointEpochMicros, true
		}
		return pointNanos, true
	case catalog.Date:
		return pointEpochDay, true
	}
	return 0, false
}

// compileTimePointDiff compiles a - b of two time points into an interval: DAY TO SECOND as the
// difference of their epoch milliseconds (a TIMESTAMP's sub-millisecond digits dropped, a DATE
// at midnight), YEAR TO MONTH by DateTimeUtils#subtractMonths (on the epoch milliseconds, or on
// the epoch days when both are DATEs). TIMESTAMP_LTZ only with TIMESTAMP_LTZ, as Flink; TIME
// operands (for which Flink's generated code fails or compares days with milliseconds) fall
// back. ok is false for other operand and result types.
func compileTimePointDiff(op string, args []Expr, res catalog.Type) (Expr, bool) {
	if op != "-" || len(args) != 2 || (res.Kind != catalog.IntervalDayTime && res.Kind != catalog.IntervalYearMonth) {
		return nil, false
	}
	l, r := args[0].Type(), args[1].Type()
	lm, okL := pointMillisOf(l)
	rm, okR := pointMillisOf(r)
	if !okL || !okR || (l.Kind == catalog.TimestampLTZ) != (r.Kind == catalog.TimestampLTZ) {
		return nil, false
	}
	return &timePointDiff{left: args[0], right: args[1], lm: lm, rm: rm, typ: res}, true
}

type timePointDiff struct {
	left, right Expr
	lm, rm      pointMillis
	typ         catalog.Type
}

func (e *timePointDiff) Type() catalog.Type { return e.typ }

// epochMillis returns a time point column's values as epoch milliseconds (Java long
// arithmetic): the column's own values for millisecond timestamps, else a converted copy.
func epochMillis(a arrow.Array, m pointMillis) []int64 {
	switch m {
	case pointEpochDay:
		v := column.Values[int32](a)
		out := make([]int64, len(v))
		for i, d := range v {
			out[i] = int64(d) * millisPerDay
		}
		return out
	case pointEpochMicros:
		v := column.Values[int64](a)
		out := make([]int64, len(v))
		for i, us := range v {
			out[i] = javatime.FloorDiv(us, 1000)
		}
		return out
	case pointNanos:
		ms, _ := column.NanoTimestamps(a)
		return ms
	}
	return column.Values[int64](a)
}

func (e *timePointDiff) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	la, ra, err := evalBoth(ctx, in, e.left, e.right)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, la, ra)
	var vbits []byte
	if valid != nil {
		vbits = valid.Bytes()
	}
	if e.typ.Kind == catalog.IntervalDayTime {
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		lv, rv := epochMillis(la, e.lm), epochMillis(ra, e.rm)
		for i := range dst {
			dst[i] = lv[i] - rv[i]
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	buf, dst := column.NewValues[int32](ctx.Mem, n)
	if e.lm == pointEpochDay && e.rm == pointEpochDay {
		lv, rv := column.Values[int32](la), column.Values[int32](ra)
		for i := range dst {
			if vbits == nil || bitutil.BitIsSet(vbits, i) {
				dst[i] = subtractMonthsDate(lv[i], rv[i])
			}
		}
	} else {
		lv, rv := epochMillis(la, e.lm), epochMillis(ra, e.rm)
		for i := range dst {
			if vbits == nil || bitutil.BitIsSet(vbits, i) {
				dst[i] = subtractMonthsMillis(lv[i], rv[i])
			}
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// subtractMonthsDate is DateTimeUtils#subtractMonths(int date0, int date1): the whole months
// from date1 to date0 (negative when date0 is earlier), counted by addMonths from an estimate,
// in Java int arithmetic.
func subtractMonthsDate(date0, date1 int32) int32 {
	if date0 < date1 {
		return -subtractMonthsDate(date1, date0)
	}
	// No month has more than 31 days: the estimate is at most the answer.
	m := (date0 - date1) / 31
	for {
		if addMonthsDate(date1, m) >= date0 {
			return m
		}
		if addMonthsDate(date1, m+1) > date0 {
			return m
		}
		m++
	}
}

// subtractMonthsMillis is DateTimeUtils#subtractMonths(long t0, long t1): the months between
// the dates, one fewer when the dates are a whole number of months apart but t0's time of day is
// earlier than t1's.
func subtractMonthsMillis(t0, t1 int64) int32 {
	ms0 := javatime.FloorMod(t0, millisPerDay)
	d0 := int32(javatime.FloorDiv(t0-ms0, millisPerDay))
	ms1 := javatime.FloorMod(t1, millisPerDay)
	d1 := int32(javatime.FloorDiv(t1-ms1, millisPerDay))
	x := subtractMonthsDate(d0, d1)
	if addMonthsDate(d1, x) == d0 && ms0 < ms1 {
		x--
	}
	return x
}

// compileReinterpret compiles Flink's Reinterpret of an interval into its internal integer.
func compileReinterpret(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("REINTERPRET with %d operands", len(args))
	}
	from, to := args[0].Type(), n.Type
	switch {
	case from.Kind == catalog.IntervalDayTime && to.Kind == catalog.BigInt,
		from.Kind == catalog.IntervalYearMonth && to.Kind == catalog.Int:
		return &reinterpret{arg: args[0], typ: to}, nil
	case from.Kind == catalog.IntervalYearMonth && to.Kind == catalog.BigInt:
		return &reinterpret{arg: args[0], typ: to, widen: true}, nil
	case (from.Kind == catalog.Timestamp || from.Kind == catalog.TimestampLTZ) && to.Kind == from.Kind && to.Precision == from.Precision:
		// A time attribute's marking (the planner's rowtime indicator after a source's
		// watermark push-down): the values pass as they are, NULLs included, as Flink's
		// generated code copies them.
		return &reinterpret{arg: args[0], typ: to}, nil
	}
	return nil, unsupported("REINTERPRET of %s as %s is not supported natively yet", from, to)
}

// reinterpret relabels an interval column as its integer values, or integer values as an
// interval of the same width; widen turns INT months into BIGINT.
type reinterpret struct {
	arg   Expr
	typ   catalog.Type
	widen bool
}

func (e *reinterpret) Type() catalog.Type { return e.typ }

func (e *reinterpret) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	a, err := e.arg.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if e.widen {
		n := ctx.N
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		for i, v := range column.Values[int32](a) {
			dst[i] = int64(v)
		}
		return column.MakeArray(arrowType(e.typ), n, andValidity(ctx.Mem, n, a), buf), nil
	}
	// The same values in a type of the same width: the buffers are shared.
	return column.Retype(a, arrowType(e.typ)), nil
}
