package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "CASE", Family: "conditional", Doc: "CASE WHEN ... THEN ... ELSE ... END; branches evaluated only for the rows that take them", compile: compileCase, NanoTimestamps: true})
	register(&Function{Name: "COALESCE", Family: "conditional", Doc: "first non-NULL operand; every operand is evaluated for every row, as Flink's COALESCE does", compile: compileCoalesce, NanoTimestamps: true})
	register(&Function{Name: "SEARCH", Family: "comparison", codegenNullable: searchCodegenNullable, Doc: "IN lists, BETWEEN and ranges (Calcite SARG), with Flink's NULL handling; IN and NOT IN lists of FLOAT/DOUBLE values compare by Double#doubleToLongBits as Flink's hash sets do (-0.0 is not 0.0, NaN NOT IN (...) is TRUE), ranges by value", compile: nil})
}

// branchable checks that a branch of type b can produce the result type t.
func branchable(b, t catalog.Type) error {
	switch {
	case b.WithNullable(true).Equal(t.WithNullable(true)):
		return nil
	case b.IsNumeric() && t.IsNumeric() && t.Kind != catalog.Decimal && b.Kind != catalog.Decimal:
		return nil
	case b.IsString() && t.Kind == catalog.VarChar && t.Length >= b.Length,
		b.IsBinary() && t.Kind == catalog.VarBinary && t.Length >= b.Length:
		// Flink reads a CHAR (BINARY) value as a VARCHAR (VARBINARY) result exactly as it is
		// stored (the types are interoperable: no cast, the same bytes).
		return nil
	case b.Kind == catalog.Null:
		return nil
	}
	return unsupported("branch of type %s for a result of type %s", b, t)
}

// caseBranch converts a CASE branch to the result type as Flink's generateIfElse does: with a
// CAST that yields NULL where it would fail (numeric widening is left to coerce).
func caseBranch(b Expr, t catalog.Type) (Expr, error) {
	if branchable(b.Type(), t) == nil && !(t.Kind == catalog.Char && b.Type().IsString()) {
		// (A CHAR result pads every string branch, even one of the same type.)
		return b, nil
	}
	c, err := compileCast(&Node{Kind: Call, Op: "TRY_CAST", Type: t}, []Expr{b}, Env{})
	if err != nil {
		return nil, unsupported("branch of type %s for a result of type %s: %v", b.Type(), t, err)
	}
	return c, nil
}

// coerce converts a branch value to the result type (numeric widening only; see branchable).
func coerce(ctx *Ctx, a arrow.Array, from, to catalog.Type) (arrow.Array, error) {
	if from.IsNumeric() && to.IsNumeric() {
		return castNumeric(ctx, a, from, to)
	}
	a.Retain()
	return a, nil
}

// compileIf compiles IF(c, a, b) as a CASE. Flink's IfCallGen joins each branch to the call's
// type with a cast rule, and for most types no rule joins T to T NOT NULL: an IF typed NOT NULL
// whose branch Flink's code generation types as nullable fails Flink's planning with
// "Unsupported operand types: IF(boolean, ...)". Such an IF falls back, so the job fails
// exactly as on stock Flink.
func compileIf(n *Node, args []Expr) (Expr, error) {
	if len(n.Args) == 3 && !n.Type.Nullable {
		for _, b := range n.Args[1:] {
			if flinkBranchNullable(b) {
				return nil, unsupported("IF typed %s over a branch %s whose generated code Flink types as nullable: Flink's IfCallGen finds no cast between them", n.Type, b.Describe())
			}
		}
	}
	return compileCase(n, args)
}

// flinkBranchNullable says whether Flink's code generation gives the value of b a nullable
// type: where the plan does, and where the function's code generator declares a nullable type
// of its own (Function.codegenNullable).
func flinkBranchNullable(b *Node) bool { return b.Type.Nullable || codegenTypesNullable(b) }

// codegenTypesNullable says whether the code Flink generates for a call declares a nullable
// type whatever the plan says (Function.codegenNullable).
func codegenTypesNullable(b *Node) bool {
	if b.Kind != Call {
		return false
	}
	f, ok := registry[b.Op]
	return ok && f.codegenNullable != nil && f.codegenNullable(b)
}

