package expr

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

// noFloatText is the fallback of an expression that depends on how the JVM prints a FLOAT or
// DOUBLE, where the planning JVM does not print them as javatext does (Java 19 and later).
func noFloatText(format string, args ...any) error {
	return unsupported(format+" depends on Java's Double.toString, whose digits Sluice reproduces for Java 8 to 18 only (the planning JVM is Java 19 or later, or its version is not known here)", args...)
}

// appendFloatTexts appends Float.toString or Double.toString of each value of a (FLOAT or
// DOUBLE) to b, NULL for NULL.
func appendFloatTexts(b *array.StringBuilder, a arrow.Array, t catalog.Type) {
	var p javatext.FloatPrinter
	if t.Kind == catalog.Float {
		appendTexts(b, a, column.Values[float32](a), p.AppendFloat)
		return
	}
	appendTexts(b, a, column.Values[float64](a), p.AppendDouble)
}

// appendTexts appends the text appendText makes of each value of a to b, NULL for NULL.
func appendTexts[T any](b *array.StringBuilder, a arrow.Array, vals []T, appendText func([]byte, T) []byte) {
	var buf []byte
	for i, v := range vals {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = appendText(buf[:0], v)
		b.BinaryBuilder.Append(buf)
	}
}

// widenFloats is a FLOAT or DOUBLE column's values as doubles (a FLOAT's widened exactly, as
// Java's (double) cast).
func widenFloats(a arrow.Array, t catalog.Type) []float64 {
	if t.Kind != catalog.Float {
		return column.Values[float64](a)
	}
	wide := make([]float64, a.Len())
	convertFixed(column.Values[float32](a), wide)
	return wide
}

// floatToDecimal is CAST(FLOAT or DOUBLE AS DECIMAL(p, s)): DecimalDataUtils#castFrom(double),
// i.e. new BigDecimal(Double.toString(v)) (a FLOAT widened to double first) rounded HALF_UP to
// s digits, NULL when more than p digits remain. NaN and the infinities are not numbers to
// BigDecimal: the row fails, under TRY_CAST too (Flink's cast rule is not one that can fail,
// so its generated code catches nothing).
type floatToDecimal struct {
	unary
}

func (e *floatToDecimal) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	return e.eval(ctx, in, e.apply)
}

func (e *floatToDecimal) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	wide := widenFloats(a, e.arg.Type())
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	valid := column.CopyValidity(a, ctx.Mem)
	if valid == nil {
		valid = column.NewBitmap(ctx.Mem, n)
		bitutil.SetBitsTo(valid.Bytes(), 0, int64(n), true)
	}
	bits := valid.Bytes()
	var p javatext.FloatPrinter
	var text []byte
	for i, v := range wide {
		if !bitutil.BitIsSet(bits, i) {
			continue
		}
		text = p.AppendDouble(text[:0], v)
		if d, ok, handled := floatTextToDecimal(text, e.typ.Scale, e.typ.Precision); handled {
			if ok {
				dst[i] = d
			} else {
				bitutil.ClearBit(bits, i)
			}
			continue
		}
		unscaled, scale, err := parseJavaBigDecimal(text)
		if err != nil { // NaN, Infinity
			bitutil.ClearBit(bits, i)
			ctx.fail(i, fmt.Errorf("java.lang.NumberFormatException: %v (CAST of %s to %s)", err, text, e.typ))
			continue
		}
		d, ok, err := setScaleHalfUp(unscaled, scale, int64(e.typ.Scale), e.typ.Precision)
		if err != nil || !ok {
			bitutil.ClearBit(bits, i) // more digits than the precision: fromBigDecimal's null
			continue
		}
		dst[i] = decimal128.FromBigInt(d)
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// pow10s are the powers of ten that fit an int64.
var pow10s = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// floatTextToDecimal is the int64 path of floatToDecimal for the text of Double.toString (ASCII
// digits, one point, an optional exponent: at most 17 significant digits): the same HALF_UP
// setScale and precision check as setScaleHalfUp when the unscaled values stay within 18
// digits. handled is false for everything else (NaN, Infinity, larger results), which the
// big-integer path takes.
func floatTextToDecimal(text []byte, scale, precision int) (d decimal128.Num, ok, handled bool) {
	i, neg := 0, false
	if i < len(text) && text[i] == '-' {
		neg, i = true, i+1
	}
	var u uint64
	digits, frac, point := 0, 0, false
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == 18 {
				return d, false, false
			}
			if u > 0 || c != '0' {
				digits++
			}
			u = u*10 + uint64(c-'0')
			if point {
				frac++
			}
		case c == '.' && !point:
			point = true
		case c == 'E':
			exp, err := strconv.Atoi(string(text[i+1:]))
			if err != nil {
				return d, false, false
			}
			frac -= exp
			i = len(text)
		default:
			return d, false, false // NaN, Infinity
		}
	}
	if u == 0 {
		return d, true, true
	}
	var v int64
	if k := scale - frac; k >= 0 {
		if digits+k > precision {
			return d, false, true // fromBigDecimal's null
		}
		if digits+k > 18 {
			return d, false, false
		}
		v = int64(u) * pow10s[k]
	} else {
		k = -k
		if k > digits {
			return d, true, true // every digit dropped, the first of them below 5
		}
		div := uint64(pow10s[k])
		q, r := u/div, u%div
		if 2*r >= div {
			q++
		}
		n := 1
		for n < len(pow10s) && q >= uint64(pow10s[n]) {
			n++
		}
		if n > precision {
			return d, false, true
		}
		v = int64(q)
	}
	if neg {
		v = -v
	}
	return decimal128.FromI64(v), true, true
}

