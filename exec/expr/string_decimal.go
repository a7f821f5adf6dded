package expr

import (
	"fmt"
	"math"
	"math/big"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/exec/decimal"
)

// stringToDecimal is BinaryStringDataUtil#toDecimal(str, precision, scale), CAST(STRING AS
// DECIMAL(p, s)): an unscaled value at scale s, or the exception Flink's cast throws (which
// TRY_CAST turns into NULL). Strings of at most 18 bytes cast to a DECIMAL(p ≤ 18) go through
// Flink's own byte parser (toDecimalFromBytes), with its quirks; every other string through
// java.math.BigDecimal's grammar and DecimalData#fromBigDecimal.
func stringToDecimal(b []byte, precision, scale int) (decimal128.Num, error) {
	if precision > 18 || len(b) > 18 {
		return bigStringToDecimal(b, precision, scale)
	}
	v, err := smallStringToDecimal(b, precision, scale)
	if err != nil {
		return decimal128.Num{}, err
	}
	return decimal128.FromI64(v), nil
}

// errDecimalOverflow is the NumberFormatException toDecimal throws where its parser returns
// null ("Overflow.", also for text it cannot parse).
func errDecimalOverflow(b []byte) error {
	return fmt.Errorf("java.lang.NumberFormatException: For input string: '%s'. Overflow.", b)
}

// isDecimalSpace is the white space toDecimal skips around a number.
func isDecimalSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }

// smallStringToDecimal is toDecimalFromBytes: leading white space, a sign, digits with at most
// one point; the first other byte ends the number and is skipped unchecked ("12a" is 12, "x"
// is 0); then an exponent if that byte was 'e' or 'E' (its digits capped once the value reaches
// 40), then only white space. The value is rounded HALF_UP to the scale by long arithmetic,
// with power10's table of 10^0..10^18 (beyond it Java throws ArrayIndexOutOfBoundsException),
// and not checked against the precision after rounding (fromUnscaledLong).
func smallStringToDecimal(b []byte, precision, scale int) (int64, error) {
	n, i := len(b), 0
	var c byte
	for i < n {
		c = b[i]
		if !isDecimalSpace(c) {
			break
		}
		i++
	}
	if i == n {
		return 0, errDecimalOverflow(b)
	}
	negative := c == '-'
	if negative || c == '+' {
		i++
		if i == n {
			return 0, errDecimalOverflow(b)
		}
	}
	var significand int64
	exp, digits, point := 0, 0, -1
	for i < n {
		c = b[i]
		i++
		if c >= '0' && c <= '9' {
			significand = significand*10 + int64(c-'0')
			digits++
		} else if c == '.' {
			if point >= 0 {
				return 0, errDecimalOverflow(b)
			}
			point = digits
		} else {
			break
		}
	}
	if point < 0 {
		point = digits
	}
	if negative {
		significand = -significand
	}
	if (c == 'e' || c == 'E') && i < n {
		c = b[i]
		expNegative := c == '-'
		if expNegative || c == '+' {
			i++
			if i == n {
				return 0, errDecimalOverflow(b)
			}
		}
		expDigits := 0
		for i < n {
			c = b[i]
			i++
			if c < '0' || c > '9' {
				break
			}
			if expDigits < 40 {
				expDigits = expDigits*10 + int(c-'0')
			}
		}
		if expNegative {
			expDigits = -expDigits
		}
		exp += expDigits
	}
	exp -= digits - point
	for i < n {
		c = b[i]
		i++
		if !isDecimalSpace(c) {
			return 0, errDecimalOverflow(b)
		}
	}
	change := exp + scale
	if digits+change > precision {
		return 0, errDecimalOverflow(b)
	}
	if change >= 0 {
		return significand * powersOf10Long(change), nil
	}
	if -change > 18 {
		// power10(-change - 1) is evaluated first.
		return 0, fmt.Errorf("java.lang.ArrayIndexOutOfBoundsException: Index %d out of bounds for length 19 (CAST of '%s' to DECIMAL(%d, %d))", max(-change-1, 19), b, precision, scale)
	}
	k := int64(5)
	if negative {
		k = -5
	}
	return (significand + k*powersOf10Long(-change-1)) / powersOf10Long(-change), nil
}

