package expr

import (
	"bytes"
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
)

func init() {
	for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
		register(&Function{Name: op, Family: "comparison",
			Doc:     "on numeric types (Java promotion; DECIMAL exact, DECIMAL vs floating by Double.compare), strings (UTF-8 bytes), BOOLEAN, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (both sides of precision up to 3, or both 4 to 6, or either 7 to 9: TimestampData#compareTo)",
			compile: compileCompare, NanoTimestamps: true})
	}
}

// cmpKind is how two operands are compared.
type cmpKind int

const (
	cmpInt64 cmpKind = iota
	cmpFloat64
	cmpFloatBits     // Double#doubleToLongBits equality (SEARCH points of floating values)
	cmpDecimal       // exact, both converted to unscaled big integers at a common scale
	cmpDecimalDouble // Double.compare(doubleValue(decimal), double)
	cmpBytes
	cmpBool
	cmpTimestamp // TimestampData#compareTo: millisecond, then nanos of the millisecond
)

func compileCompare(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	l, r := args[0].Type(), args[1].Type()
	var k cmpKind
	switch {
	case l.IsNumeric() && r.IsNumeric():
		ld, rd := l.Kind == catalog.Decimal, r.Kind == catalog.Decimal
		lf := l.Kind == catalog.Float || l.Kind == catalog.Double
		rf := r.Kind == catalog.Float || r.Kind == catalog.Double
		switch {
		case (ld && rf) || (rd && lf):
			k = cmpDecimalDouble
		case ld || rd:
			k = cmpDecimal
		case lf || rf:
			k = cmpFloat64
		default:
			k = cmpInt64
		}
	case l.IsString() && r.IsString(), l.IsBinary() && r.IsBinary():
		k = cmpBytes
	case l.Kind == catalog.Boolean && r.Kind == catalog.Boolean:
		k = cmpBool
	case l.Kind == r.Kind && (l.Kind == catalog.Date || l.Kind == catalog.Time):
		k = cmpInt64
	case l.Kind == r.Kind && (l.Kind == catalog.Timestamp || l.Kind == catalog.TimestampLTZ) && unitOf(l) == unitOf(r) && unitOf(l) != column.Nanos:
		// Both sides in the same unit (milliseconds up to precision 3, microseconds 4 to 6).
		k = cmpInt64
	case l.Kind == r.Kind && (l.Kind == catalog.Timestamp || l.Kind == catalog.TimestampLTZ) && (l.IsNanoTimestamp() || r.IsNanoTimestamp()):
		k = cmpTimestamp
	default:
		return nil, unsupported("comparison %s of %s is not supported natively yet", n.Op, typeNames(args))
	}
	if k == cmpFloat64 && n.bitsEqual {
		k = cmpFloatBits
	}
	if k == cmpBytes && l.IsString() && len(n.Args) == 2 {
		if err := stringCompareHazard(n.Op, n.Args[0], n.Args[1], n.Op != "=" && n.Op != "<>"); err != nil {
			return nil, err
		}
	}
	c := &compare{op: n.Op, kind: k, left: args[0], right: args[1], typ: n.Type}
	c.prepareScalar()
	return c, nil
}

// prepareScalar sets up the literal fast path: the literal side is converted once and the
// column side is compared with it (operands swapped when the literal is on the left).
func (e *compare) prepareScalar() {
	col, lit, op := e.left, e.right, e.op
	if _, ok := constantValue(lit); !ok {
		if _, ok := constantValue(col); !ok {
			return
		}
		col, lit, op = lit, col, flip(op)
	}
	v, _ := constantValue(lit)
	ct, lt := col.Type(), lit.Type()
	switch e.kind {
	case cmpInt64:
		var k int64
		switch x := v.(type) {
		case int64:
			k = x
		default:
			return
		}
		e.scalar = &scalarCmp{col: col, op: op, i64: k}
		if (ct.Kind == catalog.Int || ct.Kind == catalog.Date || ct.Kind == catalog.Time) && k == int64(int32(k)) {
			e.scalar.i32, e.scalar.useI32 = int32(k), true
		}
	case cmpFloat64:
		var k float64
		switch x := v.(type) {
		case int64:
			k = float64(x)
		case float64:
			k = x
		default:
			return
		}
		e.scalar = &scalarCmp{col: col, op: op, f64: k}
	case cmpDecimalDouble:
		var k float64
		switch x := v.(type) {
		case decimal128.Num:
			k = decimalToFloat64(x, lt)
		case float64:
			k = x
		default:
			return
		}
		e.scalar = &scalarCmp{col: col, op: op, f64: k, javaOrder: true}
	}
}

