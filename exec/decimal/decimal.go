// Package decimal is Flink's DecimalDataUtils arithmetic on unscaled values (math/big): the
// exact result (or, for division, the quotient rounded HALF_UP to 38 significant digits, as
// MathContext(38, HALF_UP)) is set to the result scale with HALF_UP, and a result with more
// digits than the result precision is NULL. Expressions and aggregates share it.
package decimal

import (
	"errors"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// ErrDivisionByZero is Java's exception for a decimal division by zero.
var ErrDivisionByZero = errors.New("java.lang.ArithmeticException: Division by zero")

var (
	bigTen = big.NewInt(10)
	pow10  [160]*big.Int
)

func init() {
	pow10[0] = big.NewInt(1)
	for i := 1; i < len(pow10); i++ {
		pow10[i] = new(big.Int).Mul(pow10[i-1], bigTen)
	}
}

// Pow10 returns 10^n (0 <= n < 160); the value is shared and must not be modified.
func Pow10(n int) *big.Int { return pow10[n] }

// Digits is the number of decimal digits of |v| (1 for zero), as BigDecimal#precision.
func Digits(v *big.Int) int {
	if v.Sign() == 0 {
		return 1
	}
	a := new(big.Int).Abs(v)
	// Estimate from the bit length, then correct against powers of ten.
	n := int(float64(a.BitLen())*0.30102999566398120) + 1
	if n >= len(pow10) {
		return len(a.Text(10)) // beyond the table (strings of digits cast to DECIMAL)
	}
	for n > 1 && a.Cmp(pow10[n-1]) < 0 {
		n--
	}
	for n < len(pow10) && a.Cmp(pow10[n]) >= 0 {
		n++
	}
	return n
}

// RescaleHalfUp changes the scale of unscaled value v from `from` to `to`, rounding half away
// from zero when digits are dropped (RoundingMode.HALF_UP).
func RescaleHalfUp(v *big.Int, from, to int) *big.Int {
	switch {
	case to == from:
		return v
	case to > from:
		return new(big.Int).Mul(v, pow10[to-from])
	}
	div := pow10[from-to]
	q, r := new(big.Int).QuoRem(v, div, new(big.Int))
	// |r|*2 >= div rounds away from zero.
	r.Abs(r)
	r.Lsh(r, 1)
	if r.Cmp(div) >= 0 {
		if v.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// Fit sets v (at scale `scale`) to the result scale and checks the result precision:
// DecimalData.fromBigDecimal. ok is false where Flink returns NULL.
func Fit(v *big.Int, scale, precision, resultScale int) (decimal128.Num, bool) {
	r := RescaleHalfUp(v, scale, resultScale)
	if Digits(r) > precision {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(r), true
}

// AlignScales returns a and b brought to the larger of their scales.
func AlignScales(a *big.Int, sa int, b *big.Int, sb int) (*big.Int, *big.Int, int) {
	if sa == sb {
		return a, b, sa
	}
	if sa < sb {
		return new(big.Int).Mul(a, pow10[sb-sa]), b, sb
	}
	return a, new(big.Int).Mul(b, pow10[sa-sb]), sa
}

// Divide38 returns a/b rounded HALF_UP to 38 significant digits, as an unscaled value and scale.
func Divide38(a *big.Int, sa int, b *big.Int, sb int) (*big.Int, int, error) {
	if b.Sign() == 0 {
		return nil, 0, ErrDivisionByZero
	}
	if a.Sign() == 0 {
		return new(big.Int), sa - sb, nil
	}
	// value = (a * 10^sb) / (b * 10^sa); find e with N*10^e / D having 38 digits.
	neg := (a.Sign() < 0) != (b.Sign() < 0)
	n := new(big.Int).Abs(a)
	d := new(big.Int).Abs(b)
	if sb > 0 {
		n.Mul(n, pow10[sb])
	}
	if sa > 0 {
		d.Mul(d, pow10[sa])
	}
	e := 38 - (Digits(n) - Digits(d)) // quotient*10^e has 38 or 39 digits
	num := new(big.Int).Set(n)
	den := new(big.Int).Set(d)
	if e >= 0 {
		num.Mul(num, pow10[e])
	} else {
		den.Mul(den, pow10[-e])
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if Digits(q) > 38 { // one digit too many: use e-1
		e--
		num.Set(n)
		den.Set(d)
		if e >= 0 {
			num.Mul(num, pow10[e])
		} else {
			den.Mul(den, pow10[-e])
		}
		q, r = new(big.Int).QuoRem(num, den, new(big.Int))
	}
	if r.Sign() != 0 {
		r.Lsh(r, 1)
		if r.Cmp(den) >= 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	if neg {
		q.Neg(q)
	}
	return q, e, nil
}

// ErrDivisionImpossible is BigDecimal#divideToIntegralValue's exception when the integer
// quotient does not fit its MathContext's precision.
var ErrDivisionImpossible = errors.New("java.lang.ArithmeticException: Division impossible")

// Remainder returns a rem b (sign of a), exact, at the larger scale, as
// BigDecimal#remainder(b, MathContext(38, HALF_UP)) (DecimalDataUtils#mod): that fails with
// "Division impossible" when the integer quotient has more than 38 digits that are not all
// kept by truncating it to 38 significant digits (divideToIntegralValue's check).
func Remainder(a *big.Int, sa int, b *big.Int, sb int) (*big.Int, int, error) {
	if b.Sign() == 0 {
		return nil, 0, ErrDivisionByZero
	}
	x, y, s := AlignScales(a, sa, b, sb)
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	if d := Digits(q); d > 38 && new(big.Int).Rem(q, pow10[d-38]).Sign() != 0 {
		return nil, 0, ErrDivisionImpossible
	}
	return r, s, nil
}

// PlainString renders an unscaled value at a scale as BigDecimal#toPlainString does.
func PlainString(v *big.Int, scale int) string {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).Text(10)
	if scale > 0 {
		for len(digits) <= scale {
			digits = "0" + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}
