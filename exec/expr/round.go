package expr

import (
	"github.com/sluice-project/sluice/exec/decimal"

	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "ROUND", Family: "arithmetic", Doc: "ROUND(x[, d]) with a literal d on integers and DECIMAL: HALF_UP at 10^-d (SqlFunctionUtils.sround; integers narrow like BigDecimal.intValue); DECIMAL result type as findRoundDecimalType, NULL when it overflows. FLOAT/DOUBLE: BigDecimal.valueOf(x) (Java 8 to 18's Double.toString digits, a FLOAT widened first) rounded HALF_UP at 10^-d and converted back (correctly rounded; -0.0 becomes 0.0), NaN and infinities failing the row as in Flink; on Java 19 and later they fall back", compileIn: compileRound})
	register(&Function{Name: "TRUNCATE", Family: "arithmetic", Doc: "TRUNCATE(x[, d]) with a literal d on DECIMAL: digits beyond 10^-d dropped toward zero, result type as ROUND. FLOAT/DOUBLE: SqlFunctionUtils#struncate, i.e. first CAST to DECIMAL(38, 18) (Java 8 to 18's Double.toString digits rounded HALF_UP to 18 places; more than 20 integer digits, NaN or infinities fail the row as Flink's NullPointerException or NumberFormatException), then the digits beyond 10^-d dropped and converted back (a FLOAT through double); on Java 19 and later they fall back. Integer arguments fall back", compileIn: compileRound})
}

func compileRound(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	digits := int64(0)
	if len(args) == 2 {
		v, ok := constantValue(args[1])
		d, isInt := v.(int64)
		if !ok || !isInt || !args[1].Type().IsIntegral() {
			return nil, unsupported("%s with a digits operand that is not an integer literal is not supported natively yet", n.Op)
		}
		digits = d
	}
	t := args[0].Type()
	switch {
	case t.Kind == catalog.Decimal:
		if n.Type.Kind != catalog.Decimal {
			return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
		}
	case t.IsIntegral() && n.Op == "ROUND":
		if n.Type.Kind != t.Kind {
			return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
		}
	case t.Kind == catalog.Float || t.Kind == catalog.Double:
		if n.Type.Kind != t.Kind {
			return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
		}
		if !env.javaBefore19() {
			return nil, noFloatText("%s of %s", n.Op, t)
		}
		if digits < -400 || digits > 400 {
			return nil, unsupported("%s to %d digits is not supported natively", n.Op, digits)
		}
		return &roundFloat{unary: unary{args[0], n.Type}, digits: int(digits), truncate: n.Op == "TRUNCATE"}, nil
	default:
		return nil, unsupported("%s of %s is not supported natively yet", n.Op, t)
	}
	if digits < -38 || digits > 38 {
		return nil, unsupported("%s to %d digits is not supported natively", n.Op, digits)
	}
	return &roundFn{unary: unary{args[0], n.Type}, digits: int(digits), truncate: n.Op == "TRUNCATE"}, nil
}

type roundFn struct {
	unary
	digits   int
	truncate bool
}

func (e *roundFn) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

// scaleTo rounds (HALF_UP) or truncates (DOWN) unscaled v at scale `from` to scale `to`.
func (e *roundFn) scaleTo(v *big.Int, from, to int) *big.Int {
	if to >= from {
		return new(big.Int).Mul(v, decimal.Pow10(to-from))
	}
	if !e.truncate {
		return decimal.RescaleHalfUp(v, from, to)
	}
	return new(big.Int).Quo(v, decimal.Pow10(from-to))
}

// roundUnscaled is movePointRight(d).setScale(0, mode).movePointLeft(d) on an unscaled value at
// scale s; the result is at scale max(d, 0).
func (e *roundFn) roundUnscaled(v *big.Int, s int) *big.Int {
	d := e.digits
	r := e.scaleTo(v, s, d) // units of 10^-d
	if d < 0 {
		return r.Mul(r, decimal.Pow10(-d))
	}
	return r
}

func (e *roundFn) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	valid := andValidity(ctx.Mem, n, a)
	t := e.arg.Type()
	if round, ok := catalog.Integral(t.Kind, roundInts[int8], roundInts[int16], roundInts[int32], roundInts[int64]); ok {
		return round(ctx, e, a), nil
	}
	// DECIMAL: SqlFunctionUtils.sround / struncate; d >= scale leaves the value as it is.
	src := column.Values[decimal128.Num](a)
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	out := e.typ
	if valid == nil {
		valid = column.NewBitmap(ctx.Mem, n)
		bitutil.SetBitsTo(valid.Bytes(), 0, int64(n), true)
	}
	bits := valid.Bytes()
	for i := 0; i < n; i++ {
		if !column.Valid(bits, 0, i) {
			continue
		}
		if e.digits >= t.Scale {
			dst[i] = src[i]
			continue
		}
		r := e.roundUnscaled(bigOf(src[i]), t.Scale)
		d, ok := decimal.Fit(r, max(e.digits, 0), out.Precision, out.Scale)
		if !ok {
			bitutil.ClearBit(bits, i) // NULL, as DecimalData.fromBigDecimal on overflow
			continue
		}
		dst[i] = d
	}
	return column.MakeArray(arrowType(out), n, valid, buf), nil
}

// roundInts is sround(BigDecimal.valueOf(x), d) narrowed back to x's type: HALF_UP at 10^-d
// for d < 0, the value itself for d >= 0; the narrowing keeps the low bits, as intValue does.
func roundInts[T ~int8 | ~int16 | ~int32 | ~int64](ctx *Ctx, e *roundFn, a arrow.Array) arrow.Array {
	n := ctx.N
	valid := andValidity(ctx.Mem, n, a)
	src := column.Values[T](a)
	buf, dst := column.NewValues[T](ctx.Mem, n)
	if e.digits >= 0 {
		copy(dst, src)
		return column.MakeArray(arrowType(e.typ), n, valid, buf)
	}
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	low := new(big.Int)
	for i, v := range src {
		r := e.roundUnscaled(big.NewInt(int64(v)), 0)
		low.Mod(r, two64)
		dst[i] = T(int64(low.Uint64()))
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf)
}