// roundFloat is ROUND(x, d) or TRUNCATE(x, d) of a FLOAT or DOUBLE, through the BigDecimal of
// Double.toString(x) (x widened to double) as Flink computes them:
//   - ROUND, SqlFunctionUtils#sround: that BigDecimal rounded HALF_UP at 10^-d and converted to
//     the argument's type (BigDecimal#doubleValue and #floatValue round correctly);
//   - TRUNCATE, SqlFunctionUtils#struncate: that BigDecimal first cast to DECIMAL(38, 18)
//     (HALF_UP at 10^-18; beyond 20 integer digits the cast is null, and struncate fails on it),
//     then digits beyond 10^-d dropped, converted to double (and a FLOAT's result from there).
//
// BigDecimal has no negative zero, so -0.0 and -0.4 become 0.0.
type roundFloat struct {
	unary
	digits   int
	truncate bool
}

func (e *roundFloat) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *roundFloat) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	isFloat := e.typ.Kind == catalog.Float
	wide := widenFloats(a, e.arg.Type())
	valid := column.CopyValidity(a, ctx.Mem)
	var p javatext.FloatPrinter
	var text []byte
	results := make([]float64, n)
	for i, v := range wide {
		if a.IsNull(i) {
			continue
		}
		text = p.AppendDouble(text[:0], v)
		r, err := e.round(v, text)
		if err != nil {
			valid = failRows(ctx, valid, []int{i}, err)
			continue
		}
		results[i] = r
	}
	if isFloat {
		buf, dst := column.NewValues[float32](ctx.Mem, n)
		convertFixed(results, dst)
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	buf, dst := column.NewValues[float64](ctx.Mem, n)
	copy(dst, results)
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// round computes one value from v and its Double.toString text.
func (e *roundFloat) round(v float64, text []byte) (float64, error) {
	unscaled, scale, err := parseJavaBigDecimal(text)
	if err != nil { // NaN, Infinity
		return 0, fmt.Errorf("java.lang.NumberFormatException: %v (%s of %s)", err, e.name(), text)
	}
	bits := 64
	if e.typ.Kind == catalog.Float && !e.truncate {
		bits = 32 // BigDecimal#floatValue; struncate converts through double
	}
	var q *big.Int
	switch {
	case e.truncate:
		// castFrom(x, 38, 18): null beyond 38 digits, which struncate dereferences.
		d18, ok, _ := setScaleHalfUp(unscaled, scale, 18, 38)
		if !ok {
			return 0, fmt.Errorf("java.lang.NullPointerException: %s of %s, beyond DECIMAL(38, 18)", e.name(), text)
		}
		if e.digits >= 18 {
			return decimalToFloat(d18, 18, bits)
		}
		if 18-e.digits > 38 {
			return 0, nil // every digit of a DECIMAL(38, 18) dropped
		}
		q = new(big.Int).Quo(d18, decimal.Pow10(18-e.digits)) // toward zero
	case int64(e.digits) >= scale:
		// Nothing below 10^-d: BigDecimal gives the same value back, but a positive zero.
		if v == 0 {
			return 0, nil
		}
		return v, nil
	default:
		q, _, err = setScaleHalfUp(unscaled, scale, int64(e.digits), math.MaxInt32)
		if err != nil {
			return 0, fmt.Errorf("%v (%s of %s)", err, e.name(), text)
		}
	}
	return decimalToFloat(q, e.digits, bits)
}

func (e *roundFloat) name() string {
	if e.truncate {
		return "TRUNCATE"
	}
	return "ROUND"
}

// decimalToFloat is unscaled·10^-scale as the nearest float64 (bits 64) or float32 (bits 32),
// infinite beyond their range, as BigDecimal#doubleValue and #floatValue.
func decimalToFloat(unscaled *big.Int, scale, bits int) (float64, error) {
	text := unscaled.Append(nil, 10)
	text = strconv.AppendInt(append(text, 'e'), int64(-scale), 10)
	f, err := strconv.ParseFloat(string(text), bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("decimal %s to float: %w", text, err)
	}
	return f, nil
}