// searchCodegenNullable: SearchOperatorGen looks IN and NOT IN lists up in a hash set whose
// result it types new BooleanType(), nullable.
func searchCodegenNullable(b *Node) bool {
	if len(b.Args) != 2 {
		return false
	}
	sarg, ok := b.Args[1].Value.(*Sarg)
	if !ok {
		return false
	}
	if _, points := sargPoints(sarg); points {
		return true
	}
	_, points := sargComplementedPoints(sarg)
	return points
}

func compileCase(n *Node, args []Expr) (Expr, error) {
	if len(args) < 3 || len(args)%2 == 0 {
		return nil, unsupported("CASE with %d operands", len(args))
	}
	for i := 0; i+1 < len(args); i += 2 {
		if args[i].Type().Kind != catalog.Boolean {
			return nil, unsupported("CASE condition of type %s", args[i].Type())
		}
		b, err := caseBranch(args[i+1], n.Type)
		if err != nil {
			return nil, err
		}
		args[i+1] = b
	}
	b, err := caseBranch(args[len(args)-1], n.Type)
	if err != nil {
		return nil, err
	}
	args[len(args)-1] = b
	return &caseExpr{args: args, typ: n.Type}, nil
}

type caseExpr struct {
	args []Expr
	typ  catalog.Type
}

func (e *caseExpr) Type() catalog.Type { return e.typ }

// Eval evaluates WHEN conditions in order for the rows not yet taken and each THEN (and the
// ELSE) for the rows that take it; failures elsewhere are dropped, as Flink never evaluates
// those operands for those rows.
func (e *caseExpr) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	n := ctx.N
	pick := make([]int, n) // branch index per row; -1 = undecided
	for i := range pick {
		pick[i] = -1
	}
	open := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(open, 0, int64(n), true)
	var branches []arrow.Array
	defer func() {
		for _, b := range branches {
			if b != nil {
				b.Release()
			}
		}
	}()
	whens := len(e.args) / 2
	for w := 0; w < whens; w++ {
		keep := append([]byte(nil), open...)
		scope := ctx.enter()
		c, err := e.args[2*w].Eval(ctx, in)
		ctx.leave(scope, keep)
		if err != nil {
			return nil, err
		}
		t, _ := truth(ctx.Mem, c)
		c.Release()
		taken := make([]byte, len(open))
		bitutil.BitmapAnd(t.Bytes(), open, 0, 0, taken, 0, int64(n))
		t.Release()
		for i := 0; i < n; i++ {
			if bitutil.BitIsSet(taken, i) {
				pick[i] = w
				bitutil.ClearBit(open, i)
			}
		}
		b, err := e.evalBranch(ctx, in, e.args[2*w+1], taken)
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
	}
	for i := range pick {
		if pick[i] < 0 {
			pick[i] = whens
		}
	}
	b, err := e.evalBranch(ctx, in, e.args[len(e.args)-1], open)
	if err != nil {
		return nil, err
	}
	branches = append(branches, b)
	return gather(ctx, e.typ, pick, branches)
}

func (e *caseExpr) evalBranch(ctx *Ctx, in Batch, arg Expr, rows []byte) (arrow.Array, error) {
	scope := ctx.enter()
	v, err := arg.Eval(ctx, in)
	ctx.leave(scope, rows)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return coerce(ctx, v, arg.Type(), e.typ)
}

func compileCoalesce(n *Node, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, unsupported("COALESCE without operands")
	}
	for _, a := range n.Args {
		// BridgingSqlFunction checks each argument's generated type against the plan's: a NOT
		// NULL argument whose generated code is typed nullable fails Flink's planning with
		// "Mismatch of function's argument data type" (checked on Flink 2.1 for DATE and TIME
		// plus or minus an interval, either order, IN lists and LIKE with a column pattern).
		if !a.Type.Nullable && codegenTypesNullable(a) {
			return nil, unsupported("%s over %s, typed NOT NULL but nullable in Flink's generated code, fails Flink's planning (Mismatch of function's argument data type); it runs on Flink", n.Op, a.Describe())
		}
	}
	for _, a := range args {
		if err := branchable(a.Type(), n.Type); err != nil {
			return nil, err
		}
	}
	return &coalesce{args: args, typ: n.Type}, nil
}

