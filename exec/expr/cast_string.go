package expr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Casts from strings parse exactly as Flink's BinaryStringDataUtil does; a value Flink cannot
// parse fails the row (CAST) or yields NULL (TRY_CAST). Casts between BOOLEAN and numbers
// follow BooleanToNumericCastRule and NumericToBooleanCastRule.

// parseJavaInt is BinaryStringDataUtil#toLong/#toInt on a string already trimmed of spaces:
// an optional sign, digits, and an optional '.' followed only by digits (truncated).
func parseJavaInt(b []byte, bits int) (int64, string) {
	if len(b) == 0 {
		return 0, "Input is empty."
	}
	i := 0
	neg := b[0] == '-'
	if neg || b[0] == '+' {
		i++
		if len(b) == 1 {
			return 0, "Input has only positive or negative symbol."
		}
	}
	minVal := int64(math.MinInt64)
	if bits == 32 {
		minVal = math.MinInt32
	}
	stop := minVal / 10
	var result int64
	for i < len(b) {
		c := b[i]
		i++
		if c == '.' {
			break
		}
		if c < '0' || c > '9' {
			return 0, "Invalid character found."
		}
		if result < stop {
			return 0, "Overflow."
		}
		result = result*10 - int64(c-'0')
		if result > 0 || result < minVal {
			return 0, "Overflow."
		}
	}
	for ; i < len(b); i++ {
		if b[i] < '0' || b[i] > '9' {
			return 0, "Invalid character found."
		}
	}
	if !neg {
		result = -result
		if result < 0 || (bits == 32 && result > math.MaxInt32) {
			return 0, "Overflow."
		}
	}
	return result, ""
}

// trimSpaces is BinaryStringData#trim: only 0x20 is removed.
func trimSpaces(b []byte) []byte {
	s, e := 0, len(b)
	for s < e && b[s] == ' ' {
		s++
	}
	for e > s && b[e-1] == ' ' {
		e--
	}
	return b[s:e]
}

var trueWords, falseWords = []string{"t", "true", "y", "yes", "1"}, []string{"f", "false", "n", "no", "0"}

// parseJavaBool is BinaryStringDataUtil#toBoolean: the lower-cased string must be one of the
// words (only ASCII letters can lower-case into them).
func parseJavaBool(b []byte) (bool, bool) {
	if len(b) > 5 {
		return false, false
	}
	var lower [5]byte
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		lower[i] = c
	}
	s := string(lower[:len(b)])
	for _, w := range trueWords {
		if s == w {
			return true, true
		}
	}
	for _, w := range falseWords {
		if s == w {
			return false, true
		}
	}
	return false, false
}

// fromString casts a string column to an integral type or BOOLEAN.
type fromString struct {
	arg Expr
	typ catalog.Type
	try bool // TRY_CAST: NULL instead of failing
}

func (e *fromString) Type() catalog.Type { return e.typ }

func (e *fromString) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	a, err := e.arg.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := ctx.N
	r := newBytesReader(a)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	fail := func(i int, err error) {
		if !e.try {
			ctx.fail(i, err)
		}
	}
	if e.typ.Kind == catalog.Boolean {
		out := column.NewBitmap(ctx.Mem, n)
		for i := 0; i < n; i++ {
			if r.valid != nil && !bitutil.BitIsSet(r.valid, r.voff+i) {
				continue
			}
			s := r.at(i)
			v, ok := parseJavaBool(s)
			if !ok {
				fail(i, fmt.Errorf("org.apache.flink.table.api.TableException: Cannot parse '%s' as BOOLEAN.", s))
				continue
			}
			bitutil.SetBit(vbits, i)
			if v {
				bitutil.SetBit(out.Bytes(), i)
			}
		}
		return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, valid, out), nil
	}
	if e.typ.Kind == catalog.Float || e.typ.Kind == catalog.Double {
		width := 64
		if e.typ.Kind == catalog.Float {
			width = 32
		}
		buf, dst := column.NewValues[float64](ctx.Mem, n)
		for i := 0; i < n; i++ {
			if r.valid != nil && !bitutil.BitIsSet(r.valid, r.voff+i) {
				continue
			}
			s := r.at(i)
			v, ok := parseJavaDouble(s, width)
			if !ok {
				fail(i, fmt.Errorf("java.lang.NumberFormatException: For input string: \"%s\"", s))
				continue
			}
			dst[i] = v
			bitutil.SetBit(vbits, i)
		}
		src := column.MakeArray(arrow.PrimitiveTypes.Float64, n, valid, buf)
		defer src.Release()
		return castNumeric(ctx, src, catalog.DoubleType(true), e.typ)
	}
	bits := 64
	if e.typ.Kind != catalog.BigInt {
		bits = 32
	}
	buf, longs := column.NewValues[int64](ctx.Mem, n)
	for i := 0; i < n; i++ {
		if r.valid != nil && !bitutil.BitIsSet(r.valid, r.voff+i) {
			continue
		}
		s := r.at(i)
		v, why := parseJavaInt(trimSpaces(s), bits)
		if why == "" {
			switch e.typ.Kind { // toShort/toByte: the int must survive the narrowing
			case catalog.SmallInt:
				if int64(int16(v)) != v {
					why = "Overflow."
				}
			case catalog.TinyInt:
				if int64(int8(v)) != v {
					why = "Overflow."
				}
			}
		}
		if why != "" {
			fail(i, fmt.Errorf("java.lang.NumberFormatException: For input string: '%s'. %s", trimSpaces(s), why))
			continue
		}
		longs[i] = v
		bitutil.SetBit(vbits, i)
	}
	src := column.MakeArray(arrow.PrimitiveTypes.Int64, n, valid, buf)
	defer src.Release()
	return castNumeric(ctx, src, catalog.BigIntType(true), e.typ)
}

