package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
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

// fromString casts a string column to an integral type, BOOLEAN, FLOAT, DOUBLE, DECIMAL, DATE,
// TIME or TIMESTAMP.
type fromString struct {
	arg Expr
	typ catalog.Type
	try bool // TRY_CAST: NULL instead of failing
	// nullOnly (with try): only a string that Flink's parser rejects by returning null is NULL;
	// one it throws on still fails (TO_DATE).
	nullOnly bool
	// zone reads a string cast to TIMESTAMP_LTZ as a wall clock of the session time zone.
	zone *javatime.Zone
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
	if e.typ.Kind == catalog.Timestamp || e.typ.Kind == catalog.TimestampLTZ {
		return parseTimestamps(ctx, a, e.typ.Precision, e.try, e.typ, e.zone), nil
	}
	if e.typ.Kind == catalog.Decimal {
		buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
		for i := 0; i < n; i++ {
			if !r.isValid(i) {
				continue
			}
			v, err := stringToDecimal(r.at(i), e.typ.Precision, e.typ.Scale)
			if err != nil {
				fail(i, err)
				continue
			}
			dst[i] = v
			bitutil.SetBit(vbits, i)
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	if e.typ.Kind == catalog.Time {
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		for i := 0; i < n; i++ {
			if !r.isValid(i) {
				continue
			}
			s := r.at(i)
			t, ok, err := parseJavaTime(s)
			if err != nil {
				ctx.fail(i, fmt.Errorf("CAST of '%s' to TIME: %w", s, err))
				continue
			}
			if !ok {
				fail(i, fmt.Errorf("java.time.DateTimeException: For input string: '%s'.", s))
				continue
			}
			dst[i] = t
			bitutil.SetBit(vbits, i)
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	if e.typ.Kind == catalog.Date {
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		for i := 0; i < n; i++ {
			if !r.isValid(i) {
				continue
			}
			s := r.at(i)
			d, ok, throws := parseJavaDate(s)
			switch {
			case throws && e.nullOnly:
				ctx.fail(i, fmt.Errorf("java.lang.NumberFormatException: For input string: '%s'", s))
				continue
			case !ok:
				fail(i, fmt.Errorf("java.time.DateTimeException: For input string: '%s'.", s))
				continue
			}
			dst[i] = d
			bitutil.SetBit(vbits, i)
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
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
			v, ok := javatext.ParseDouble(s, width)
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

// charTrimPad is a cast of a string to CHAR(n) (CharVarCharTrimPadCastRule): cut to n
// characters, then padded with spaces to n characters. Flink applies it also where the types
// are equal, e.g. to every CASE branch of a CHAR result, and for a CHAR target it cuts whatever
// the source type's length: a value may be longer than its type says (UPPER('ŉ') is 'ʼN').
func charTrimPad(arg Expr, to catalog.Type) Expr { return trimPad(arg, to, true) }

// varCharTrim is a cast of a string to VARCHAR(n) where the source may be longer
// (CharVarCharTrimPadCastRule): cut to n characters, not padded. A string source whose type's
// length is at most n is taken as it is (Flink assumes sources respect their types).
func varCharTrim(arg Expr, to catalog.Type) Expr { return trimPad(arg, to, false) }

func trimPad(arg Expr, to catalog.Type, pad bool) Expr {
	n := to.Length
	return &stringFn{args: []Expr{arg}, typ: to, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		s := v[0]
		chars := numChars(s)
		if chars > n {
			s, _ = substringSQL(s, 1, n)
			chars = n
		}
		dst = append(dst, s...)
		for ; pad && chars < n; chars++ {
			dst = append(dst, ' ')
		}
		return dst, true
	}}
}
