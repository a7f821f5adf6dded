package expr

import (
	"github.com/sluice-project/sluice/exec/decimal"

	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "ABS", Family: "arithmetic", Doc: "integers wrap like Java's Math.abs (ABS of the minimum is the minimum); DOUBLE clears the sign bit", compile: compileMath})
	register(&Function{Name: "SIGN", Family: "arithmetic", Doc: "-1, 0 or 1 in the argument's type (DECIMAL keeps its scale); DOUBLE as Math.signum (±0.0 and NaN unchanged)", compile: compileMath})
	register(&Function{Name: "FLOOR", Family: "arithmetic", Doc: "numeric FLOOR(x): integers unchanged, DECIMAL, FLOAT, DOUBLE; FLOOR(x TO unit) on TIMESTAMP of any precision (MILLENNIUM to MILLISECOND), DATE (MILLENNIUM to DAY) and TIME (HOUR to MILLISECOND) as FloorCeilCallGen: calendar units through Calcite's julianDateFloor (Julian calendar before 1582-10-15; the epoch day of a TIMESTAMP by truncating division), fixed units by floor division; TIMESTAMP_LTZ falls back", compile: compileMath, NanoTimestamps: true})
	register(&Function{Name: "CEIL", Family: "arithmetic", Doc: "numeric CEIL(x) and CEIL(x TO unit), as FLOOR (Flink's CEIL(date TO DAY) is the next day, reproduced)", compile: compileMath, NanoTimestamps: true})
}

func compileMath(n *Node, args []Expr) (Expr, error) {
	if (n.Op == "FLOOR" || n.Op == "CEIL") && len(args) == 2 && len(n.Args) == 2 {
		return compileTemporalFloorCeil(n, args)
	}
	if len(args) != 1 {
		return nil, unsupported("%s with %d operands is not supported natively yet", n.Op, len(args))
	}
	t := args[0].Type()
	if !t.IsNumeric() {
		return nil, unsupported("%s of %s is not supported natively yet", n.Op, t)
	}
	if (n.Op == "ABS" || n.Op == "SIGN") && (t.Kind == catalog.TinyInt || t.Kind == catalog.SmallInt) {
		// Flink 2.1's generated code for these does not compile (int assigned to byte/short):
		// the job must fail as it does on Flink, so it runs there.
		return nil, unsupported("%s of %s fails in Flink's code generation; it runs on Flink", n.Op, t)
	}
	if (n.Op == "FLOOR" || n.Op == "CEIL") && t.IsIntegral() && t.WithNullable(true).Equal(n.Type.WithNullable(true)) {
		// Flink's FLOOR and CEIL of an integer are the integer itself.
		return &cast{unary: unary{args[0], n.Type}, kind: castIdentity}, nil
	}
	if n.Op != "ABS" && n.Op != "SIGN" && t.Kind != catalog.Decimal && t.Kind != catalog.Double && t.Kind != catalog.Float {
		return nil, unsupported("%s of %s is not supported natively yet", n.Op, t)
	}
	if t.Kind == catalog.Decimal && n.Type.Kind != catalog.Decimal {
		return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
	}
	if t.Kind != catalog.Decimal && t.Kind != n.Type.Kind {
		return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
	}
	return &mathFn{unary: unary{args[0], n.Type}, op: n.Op}, nil
}

type mathFn struct {
	unary
	op string
}

func (e *mathFn) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *mathFn) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	valid := andValidity(ctx.Mem, n, a)
	t := e.arg.Type()
	if kernel, ok := catalog.Numeric(t.Kind, intMath[int8], intMath[int16], intMath[int32], intMath[int64], floatMath[float32], floatMath[float64]); ok {
		return kernel(ctx, e.op, a, valid, e.typ), nil
	}
	// DECIMAL
	src := column.Values[decimal128.Num](a)
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	scale := t.Scale
	for i, d := range src {
		switch e.op {
		case "ABS":
			dst[i] = d.Abs()
		case "SIGN":
			dst[i] = decimal128.FromBigInt(new(big.Int).Mul(big.NewInt(int64(d.Sign())), decimal.Pow10(scale)))
		case "FLOOR", "CEIL":
			q, r := new(big.Int).QuoRem(bigOf(d), decimal.Pow10(scale), new(big.Int))
			if r.Sign() < 0 && e.op == "FLOOR" {
				q.Sub(q, big.NewInt(1))
			} else if r.Sign() > 0 && e.op == "CEIL" {
				q.Add(q, big.NewInt(1))
			}
			dst[i] = decimal128.FromBigInt(decimal.RescaleHalfUp(q, 0, e.typ.Scale))
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

func intMath[T int8 | int16 | int32 | int64](ctx *Ctx, op string, a arrow.Array, valid *memory.Buffer, t catalog.Type) arrow.Array {
	src := column.Values[T](a)
	buf, dst := column.NewValues[T](ctx.Mem, len(src))
	for i, v := range src {
		switch op {
		case "ABS":
			if v < 0 {
				v = -v
			}
			dst[i] = v
		case "SIGN":
			switch {
			case v > 0:
				dst[i] = 1
			case v < 0:
				dst[i] = -1
			}
		}
	}
	return column.MakeArray(arrowType(t), len(src), valid, buf)
}

func floatMath[T float32 | float64](ctx *Ctx, op string, a arrow.Array, valid *memory.Buffer, t catalog.Type) arrow.Array {
	src := column.Values[T](a)
	buf, dst := column.NewValues[T](ctx.Mem, len(src))
	for i, v := range src {
		f := float64(v)
		switch op {
		case "ABS":
			f = math.Abs(f)
		case "SIGN":
			if f > 0 {
				f = 1
			} else if f < 0 {
				f = -1
			}
		case "FLOOR":
			f = math.Floor(f)
		case "CEIL":
			f = math.Ceil(f)
		}
		dst[i] = T(f)
	}
	return column.MakeArray(arrowType(t), len(src), valid, buf)
}
