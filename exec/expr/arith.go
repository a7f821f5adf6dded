package expr

import (
	"github.com/sluice-project/sluice/exec/decimal"

	"errors"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

var errIntDiv0 = errors.New("java.lang.ArithmeticException: / by zero")

func init() {
	for _, op := range []struct{ name, doc string }{
		{"+", "a + b on TINYINT..BIGINT, FLOAT, DOUBLE, DECIMAL: Java wrap-around for integers, Flink decimal rules (HALF_UP to the result scale, NULL on precision overflow); a time point plus an interval (also TIMESTAMPADD) as Flink's generated code: TIMESTAMP and TIMESTAMP_LTZ (p ≤ 6) + INTERVAL DAY TO SECOND on the epoch milliseconds, + INTERVAL YEAR TO MONTH by DateTimeUtils#addMonths (day clamped to the month's end), DATE + whole days of an INTERVAL DAY TO SECOND (int arithmetic, ArithmeticException beyond an int) or + months; an interval plus an interval of the same kind (Java int/long arithmetic; a NOT NULL left interval with a nullable right one falls back: Flink types the sum NOT NULL and writes -1 for a NULL sum)"},
		{"-", "a - b and unary -a, as +; a time point minus an interval, as +; the difference of two time points into an interval (TIMESTAMPDIFF) as Flink's generated code: INTERVAL DAY TO SECOND as the difference of the epoch milliseconds (sub-millisecond digits dropped, a DATE at midnight), INTERVAL YEAR TO MONTH by DateTimeUtils#subtractMonths; TIMESTAMP_LTZ only with TIMESTAMP_LTZ; differences with TIME operands fall back"},
		{"*", "a * b, as +; an INTERVAL times a TINYINT..BIGINT (either order; also TIMESTAMPADD with a non-literal amount) on the interval's int months or long milliseconds, the integer narrowed and the product wrapped as Java does (FLOAT, DOUBLE and DECIMAL factors fail in Flink and fall back)"},
		{"/", "a / b: integer division truncates and fails on zero like Java; DECIMAL quotient rounded to 38 digits then HALF_UP to the result scale"},
		{"%", "a % b: Java remainder (sign of the dividend); integer % 0 fails"},
		{"MOD", "MOD(a, b), as %"},
	} {
		f := &Function{Name: op.name, Family: "arithmetic", Doc: op.doc, compile: compileArith}
		if op.name == "+" || op.name == "-" {
			f.codegenNullable = temporalCodegenNullable
			f.NanoTimestamps = true // a time point ± an interval, the difference of two
		}
		register(f)
	}
}

// temporalCodegenNullable: ScalarOperatorGens#generateTemporalPlusMinus types a DATE or TIME
// plus or minus an interval (in either order) new DateType() or new TimeType(), nullable.
func temporalCodegenNullable(b *Node) bool {
	if len(b.Args) != 2 {
		return false
	}
	point := func(t catalog.Type) bool { return t.Kind == catalog.Date || t.Kind == catalog.Time }
	l, r := b.Args[0].Type, b.Args[1].Type
	// A TIMESTAMP result (TIMESTAMPADD(HOUR, n, date)) takes the plan's type.
	return point(b.Type) && (point(l) && r.IsInterval() || l.IsInterval() && point(r))
}

func compileArith(n *Node, args []Expr) (Expr, error) {
	op := n.Op
	switch op {
	case "MOD":
		op = "%"
	case "/INT":
		op = "/"
	}
	if op == "-" && len(args) == 1 {
		return compileNegate(n, args[0])
	}
	if len(args) != 2 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	l, r, res := args[0].Type(), args[1].Type(), n.Type
	if e, ok := compileTimestampInterval(op, args, res); ok {
		return e, nil
	}
	if e, ok := compileTimePointDiff(op, args, res); ok {
		return e, nil
	}
	if e, ok, err := compileIntervalArith(op, args, res); ok {
		return e, err
	}
	if !l.IsNumeric() || !r.IsNumeric() || !res.IsNumeric() {
		return nil, unsupported("%s on %s is not supported natively yet", n.Op, typeNames(args))
	}
	if res.Kind == catalog.Decimal {
		for _, t := range []catalog.Type{l, r} {
			if t.Kind == catalog.Float || t.Kind == catalog.Double {
				return nil, unsupported("%s of %s into DECIMAL is not supported natively yet", n.Op, typeNames(args))
			}
		}
		return &decimalArith{op: op[0], left: args[0], right: args[1], typ: res}, nil
	}
	// Java: (R) (cast(left) op cast(right)); for % a left operand of another type than the
	// right keeps its own type (a DECIMAL becomes BIGINT).
	leftCast := res
	if op == "%" && !interoperable(l, r) {
		leftCast = l
		if l.Kind == catalog.Decimal {
			leftCast = catalog.BigIntType(l.Nullable)
		}
	}
	calc := javaPromote(leftCast, res)
	e := &primitiveArith{op: op[0], left: args[0], right: args[1], leftCast: leftCast, calc: calc, typ: res}
	e.k, _ = constantAs(args[1], res, calc)
	return e, nil
}

// interoperable reports whether two types are the same but for nullability.
func interoperable(a, b catalog.Type) bool { return a.WithNullable(true).Equal(b.WithNullable(true)) }

// javaPromote is Java's binary numeric promotion of two primitive types.
func javaPromote(a, b catalog.Type) catalog.Type {
	k := catalog.Int
	for _, t := range []catalog.Type{a, b} {
		switch {
		case t.Kind == catalog.Double:
			k = catalog.Double
		case t.Kind == catalog.Float && k != catalog.Double:
			k = catalog.Float
		case t.Kind == catalog.BigInt && k == catalog.Int:
			k = catalog.BigInt
		}
	}
	return catalog.Type{Kind: k, Nullable: true}
}

type primitiveArith struct {
	op                  byte
	left, right         Expr
	leftCast, calc, typ catalog.Type
	// k is the right operand converted to the calc type when it is a literal, else nil.
	k any
}

func (e *primitiveArith) Type() catalog.Type { return e.typ }

func (e *primitiveArith) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	la, err := e.left.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	if e.k != nil {
		return e.evalScalar(ctx, la)
	}
	ra, err := e.right.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer ra.Release()
	// Cast operands as Java does: left to leftCast, right to the result type, then both to the
	// promoted computation type.
	lc, err := castChain(ctx, la, e.left.Type(), e.leftCast, e.calc)
	if err != nil {
		return nil, err
	}
	defer lc.Release()
	rc, err := castChain(ctx, ra, e.right.Type(), e.typ, e.calc)
	if err != nil {
		return nil, err
	}
	defer rc.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, lc, rc)
	var vbits []byte
	if valid != nil {
		vbits = valid.Bytes()
	}
	calcType := e.calc.WithNullable(true)
	var out arrow.Array
	switch e.calc.Kind {
	case catalog.Int:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		valid = failRows(ctx, valid, intArith(e.op, column.Values[int32](lc), column.Values[int32](rc), dst, vbits), errIntDiv0)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case catalog.BigInt:
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		valid = failRows(ctx, valid, intArith(e.op, column.Values[int64](lc), column.Values[int64](rc), dst, vbits), errIntDiv0)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case catalog.Float:
		buf, dst := column.NewValues[float32](ctx.Mem, n)
		floatArith(e.op, column.Values[float32](lc), column.Values[float32](rc), dst)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case catalog.Double:
		buf, dst := column.NewValues[float64](ctx.Mem, n)
		floatArith(e.op, column.Values[float64](lc), column.Values[float64](rc), dst)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	}
	defer out.Release()
	return castNumeric(ctx, out, calcType, e.typ)
}

