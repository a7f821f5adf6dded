package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// compileTimestampInterval compiles TIMESTAMP(p ≤ 3) or TIMESTAMP_LTZ(p ≤ 3) plus or minus an
// INTERVAL DAY TO SECOND (and INTERVAL + TIMESTAMP): Flink adds the interval's milliseconds to
// the epoch milliseconds with Java long arithmetic. ok is false for other operand types.
func compileTimestampInterval(op string, args []Expr, res catalog.Type) (Expr, bool) {
	if len(args) != 2 || (op != "+" && op != "-") {
		return nil, false
	}
	isTs := func(t catalog.Type) bool {
		return (t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && t.Precision <= 3
	}
	ts, iv := args[0], args[1]
	if op == "+" && args[0].Type().Kind == catalog.IntervalDayTime {
		ts, iv = args[1], args[0]
	}
	if !isTs(ts.Type()) || iv.Type().Kind != catalog.IntervalDayTime || !isTs(res) {
		return nil, false
	}
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	return &timestampInterval{ts: ts, interval: iv, sign: sign, typ: res}, true
}

type timestampInterval struct {
	ts, interval Expr
	sign         int64
	typ          catalog.Type
}

func (e *timestampInterval) Type() catalog.Type { return e.typ }

func (e *timestampInterval) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	ta, err := e.ts.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer ta.Release()
	ia, err := e.interval.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer ia.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, ta, ia)
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	tv, iv := column.Values[int64](ta), column.Values[int64](ia)
	for i := range dst {
		dst[i] = tv[i] + e.sign*iv[i]
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}