// powersOf10Long is DecimalDataUtils#power10 for n in 0..18.
func powersOf10Long(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// bigStringToDecimal is toBigPrecisionDecimal: the bytes decoded as strict UTF-8 (invalid
// UTF-8 is null), trimmed of ' ', '\n' and '\t', parsed as new BigDecimal(chars), then
// DecimalData#fromBigDecimal: HALF_UP to the scale, null when more digits than the precision.
func bigStringToDecimal(b []byte, precision, scale int) (decimal128.Num, error) {
	if !utf8.Valid(b) {
		return decimal128.Num{}, errDecimalOverflow(b)
	}
	start, end := 0, len(b)
	for start < end && isDecimalSpace(b[start]) {
		start++
	}
	for end > start && isDecimalSpace(b[end-1]) {
		end--
	}
	if start == end {
		// All white space: Flink passes the whole string to BigDecimal, which rejects it.
		start, end = 0, len(b)
	}
	unscaled, sc, err := parseJavaBigDecimal(b[start:end])
	if err != nil {
		return decimal128.Num{}, fmt.Errorf("java.lang.NumberFormatException: %v (CAST of '%s' to DECIMAL(%d, %d))", err, b, precision, scale)
	}
	v, ok, err := setScaleHalfUp(unscaled, sc, int64(scale), precision)
	if err != nil {
		return decimal128.Num{}, fmt.Errorf("%v (CAST of '%s' to DECIMAL(%d, %d))", err, b, precision, scale)
	}
	if !ok {
		return decimal128.Num{}, errDecimalOverflow(b)
	}
	return decimal128.FromBigInt(v), nil
}

// setScaleHalfUp is BigDecimal#setScale(scale, HALF_UP) of unscaled·10^-from followed by
// fromBigDecimal's precision check; ok is false where the result has more digits than
// precision. Scales far apart are settled without computing huge powers of ten; Java's own
// limit on them (10^n beyond BigInteger's range, n > 2^29) is an exception, as there.
func setScaleHalfUp(v *big.Int, from, to int64, precision int) (*big.Int, bool, error) {
	if v.Sign() == 0 {
		return new(big.Int), true, nil // BigDecimal#setScale of zero: zeroValueOf(scale)
	}
	digits := int64(len(new(big.Int).Abs(v).Text(10)))
	switch {
	case to >= from:
		if digits+(to-from) > int64(precision) {
			return nil, false, nil
		}
		return new(big.Int).Mul(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(to-from), nil)), true, nil
	case from-to > 1<<29:
		// BigDecimal#setScale computes 10^(from-to) as a BigInteger, beyond whose range it is.
		return nil, false, fmt.Errorf("java.lang.ArithmeticException: BigInteger would overflow supported range")
	case from-to > digits:
		return new(big.Int), true, nil // every digit dropped, the first of them below 5
	}
	div := new(big.Int).Exp(big.NewInt(10), big.NewInt(from-to), nil)
	q, r := new(big.Int).QuoRem(v, div, new(big.Int))
	r.Abs(r).Lsh(r, 1)
	if r.Cmp(div) >= 0 {
		if v.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if decimal.Digits(q) > precision {
		return nil, false, nil
	}
	return q, true, nil
}

// parseJavaBigDecimal is new BigDecimal(String)'s grammar: an optional sign, digits (any
// Unicode decimal digit, as Character#digit) with at most one point and at least one digit, then
// optionally 'e' or 'E', an optional sign and at least one digit. It returns the unscaled value
// and the scale (fraction digits minus the exponent), which must fit an int as in Java.
func parseJavaBigDecimal(s []byte) (*big.Int, int64, error) {
	i, n := 0, len(s)
	if n == 0 {
		return nil, 0, fmt.Errorf("empty string")
	}
	negative := false
	if s[0] == '-' || s[0] == '+' {
		negative = s[0] == '-'
		i++
	}
	var digits []byte
	fraction, point, seen := 0, false, false
	for i < n {
		r, size := utf8.DecodeRune(s[i:])
		if r == 'e' || r == 'E' {
			break
		}
		i += size
		if r == '.' {
			if point {
				return nil, 0, fmt.Errorf("character array contains more than one decimal point")
			}
			point = true
			continue
		}
		d, ok := javaDigit(r)
		if !ok {
			return nil, 0, fmt.Errorf("character %q is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark", r)
		}
		digits = append(digits, byte('0'+d))
		seen = true
		if point {
			fraction++
		}
	}
	if !seen {
		return nil, 0, fmt.Errorf("no digits found")
	}
	var exp int64
	if i < n { // at 'e' or 'E'
		i++
		if i == n {
			return nil, 0, fmt.Errorf("no exponent digits")
		}
		expNegative := false
		if s[i] == '-' || s[i] == '+' {
			expNegative = s[i] == '-'
			i++
		}
		if i == n {
			return nil, 0, fmt.Errorf("no exponent digits")
		}
		var expDigits []int
		for i < n {
			r, size := utf8.DecodeRune(s[i:])
			i += size
			d, ok := javaDigit(r)
			if !ok {
				return nil, 0, fmt.Errorf("exponent contains a non-digit %q", r)
			}
			expDigits = append(expDigits, d)
		}
		// parseExp: leading zeros skipped while more than ten digits remain; then at most ten.
		for len(expDigits) > 10 && expDigits[0] == 0 {
			expDigits = expDigits[1:]
		}
		if len(expDigits) > 10 {
			return nil, 0, fmt.Errorf("too many nonzero exponent digits")
		}
		for _, d := range expDigits {
			exp = exp*10 + int64(d)
		}
		if expNegative {
			exp = -exp
		}
		if exp > math.MaxInt32 || exp < math.MinInt32 {
			return nil, 0, fmt.Errorf("exponent overflow")
		}
	}
	scale := int64(fraction) - exp
	if scale > math.MaxInt32 || scale < math.MinInt32 {
		return nil, 0, fmt.Errorf("scale out of range")
	}
	v, _ := new(big.Int).SetString(string(digits), 10)
	if negative {
		v.Neg(v)
	}
	return v, scale, nil
}

// javaDigit is Character#digit(char, 10): the value of a decimal digit of any script (Unicode
// category Nd, whose digits come in runs of ten from zero) in the Basic Multilingual Plane; a
// character beyond it is two UTF-16 chars to BigDecimal, neither of them a digit.
func javaDigit(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r > 0xFFFF || !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10, true
}