// evalScalar computes left op k for a literal right operand.
func (e *primitiveArith) evalScalar(ctx *Ctx, la arrow.Array) (arrow.Array, error) {
	lc, err := castChain(ctx, la, e.left.Type(), e.leftCast, e.calc)
	if err != nil {
		return nil, err
	}
	defer lc.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, lc)
	calcType := e.calc.WithNullable(true)
	var out arrow.Array
	var zeroDiv bool
	switch k := e.k.(type) {
	case int32:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		zeroDiv = arithScalar(e.op, column.Values[int32](lc), k, dst, true)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case int64:
		buf, dst := column.NewValues[int64](ctx.Mem, n)
		zeroDiv = arithScalar(e.op, column.Values[int64](lc), k, dst, true)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case float32:
		buf, dst := column.NewValues[float32](ctx.Mem, n)
		arithScalar(e.op, column.Values[float32](lc), k, dst, false)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	case float64:
		buf, dst := column.NewValues[float64](ctx.Mem, n)
		arithScalar(e.op, column.Values[float64](lc), k, dst, false)
		out = column.MakeArray(arrowType(calcType), n, valid, buf)
	}
	defer out.Release()
	if zeroDiv {
		// Java throws for every row whose left operand is not NULL.
		for i := 0; i < n; i++ {
			if out.IsValid(i) {
				ctx.fail(i, errIntDiv0)
			}
		}
		return nullArray(ctx.Mem, e.typ, n), nil
	}
	return castNumeric(ctx, out, calcType, e.typ)
}