// scalarCmp is a comparison of a column with a constant.
type scalarCmp struct {
	col       Expr
	op        string
	i64       int64
	i32       int32
	useI32    bool
	f64       float64
	javaOrder bool // Double.compare semantics (DECIMAL vs floating)
}

func (e *compare) evalScalar(ctx *Ctx, in Batch) (arrow.Array, error) {
	s := e.scalar
	a, err := s.col.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := ctx.N
	out := column.NewBitmap(ctx.Mem, n)
	bits := out.Bytes()
	t := s.col.Type()
	switch {
	case e.kind == cmpInt64 && s.useI32:
		cmpScalar(s.op, column.Values[int32](a), s.i32, bits)
	case e.kind == cmpInt64:
		cmpScalar(s.op, asInt64(a, t), s.i64, bits)
	case s.javaOrder:
		var vals []float64
		if t.Kind == catalog.Decimal {
			vals = decimalsAsFloat64(a, t)
		} else {
			vals = asFloat64(a, t)
		}
		for i, v := range vals {
			if holds(s.op, javaDoubleCompare(v, s.f64)) {
				bitutil.SetBit(bits, i)
			}
		}
	default:
		cmpScalar(s.op, asFloat64(a, t), s.f64, bits)
	}
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, andValidity(ctx.Mem, n, a), out), nil
}

type compare struct {
	op          string
	kind        cmpKind
	left, right Expr
	typ         catalog.Type
	scalar      *scalarCmp // set when one operand is a literal
}

func (e *compare) Type() catalog.Type { return e.typ }

// holds reports whether c (negative, zero, positive) satisfies the operator.
func holds(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func (e *compare) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	if e.scalar != nil {
		return e.evalScalar(ctx, in)
	}
	la, ra, err := evalBoth(ctx, in, e.left, e.right)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	n := ctx.N
	out := column.NewBitmap(ctx.Mem, n)
	bits := out.Bytes()
	lt, rt := e.left.Type(), e.right.Type()
	switch e.kind {
	case cmpInt64:
		if lt.Kind == rt.Kind && (lt.Kind == catalog.Int || lt.Kind == catalog.Date || lt.Kind == catalog.Time) {
			cmpOrdered(e.op, column.Values[int32](la), column.Values[int32](ra), bits)
			break
		}
		a, b := asInt64(la, lt), asInt64(ra, rt)
		cmpOrdered(e.op, a, b, bits)
	case cmpFloat64:
		// Java promotes both to the wider floating type; float vs float stays float, which
		// compares the same after widening to double.
		a, b := asFloat64(la, lt), asFloat64(ra, rt)
		cmpOrdered(e.op, a, b, bits)
	case cmpFloatBits:
		a, b := asFloat64(la, lt), asFloat64(ra, rt)
		for i := 0; i < n; i++ {
			if javaDoubleBits(a[i]) == javaDoubleBits(b[i]) {
				bitutil.SetBit(bits, i)
			}
		}
	case cmpDecimal:
		av, as := decimalOperand(la, lt)
		bv, bs := decimalOperand(ra, rt)
		a64, _, aFast := int64Operand(la, lt)
		b64, _, bFast := int64Operand(ra, rt)
		for i := 0; i < n; i++ {
			if !isValid(la, i) || !isValid(ra, i) {
				continue
			}
			if aFast && bFast {
				if c, ok := compare64(a64[i], as, b64[i], bs); ok {
					if holds(e.op, c) {
						bitutil.SetBit(bits, i)
					}
					continue
				}
			}
			x, y, _ := decimal.AlignScales(av(i), as, bv(i), bs)
			if holds(e.op, x.Cmp(y)) {
				bitutil.SetBit(bits, i)
			}
		}
	case cmpDecimalDouble:
		var a, b []float64
		if lt.Kind == catalog.Decimal {
			a, b = decimalsAsFloat64(la, lt), asFloat64(ra, rt)
		} else {
			a, b = asFloat64(la, lt), decimalsAsFloat64(ra, rt)
		}
		for i := 0; i < n; i++ {
			if holds(e.op, javaDoubleCompare(a[i], b[i])) {
				bitutil.SetBit(bits, i)
			}
		}
	case cmpBytes:
		for i := 0; i < n; i++ {
			if isValid(la, i) && isValid(ra, i) && holds(e.op, bytes.Compare(bytesAt(la, i), bytesAt(ra, i))) {
				bitutil.SetBit(bits, i)
			}
		}
	case cmpTimestamp:
		cmpTimestamps(e.op, column.ReadTimestamps(la), column.ReadTimestamps(ra), bits, n)
	case cmpBool:
		a, b := la.(*array.Boolean), ra.(*array.Boolean)
		for i := 0; i < n; i++ {
			if holds(e.op, boolInt(a.Value(i))-boolInt(b.Value(i))) {
				bitutil.SetBit(bits, i)
			}
		}
	}
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, andValidity(ctx.Mem, n, la, ra), out), nil
}