type coalesce struct {
	args []Expr
	typ  catalog.Type
}

func (e *coalesce) Type() catalog.Type { return e.typ }

func (e *coalesce) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	n := ctx.N
	pick := make([]int, n)
	for i := range pick {
		pick[i] = -1
	}
	var branches []arrow.Array
	defer func() {
		for _, b := range branches {
			b.Release()
		}
	}()
	for k, arg := range e.args {
		// Flink evaluates every operand of COALESCE for every row: a failure anywhere counts.
		v, err := arg.Eval(ctx, in)
		if err != nil {
			return nil, err
		}
		c, err := coerce(ctx, v, arg.Type(), e.typ)
		v.Release()
		if err != nil {
			return nil, err
		}
		branches = append(branches, c)
		bits, off := column.ValidBits(c)
		for i := 0; i < n; i++ {
			if pick[i] < 0 && column.Valid(bits, off, i) {
				pick[i] = k
			}
		}
	}
	for i := range pick {
		if pick[i] < 0 {
			pick[i] = len(e.args) - 1 // all NULL: the last operand's NULL
		}
	}
	return gather(ctx, e.typ, pick, branches)
}

// gather builds a column of type t whose row i is row i of branches[pick[i]].
func gather(ctx *Ctx, t catalog.Type, pick []int, branches []arrow.Array) (arrow.Array, error) {
	n := len(pick)
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	bits, offs := make([][]byte, len(branches)), make([]int, len(branches))
	for k, b := range branches {
		bits[k], offs[k] = column.ValidBits(b)
	}
	for i, k := range pick {
		if column.Valid(bits[k], offs[k], i) {
			bitutil.SetBit(vbits, i)
		}
	}
	if t.IsNanoTimestamp() {
		return gatherNanoTimestamps(ctx, t, pick, branches, valid), nil
	}
	switch t.Kind {
	case catalog.TinyInt:
		return gatherFixed[int8](ctx, t, pick, branches, valid), nil
	case catalog.SmallInt:
		return gatherFixed[int16](ctx, t, pick, branches, valid), nil
	case catalog.Int, catalog.Date, catalog.Time:
		return gatherFixed[int32](ctx, t, pick, branches, valid), nil
	case catalog.BigInt, catalog.Timestamp, catalog.TimestampLTZ:
		return gatherFixed[int64](ctx, t, pick, branches, valid), nil
	case catalog.Float:
		return gatherFixed[float32](ctx, t, pick, branches, valid), nil
	case catalog.Double:
		return gatherFixed[float64](ctx, t, pick, branches, valid), nil
	case catalog.Decimal:
		return gatherFixed[decimal128.Num](ctx, t, pick, branches, valid), nil
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		offBuf, dstOffs := column.NewValues[int32](ctx.Mem, n+1)
		srcOffs, srcData := make([][]int32, len(branches)), make([][]byte, len(branches))
		size := 0
		for k, b := range branches {
			srcOffs[k], srcData[k] = varData(b)
			size += len(srcData[k])
		}
		data := make([]byte, 0, size)
		for i, k := range pick {
			dstOffs[i] = int32(len(data))
			if bitutil.BitIsSet(vbits, i) {
				o := srcOffs[k]
				data = append(data, srcData[k][o[i]-o[0]:o[i+1]-o[0]]...)
			}
		}
		dstOffs[n] = int32(len(data))
		return column.MakeArray(arrowType(t), n, valid, offBuf, memory.NewBufferBytes(data)), nil
	}
	valid.Release()
	b := array.NewBuilder(ctx.Mem, arrowType(t))
	defer b.Release()
	b.Reserve(len(pick))
	for i, k := range pick {
		src := branches[k]
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		if err := appendFrom(b, src, i); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func gatherFixed[T any](ctx *Ctx, t catalog.Type, pick []int, branches []arrow.Array, valid *memory.Buffer) arrow.Array {
	srcs := make([][]T, len(branches))
	for k, b := range branches {
		srcs[k] = column.Values[T](b)
	}
	buf, dst := column.NewValues[T](ctx.Mem, len(pick))
	for i, k := range pick {
		if src := srcs[k]; src != nil {
			dst[i] = src[i]
		}
	}
	return column.MakeArray(arrowType(t), len(pick), valid, buf)
}

// gatherNanoTimestamps is gatherFixed for TIMESTAMP(7..9): both parts of each value.
func gatherNanoTimestamps(ctx *Ctx, t catalog.Type, pick []int, branches []arrow.Array, valid *memory.Buffer) arrow.Array {
	ms, nanos := make([][]int64, len(branches)), make([][]int32, len(branches))
	for k, b := range branches {
		ms[k], nanos[k] = column.NanoTimestamps(b)
	}
	msBuf, nanoBuf, dstMs, dstNanos := column.NewNanoTimestamps(ctx.Mem, len(pick))
	for i, k := range pick {
		if ms[k] != nil {
			dstMs[i], dstNanos[i] = ms[k][i], nanos[k][i]
		}
	}
	return column.MakeNanoTimestamps(arrowType(t), len(pick), valid, msBuf, nanoBuf)
}

// appendFrom appends row i of src to a builder of the same Arrow type.
func appendFrom(b array.Builder, src arrow.Array, i int) error {
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(src.(*array.Boolean).Value(i))
	case *array.Int8Builder:
		bb.Append(src.(*array.Int8).Value(i))
	case *array.Int16Builder:
		bb.Append(src.(*array.Int16).Value(i))
	case *array.Int32Builder:
		bb.Append(src.(*array.Int32).Value(i))
	case *array.Int64Builder:
		bb.Append(src.(*array.Int64).Value(i))
	case *array.Float32Builder:
		bb.Append(src.(*array.Float32).Value(i))
	case *array.Float64Builder:
		bb.Append(src.(*array.Float64).Value(i))
	case *array.Decimal128Builder:
		bb.Append(src.(*array.Decimal128).Value(i))
	case *array.StringBuilder:
		bb.Append(src.(*array.String).Value(i))
	case *array.BinaryBuilder:
		bb.Append(src.(*array.Binary).Value(i))
	case *array.Date32Builder:
		bb.Append(src.(*array.Date32).Value(i))
	case *array.Time32Builder:
		bb.Append(src.(*array.Time32).Value(i))
	case *array.TimestampBuilder:
		bb.Append(src.(*array.Timestamp).Value(i))
	default:
		return fmt.Errorf("no builder for %T", b)
	}
	return nil
}

// expandSearch rewrites SEARCH(x, sarg) into comparisons: an OR of one conjunction per range,
// with NULL handled as the Sarg's nullAs says.
func expandSearch(n *Node) (*Node, error) {
	if len(n.Args) != 2 {
		return nil, unsupported("SEARCH with %d operands", len(n.Args))
	}
	x, lit := n.Args[0], n.Args[1]
	sarg, ok := lit.Value.(*Sarg)
	if !ok {
		return nil, unsupported("SEARCH without a SARG literal")
	}
	boolType := catalog.BooleanType(true)
	valueType := lit.Type.WithNullable(false)
	cmp := func(op string, v any) *Node {
		return &Node{Kind: Call, Op: op, Type: boolType, Args: []*Node{x, {Kind: Literal, Type: valueType, Value: v}}}
	}
	// Flink looks IN-list points up in a hash set and ranges up by comparisons; for FLOAT and
	// DOUBLE the two differ (-0.0 and NaN), so points of floating values compare by bits.
	floating := func(t catalog.Type) bool { return t.Kind == catalog.Float || t.Kind == catalog.Double }
	if floating(x.Type) || floating(valueType) {
		negate := false
		points, ok := sargPoints(sarg)
		if !ok {
			points, ok = sargComplementedPoints(sarg)
			negate = true
		}
		if ok {
			var eqs []*Node
			for _, p := range points {
				eq := cmp("=", p)
				eq.bitsEqual = true
				eqs = append(eqs, eq)
			}
			body := eqs[0]
			if len(eqs) > 1 {
				body = &Node{Kind: Call, Op: "OR", Type: boolType, Args: eqs}
			}
			if negate {
				body = &Node{Kind: Call, Op: "NOT", Type: boolType, Args: []*Node{body}}
			}
			return withNullAs(n, x, sarg, body), nil
		}
	}
	var ors []*Node
	for _, r := range sarg.Ranges {
		var ands []*Node
		if r.Lower != nil && r.Upper != nil && r.Lower.Closed && r.Upper.Closed && fmt.Sprint(r.Lower.Value) == fmt.Sprint(r.Upper.Value) {
			ors = append(ors, cmp("=", r.Lower.Value))
			continue
		}
		if r.Lower != nil {
			op := ">"
			if r.Lower.Closed {
				op = ">="
			}
			ands = append(ands, cmp(op, r.Lower.Value))
		}
		if r.Upper != nil {
			op := "<"
			if r.Upper.Closed {
				op = "<="
			}
			ands = append(ands, cmp(op, r.Upper.Value))
		}
		switch len(ands) {
		case 0: // unbounded both ways: any non-NULL value
			ors = append(ors, &Node{Kind: Call, Op: "IS NOT NULL", Type: catalog.BooleanType(false), Args: []*Node{x}})
		case 1:
			ors = append(ors, ands[0])
		default:
			ors = append(ors, &Node{Kind: Call, Op: "AND", Type: boolType, Args: ands})
		}
	}
	var body *Node
	switch len(ors) {
	case 0:
		body = &Node{Kind: Literal, Type: boolType, Value: false}
	case 1:
		body = ors[0]
	default:
		body = &Node{Kind: Call, Op: "OR", Type: boolType, Args: ors}
	}
	return withNullAs(n, x, sarg, body), nil
}

// withNullAs applies the SARG's answer for a NULL operand.
func withNullAs(n, x *Node, sarg *Sarg, body *Node) *Node {
	switch sarg.NullAs {
	case "TRUE", "FALSE":
		isNull := &Node{Kind: Call, Op: "IS NULL", Type: catalog.BooleanType(false), Args: []*Node{x}}
		return &Node{Kind: Call, Op: "CASE", Type: n.Type, Args: []*Node{
			isNull, {Kind: Literal, Type: catalog.BooleanType(false), Value: sarg.NullAs == "TRUE"}, body}}
	}
	return body
}

// sargPoints returns the values of a SARG made only of points (an IN list).
func sargPoints(s *Sarg) ([]any, bool) {
	var out []any
	for _, r := range s.Ranges {
		if r.Lower == nil || r.Upper == nil || !r.Lower.Closed || !r.Upper.Closed || fmt.Sprint(r.Lower.Value) != fmt.Sprint(r.Upper.Value) {
			return nil, false
		}
		out = append(out, r.Lower.Value)
	}
	return out, len(out) > 0
}

// sargComplementedPoints returns the points whose complement the SARG is (a NOT IN list):
// open ranges from minus to plus infinity that meet at each point.
func sargComplementedPoints(s *Sarg) ([]any, bool) {
	rs := s.Ranges
	if len(rs) < 2 || rs[0].Lower != nil || rs[len(rs)-1].Upper != nil {
		return nil, false
	}
	var out []any
	for i := 0; i+1 < len(rs); i++ {
		u, l := rs[i].Upper, rs[i+1].Lower
		if u == nil || l == nil || u.Closed || l.Closed || fmt.Sprint(u.Value) != fmt.Sprint(l.Value) {
			return nil, false
		}
		out = append(out, u.Value)
	}
	return out, true
}

// varData returns the value offsets and bytes of a string or binary column (the bytes from
// the first offset on).
func varData(a arrow.Array) ([]int32, []byte) {
	switch c := a.(type) {
	case *array.String:
		return c.ValueOffsets(), c.ValueBytes()
	case *array.Binary:
		return c.ValueOffsets(), c.ValueBytes()
	}
	return nil, nil
}