// castChain casts a through each type in turn (skipping no-ops).
func castChain(ctx *Ctx, a arrow.Array, from catalog.Type, steps ...catalog.Type) (arrow.Array, error) {
	a.Retain()
	cur := from
	for _, to := range steps {
		next, err := castNumeric(ctx, a, cur, to)
		a.Release()
		if err != nil {
			return nil, err
		}
		a, cur = next, to
	}
	return a, nil
}

// intArith computes a op b; rows whose divisor is zero are returned (Java would throw there).
func intArith[T int32 | int64](op byte, a, b, dst []T, valid []byte) (zeroDiv []int) {
	switch op {
	case '+':
		for i := range dst {
			dst[i] = a[i] + b[i]
		}
	case '-':
		for i := range dst {
			dst[i] = a[i] - b[i]
		}
	case '*':
		for i := range dst {
			dst[i] = a[i] * b[i]
		}
	case '/', '%':
		for i := range dst {
			switch {
			case b[i] == 0:
				if valid == nil || bitutil.BitIsSet(valid, i) {
					zeroDiv = append(zeroDiv, i)
				}
			case b[i] == -1: // MIN / -1 wraps in Java (no exception)
				if op == '/' {
					dst[i] = -a[i]
				} else {
					dst[i] = 0
				}
			case op == '/':
				dst[i] = a[i] / b[i]
			default:
				dst[i] = a[i] % b[i]
			}
		}
	}
	return zeroDiv
}

func floatArith[T float32 | float64](op byte, a, b, dst []T) {
	switch op {
	case '+':
		for i := range dst {
			dst[i] = a[i] + b[i]
		}
	case '-':
		for i := range dst {
			dst[i] = a[i] - b[i]
		}
	case '*':
		for i := range dst {
			dst[i] = a[i] * b[i]
		}
	case '/':
		for i := range dst {
			dst[i] = a[i] / b[i]
		}
	case '%':
		for i := range dst {
			dst[i] = T(math.Mod(float64(a[i]), float64(b[i])))
		}
	}
}

// decimalArith computes into a DECIMAL result type with DecimalDataUtils' semantics.
type decimalArith struct {
	op          byte
	left, right Expr
	typ         catalog.Type
}

func (e *decimalArith) Type() catalog.Type { return e.typ }

// decimalOperand returns unscaled values and scale of a DECIMAL or integer column.
func decimalOperand(a arrow.Array, t catalog.Type) (func(i int) *big.Int, int) {
	if t.Kind == catalog.Decimal {
		v := column.Values[decimal128.Num](a)
		return func(i int) *big.Int { return bigOf(v[i]) }, t.Scale
	}
	ints := integralAsInt64(a, t)
	return func(i int) *big.Int { return big.NewInt(ints[i]) }, 0
}

