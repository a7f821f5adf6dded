package expr

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

// Numeric conversions with Java's semantics: integer narrowing wraps, floating to integer
// saturates (NaN becomes 0), DECIMAL to integer truncates toward zero and keeps the low 64 bits,
// integer to DECIMAL yields NULL when the value does not fit the precision.

// convertFixed converts each value with Go's conversion, which equals Java's primitive cast for
// integer→integer (wrapping), integer→floating and floating→floating (IEEE rounding).
func convertFixed[S, D fixed](src []S, dst []D) {
	for i, v := range src {
		dst[i] = D(v)
	}
}

// javaD2L is Java's (long) d.
func javaD2L(d float64) int64 {
	switch {
	case d != d:
		return 0
	case d >= 9.223372036854775807e18:
		return math.MaxInt64
	case d <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(d)
}

// floatToInt converts floating values to an integer type as Java's cast does: (long) for
// BIGINT, (int) for INT, and (byte)(int) / (short)(int) for the narrower types.
func floatToInt[S float32 | float64, D int8 | int16 | int32 | int64](src []S, dst []D) {
	var zero D
	wide := any(zero) == any(int64(0))
	for i, v := range src {
		if wide {
			dst[i] = D(javaD2L(float64(v)))
		} else {
			dst[i] = D(javatext.DoubleToInt(float64(v)))
		}
	}
}

// castNumeric converts a numeric column to another numeric type.
func castNumeric(ctx *Ctx, a arrow.Array, from, to catalog.Type) (arrow.Array, error) {
	if from.Kind == to.Kind && (from.Kind != catalog.Decimal || (from.Precision == to.Precision && from.Scale == to.Scale)) {
		a.Retain()
		return a, nil
	}
	n := a.Len()
	switch {
	case from.Kind == catalog.Decimal && to.Kind == catalog.Decimal:
		return decimalToDecimal(ctx, a, from, to), nil
	case from.Kind == catalog.Decimal:
		return decimalToPrimitive(ctx, a, from, to), nil
	case to.Kind == catalog.Decimal:
		if !from.IsIntegral() {
			return nil, fmt.Errorf("CAST from %s to DECIMAL: not an integer type (compileCast routes FLOAT and DOUBLE to floatToDecimal)", from)
		}
		return integralToDecimal(ctx, a, from, to), nil
	}
	valid := andValidity(ctx.Mem, n, a)
	if cast, ok := catalog.Numeric(to.Kind, primitiveTo[int8], primitiveTo[int16], primitiveTo[int32], primitiveTo[int64], primitiveTo[float32], primitiveTo[float64]); ok {
		return cast(ctx, a, from, valid, to), nil
	}
	return nil, unsupported("CAST from %s to %s is not supported natively yet", from, to)
}

func primitiveTo[D fixed](ctx *Ctx, a arrow.Array, from catalog.Type, valid *memory.Buffer, to catalog.Type) arrow.Array {
	n := a.Len()
	buf, dst := column.NewValues[D](ctx.Mem, n)
	if convert, ok := catalog.Numeric(from.Kind, convertColumn[int8, D], convertColumn[int16, D], convertColumn[int32, D],
		convertColumn[int64, D], convertFloatColumn[float32, D], convertFloatColumn[float64, D]); ok {
		convert(a, dst)
	}
	return column.MakeArray(arrowType(to), n, valid, buf)
}

// convertColumn converts an integer column's values into dst.
func convertColumn[S int8 | int16 | int32 | int64, D fixed](a arrow.Array, dst []D) {
	convertFixed(column.Values[S](a), dst)
}

// convertFloatColumn converts a floating-point column's values into dst: into integers as
// Java's narrowing of a double (floatToInt), into floats as they are.
func convertFloatColumn[S float32 | float64, D fixed](a arrow.Array, dst []D) {
	var zero D
	if isFloat(any(zero)) {
		convertFixed(column.Values[S](a), dst)
	} else {
		floatIntoInt(column.Values[S](a), dst)
	}
}

func isFloat(v any) bool {
	switch v.(type) {
	case float32, float64:
		return true
	}
	return false
}

// floatIntoInt dispatches floatToInt for a destination known only as fixed.
func floatIntoInt[S float32 | float64, D fixed](src []S, dst []D) {
	switch d := any(dst).(type) {
	case []int8:
		floatToInt(src, d)
	case []int16:
		floatToInt(src, d)
	case []int32:
		floatToInt(src, d)
	case []int64:
		floatToInt(src, d)
	}
}

func decimalToDecimal(ctx *Ctx, a arrow.Array, from, to catalog.Type) arrow.Array {
	n := a.Len()
	src := column.Values[decimal128.Num](a)
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	valid := column.NewBitmap(ctx.Mem, n)
	bits := valid.Bytes()
	compact := from.IsCompactDecimal() && from.Scale-to.Scale <= 18
	for i := 0; i < n; i++ {
		if !isValid(a, i) {
			continue
		}
		if compact {
			if r, ok := rescaleHalfUp64(int64(src[i].LowBits()), from.Scale, to.Scale); ok {
				if fits64(r, to.Precision) {
					dst[i] = decimal128.FromI64(r)
					bitutil.SetBit(bits, i)
				}
				continue
			}
		}
		if v, ok := decimal.Fit(bigOf(src[i]), from.Scale, to.Precision, to.Scale); ok {
			dst[i] = v
			bitutil.SetBit(bits, i)
		}
	}
	return column.MakeArray(arrowType(to), n, valid, buf)
}

func integralToDecimal(ctx *Ctx, a arrow.Array, from, to catalog.Type) arrow.Array {
	n := a.Len()
	ints := integralAsInt64(a, from)
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	valid := column.NewBitmap(ctx.Mem, n)
	bits := valid.Bytes()
	for i := 0; i < n; i++ {
		if !isValid(a, i) {
			continue
		}
		if v, ok := decimal.Fit(big.NewInt(ints[i]), 0, to.Precision, to.Scale); ok {
			dst[i] = v
			bitutil.SetBit(bits, i)
		}
	}
	return column.MakeArray(arrowType(to), n, valid, buf)
}

// integralAsInt64 widens any integer column to int64 values.
func integralAsInt64(a arrow.Array, t catalog.Type) []int64 {
	out := make([]int64, a.Len())
	if widen, ok := catalog.Integral(t.Kind, convertColumn[int8, int64], convertColumn[int16, int64], convertColumn[int32, int64],
		convertColumn[int64, int64]); ok {
		widen(a, out)
	}
	return out
}

// decimalToFloat64 is DecimalDataUtils.doubleValue: for compact precisions the unscaled long
// converted to double and divided by the double power of ten, otherwise BigDecimal#doubleValue
// (correctly rounded).
func decimalToFloat64(d decimal128.Num, t catalog.Type) float64 {
	if t.IsCompactDecimal() {
		return float64(int64(d.LowBits())) / float64(pow10Long[t.Scale])
	}
	f, _ := new(big.Float).SetPrec(0).SetRat(new(big.Rat).SetFrac(bigOf(d), decimal.Pow10(t.Scale))).Float64()
	return f
}

var pow10Long = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

func decimalToPrimitive(ctx *Ctx, a arrow.Array, from, to catalog.Type) arrow.Array {
	n := a.Len()
	src := column.Values[decimal128.Num](a)
	valid := andValidity(ctx.Mem, n, a)
	switch to.Kind {
	case catalog.Float, catalog.Double:
		buf, dst := column.NewValues[float64](ctx.Mem, n)
		for i := range dst {
			dst[i] = decimalToFloat64(src[i], from)
		}
		if to.Kind == catalog.Double {
			return column.MakeArray(arrowType(to), n, valid, buf)
		}
		b32, d32 := column.NewValues[float32](ctx.Mem, n)
		convertFixed(dst, d32)
		buf.Release()
		return column.MakeArray(arrowType(to), n, valid, b32)
	}
	// Integral: truncate toward zero, keep the low 64 bits (BigDecimal#longValue), then narrow.
	longs := make([]int64, n)
	for i := range longs {
		q := new(big.Int).Quo(bigOf(src[i]), decimal.Pow10(from.Scale))
		// big.Int#Uint64 gives the low 64 bits of |q|; negate for the two's complement.
		longs[i] = int64(q.Uint64())
		if q.Sign() < 0 {
			longs[i] = -longs[i]
		}
	}
	narrow, _ := catalog.Integral(to.Kind, narrowLongs[int8], narrowLongs[int16], narrowLongs[int32], narrowLongs[int64])
	if narrow == nil {
		narrow = narrowLongs[int64]
	}
	return narrow(ctx, longs, to, valid)
}

// narrowLongs keeps the low bits of each value as a column of type to (Java's narrowing).
func narrowLongs[D int8 | int16 | int32 | int64](ctx *Ctx, longs []int64, to catalog.Type, valid *memory.Buffer) arrow.Array {
	buf, dst := column.NewValues[D](ctx.Mem, len(longs))
	convertFixed(longs, dst)
	return column.MakeArray(arrowType(to), len(longs), valid, buf)
}
