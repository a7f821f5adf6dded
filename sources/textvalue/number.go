package textvalue

import (
	"math/big"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/exec/decimal"
)

// EqualFoldTrue is "true".equalsIgnoreCase(b) for ASCII text (Java folds a few non-ASCII
// characters too, none of which fold to t, r, u or e except the Kelvin sign for k, not here).
func EqualFoldTrue(b []byte) bool {
	if len(b) != 4 {
		return false
	}
	for i, c := range b {
		if c|0x20 != "true"[i] {
			return false
		}
	}
	return true
}

// JavaTrim is String#trim: it drops characters up to U+0020 at both ends.
func JavaTrim(b []byte) []byte {
	for len(b) > 0 && b[0] <= ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] <= ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// BytesString is b as a string without a copy, for strconv's parsers, which keep no reference
// to their input (their errors hold a copy).
func BytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// PlainDecimal reports whether b is [+-]digits[.digits][(e|E)[+-]digits] in ASCII.
func PlainDecimal(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	d := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		d++
	}
	if d == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d = 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			d++
		}
		if d == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d = 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			d++
		}
		if d == 0 {
			return false
		}
	}
	return i == len(b)
}

// Scales of decimal texts decoded here (digits after the point minus the exponent); Flink's
// BigDecimal takes any int exponent (slowly), texts past these are left to it.
const (
	// maxDecimalText is the longest text decoded here (Jackson's number length limit).
	maxDecimalText  = 1000
	minDecimalScale = -100
	maxDecimalScale = 150
)

// ParseDecimalText reads plain decimal text (see PlainDecimal) into v and returns its scale, as
// new BigDecimal(text).
func ParseDecimalText(v *big.Int, b []byte) (int, bool) {
	if !PlainDecimal(b) || len(b) > maxDecimalText {
		return 0, false
	}
	mant, exp := b, 0
	for i, c := range b {
		if c == 'e' || c == 'E' {
			mant = b[:i]
			e, err := strconv.Atoi(string(b[i+1:]))
			if err != nil || e > -minDecimalScale+maxDecimalText || e < -maxDecimalScale-maxDecimalText {
				return 0, false
			}
			exp = e
			break
		}
	}
	digits := make([]byte, 0, len(mant))
	scale := 0
	dot := false
	for _, c := range mant {
		switch {
		case c == '.':
			dot = true
		case c >= '0' && c <= '9':
			digits = append(digits, c)
			if dot {
				scale++
			}
		case c == '-':
			digits = append(digits, c)
		}
	}
	scale -= exp
	if scale < minDecimalScale || scale > maxDecimalScale {
		return 0, false
	}
	if _, ok := v.SetString(string(digits), 10); !ok {
		return 0, false
	}
	return scale, true
}

// FitDecimal is DecimalData.fromBigDecimal(v at scale, precision, resultScale): HALF_UP to the
// scale, nothing (fits false) past the precision.
func FitDecimal(v *big.Int, scale, precision, resultScale int) (decimal128.Num, bool) {
	if scale < 0 {
		v = new(big.Int).Mul(v, decimal.Pow10(-scale))
		scale = 0
	}
	return decimal.Fit(v, scale, precision, resultScale)
}