func (e *decimalArith) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	la, ra, err := evalBoth(ctx, in, e.left, e.right)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	n := ctx.N
	lv, ls := decimalOperand(la, e.left.Type())
	rv, rs := decimalOperand(ra, e.right.Type())
	l64, _, lFast := int64Operand(la, e.left.Type())
	r64, _, rFast := int64Operand(ra, e.right.Type())
	fast := lFast && rFast && e.op != '/'
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	valid := column.NewBitmap(ctx.Mem, n)
	bits := valid.Bytes()
	for i := 0; i < n; i++ {
		if !isValid(la, i) || !isValid(ra, i) {
			continue
		}
		if fast {
			if r, null, ok := decimalOp64(e.op, l64[i], ls, r64[i], rs, e.typ.Precision, e.typ.Scale); ok {
				if !null {
					dst[i] = decimal128.FromI64(r)
					bitutil.SetBit(bits, i)
				}
				continue
			}
		}
		a, b := lv(i), rv(i)
		var v *big.Int
		var s int
		var err error
		switch e.op {
		case '+':
			x, y, sc := decimal.AlignScales(a, ls, b, rs)
			v, s = new(big.Int).Add(x, y), sc
		case '-':
			x, y, sc := decimal.AlignScales(a, ls, b, rs)
			v, s = new(big.Int).Sub(x, y), sc
		case '*':
			v, s = new(big.Int).Mul(a, b), ls+rs
		case '/':
			v, s, err = decimal.Divide38(a, ls, b, rs)
		case '%':
			v, s, err = decimal.Remainder(a, ls, b, rs)
		}
		if err != nil {
			ctx.fail(i, err)
			continue
		}
		if d, ok := decimal.Fit(v, s, e.typ.Precision, e.typ.Scale); ok {
			dst[i] = d
			bitutil.SetBit(bits, i)
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// failRows records failed rows in ctx and makes them NULL in the validity bitmap (creating it
// when the result had no nulls).
func failRows(ctx *Ctx, valid *memory.Buffer, rows []int, err error) *memory.Buffer {
	if len(rows) == 0 {
		return valid
	}
	if valid == nil {
		valid = column.NewBitmap(ctx.Mem, ctx.N)
		bitutil.SetBitsTo(valid.Bytes(), 0, int64(ctx.N), true)
	}
	for _, i := range rows {
		bitutil.ClearBit(valid.Bytes(), i)
		ctx.fail(i, err)
	}
	return valid
}

func compileNegate(n *Node, arg Expr) (Expr, error) {
	t := arg.Type()
	if !t.IsNumeric() {
		return nil, unsupported("unary - on %s is not supported natively yet", t)
	}
	return &negate{unary{arg, n.Type}}, nil
}

type negate struct {
	unary
}

func (e *negate) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *negate) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	c, err := castNumeric(ctx, a, e.arg.Type(), e.typ)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	n := ctx.N
	valid := andValidity(ctx.Mem, n, c)
	if neg, ok := catalog.Numeric(e.typ.Kind, negated[int8], negated[int16], negated[int32], negated[int64], negated[float32], negated[float64]); ok {
		return neg(ctx, c, valid, e.typ), nil
	}
	src := column.Values[decimal128.Num](c)
	buf, dst := column.NewValues[decimal128.Num](ctx.Mem, n)
	for i := range dst {
		dst[i] = src[i].Negate()
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

func negated[T fixed](ctx *Ctx, a arrow.Array, valid *memory.Buffer, t catalog.Type) arrow.Array {
	src := column.Values[T](a)
	buf, dst := column.NewValues[T](ctx.Mem, len(src))
	for i, v := range src {
		dst[i] = -v
	}
	return column.MakeArray(arrowType(t), len(src), valid, buf)
}