// cmpTimestamps compares timestamps as TimestampData#compareTo does (millisecond, then nanos
// of the millisecond), with a loop of its own when both sides are TIMESTAMP(7..9).
func cmpTimestamps(op string, a, b column.Timestamps, bits []byte, n int) {
	if a.Unit() == column.Nanos && b.Unit() == column.Nanos {
		ams, ans := a.NanoParts()
		bms, bns := b.NanoParts()
		for i := 0; i < n; i++ {
			c := cmp.Compare(ams[i], bms[i])
			if c == 0 {
				c = cmp.Compare(ans[i], bns[i])
			}
			if holds(op, c) {
				bitutil.SetBit(bits, i)
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		ams, an := a.At(i)
		bms, bn := b.At(i)
		c := cmp.Compare(ams, bms)
		if c == 0 {
			c = cmp.Compare(an, bn)
		}
		if holds(op, c) {
			bitutil.SetBit(bits, i)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOrdered[T int32 | int64 | float64](op string, a, b []T, bits []byte) {
	switch op {
	case "=":
		for i := range a {
			if a[i] == b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	case "<>":
		for i := range a {
			if a[i] != b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	case "<":
		for i := range a {
			if a[i] < b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	case "<=":
		for i := range a {
			if a[i] <= b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	case ">":
		for i := range a {
			if a[i] > b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	case ">=":
		for i := range a {
			if a[i] >= b[i] {
				bitutil.SetBit(bits, i)
			}
		}
	}
}

// javaDoubleCompare is java.lang.Double.compare: -0.0 < 0.0 and NaN above everything.
func javaDoubleCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	ab, bb := javaDoubleBits(a), javaDoubleBits(b)
	switch {
	case ab == bb:
		return 0
	case ab < bb:
		return -1
	}
	return 1
}

// javaDoubleBits is Double.doubleToLongBits (NaN canonicalised).
func javaDoubleBits(f float64) int64 {
	if f != f {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

// asInt64 widens an integral or temporal column to int64 values.
func asInt64(a arrow.Array, t catalog.Type) []int64 {
	switch t.Kind {
	case catalog.BigInt, catalog.Timestamp, catalog.TimestampLTZ:
		return column.Values[int64](a)
	case catalog.Date, catalog.Time:
		out := make([]int64, a.Len())
		convertFixed(column.Values[int32](a), out)
		return out
	}
	return integralAsInt64(a, t)
}

// asFloat64 widens a non-decimal numeric column to float64 values.
func asFloat64(a arrow.Array, t catalog.Type) []float64 {
	out := make([]float64, a.Len())
	switch t.Kind {
	case catalog.Double:
		return column.Values[float64](a)
	case catalog.Float:
		convertFixed(column.Values[float32](a), out)
	default:
		convertFixed(integralAsInt64(a, t), out)
	}
	return out
}

func decimalsAsFloat64(a arrow.Array, t catalog.Type) []float64 {
	src := column.Values[decimal128.Num](a)
	out := make([]float64, len(src))
	for i, d := range src {
		out[i] = decimalToFloat64(d, t)
	}
	return out
}

// bytesAt returns the bytes of row i of a string or binary column.
func bytesAt(a arrow.Array, i int) []byte {
	switch c := a.(type) {
	case *array.String:
		off := c.ValueOffsets()
		return c.ValueBytes()[off[i]-off[0] : off[i+1]-off[0]]
	case *array.Binary:
		return c.Value(i)
	}
	return nil
}