// boolToNumber is BooleanToNumericCastRule: TRUE → 1, FALSE → 0 in the target type.
type boolToNumber struct {
	unary
}

func (e *boolToNumber) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *boolToNumber) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	b := a.(*array.Boolean)
	n := ctx.N
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	for i := range dst {
		if b.Value(i) {
			dst[i] = 1
		}
	}
	ints := column.MakeArray(arrow.PrimitiveTypes.Int64, n, andValidity(ctx.Mem, n, a), buf)
	defer ints.Release()
	return castNumeric(ctx, ints, catalog.BigIntType(true), e.typ)
}

// numberToBool is NumericToBooleanCastRule: value != 0 (a DECIMAL compared with zero).
type numberToBool struct {
	unary
}

func (e *numberToBool) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *numberToBool) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	out := column.NewBitmap(ctx.Mem, n)
	bits := out.Bytes()
	t := e.arg.Type()
	switch t.Kind {
	case catalog.Float, catalog.Double:
		for i, v := range asFloat64(a, t) {
			if v != 0 {
				bitutil.SetBit(bits, i)
			}
		}
	case catalog.Decimal:
		for i, v := range column.Values[decimal128.Num](a) {
			if v.Sign() != 0 {
				bitutil.SetBit(bits, i)
			}
		}
	default:
		for i, v := range integralAsInt64(a, t) {
			if v != 0 {
				bitutil.SetBit(bits, i)
			}
		}
	}
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, andValidity(ctx.Mem, n, a), out), nil
}

// parseJavaDouble is Double.parseDouble (bits = 64) or Float.parseFloat (bits = 32), rounding
// directly to the target width as Java does. Java's grammar: surrounding characters ≤ U+0020
// are ignored; an optional sign; "NaN", "Infinity", a decimal number with an optional exponent,
// or a hexadecimal number with a binary exponent; an optional type suffix f, F, d or D.
func parseJavaDouble(b []byte, bits int) (float64, bool) {
	s, e := 0, len(b)
	for s < e && b[s] <= ' ' {
		s++
	}
	for e > s && b[e-1] <= ' ' {
		e--
	}
	t := string(b[s:e])
	if t == "" {
		return 0, false
	}
	body, sign := t, ""
	if body[0] == '+' || body[0] == '-' {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return javaNaN, true
	case "Infinity":
		if sign == "-" {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 0 && strings.ContainsRune("fFdD", rune(body[n-1])) {
		body = body[:n-1]
	}
	if !javaFloatSyntax(body) {
		return 0, false
	}
	v, err := strconv.ParseFloat(sign+body, bits)
	if err != nil {
		// Out of range is not an error in Java: the value rounds to ±Infinity or ±0.
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

// javaNaN is Double.NaN (0x7ff8000000000000); Go's math.NaN() has other bits.
var javaNaN = math.Float64frombits(0x7ff8000000000000)

// javaFloatSyntax checks an unsigned number without suffix against Java's FloatingDecimal
// grammar, which is stricter than strconv's (no underscores, no "inf").
func javaFloatSyntax(s string) bool {
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		// hex: digits [. digits] p [sign] digits, at least one hex digit
		i, digits := 2, 0
		for i < len(s) && isHex(s[i]) {
			i, digits = i+1, digits+1
		}
		if i < len(s) && s[i] == '.' {
			i++
			for i < len(s) && isHex(s[i]) {
				i, digits = i+1, digits+1
			}
		}
		if digits == 0 || i >= len(s) || (s[i] != 'p' && s[i] != 'P') {
			return false
		}
		return expDigits(s[i+1:])
	}
	i, digits := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	return expDigits(s[i+1:])
}

func expDigits(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
