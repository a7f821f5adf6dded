package expr

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "ITEM", Family: "collection",
		Doc:     "array[i] (INT index, as Flink's code generation requires; NULL when i is out of 1..CARDINALITY) and map[key] (the first equal key; keys of the lookup's type: integers, BOOLEAN, strings, binaries, DATE, TIME, FLOAT, DOUBLE); ITEM on a ROW runs on Flink",
		compile: compileItem, NanoTimestamps: true})
	register(&Function{Name: "CARDINALITY", Family: "collection", Doc: "ARRAY and MAP", compile: compileCardinality, NanoTimestamps: true})
	register(&Function{Name: "ELEMENT", Family: "collection",
		Doc: "the only element of an array: NULL for a NULL or empty array, a failure for more than one element; arrays of NOT NULL elements run on Flink", compile: compileElement})
	register(&Function{Name: "ROW", Family: "collection",
		Doc: "ROW(e1, e2, ...); never NULL. Fields of TINYINT or SMALLINT that are not constants run on Flink; a NULL in a field the plan types NOT NULL is written as Flink's generated code writes it unchecked: a NullPointerException (strings, binaries, DECIMAL(p ≤ 18), TIMESTAMP(p ≤ 3), nested values) fails the row, non-compact DECIMAL and TIMESTAMP stay NULL, and for values Flink keeps in Java primitives (numbers, BOOLEAN, DATE, TIME, intervals) the row fails, as Flink writes a default there that Sluice does not reproduce (the same for ARRAY and MAP elements of the number and BOOLEAN types; other elements stay NULL)", compile: compileRowValue})
	register(&Function{Name: "MAP", Family: "collection",
		Doc: "MAP[k1, v1, k2, v2, ...]: entries in order, never NULL. Natively only when no two key operands are the same expression (Flink's code generation drops the earlier of two equal key expressions, but keeps entries whose different keys are equal at run time); keys or values of TINYINT or SMALLINT that are not constants run on Flink", compile: compileMapValue})
	register(&Function{Name: "ARRAY", Family: "collection",
		Doc: "ARRAY[e1, e2, ...] (NULL elements kept); never NULL. TINYINT and SMALLINT elements that are not constants run on Flink (whose code generation fails on them)", compile: compileArrayValue})
}

// nestedOps are the calls that take or return ROW, ARRAY or MAP values natively; every other
// function on such values falls back.
var nestedOps = map[string]bool{"IS NULL": true, "IS NOT NULL": true, "ITEM": true, "CARDINALITY": true, "ARRAY": true, "ROW": true, "MAP": true, "ELEMENT": true}

// checkNested refuses a call that involves ROW, ARRAY or MAP values unless it is one of
// nestedOps.
func checkNested(n *Node) error {
	if nestedOps[n.Op] {
		return nil
	}
	if n.Op == "CAST" && len(n.Args) == 1 && n.Type.IsNested() &&
		n.Args[0].Type.WithNullable(true).Equal(n.Type.WithNullable(true)) {
		// Only the nullability changes: Calcite wraps an access to a NOT NULL field of a
		// nullable row in such a CAST.
		return nil
	}
	if (n.Op == "CAST" || n.Op == "TRY_CAST") && (n.Type.IsString() || n.Type.IsNested()) {
		return nil // ARRAY, MAP and ROW to text or to other ones (compileNestedToString, compileNestedCast)
	}
	if n.Type.IsNested() {
		return unsupported("%s returning %s is not supported natively yet", n.Op, n.Type)
	}
	for _, a := range n.Args {
		if a.Type.IsNested() {
			return unsupported("%s of %s is not supported natively yet", n.Op, a.Type)
		}
	}
	return nil
}

// FieldType is the type of field name of a ROW type t as Calcite types an access to it: the
// field's type, nullable when the row is.
func FieldType(t catalog.Type, name string) (catalog.Type, int, bool) {
	if t.Kind != catalog.Row {
		return catalog.Type{}, 0, false
	}
	for i, f := range t.Fields {
		if f.Name == name {
			ft := f.Type
			if t.Nullable {
				ft.Nullable = true
			}
			return ft, i, true
		}
	}
	return catalog.Type{}, 0, false
}

func compileFieldAccess(n *Node, arg Expr) (Expr, error) {
	ft, i, ok := FieldType(arg.Type(), n.Name)
	if !ok {
		return nil, unsupported("field %s of %s", n.Name, arg.Type())
	}
	return &fieldAccess{unary: unary{arg, ft}, index: i}, nil
}

// fieldAccess is row.field (Flink's generateDot): NULL when the row is NULL.
type fieldAccess struct {
	unary
	index int
}

func (e *fieldAccess) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *fieldAccess) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	f := a.(*array.Struct).Field(e.index)
	return maskNulls(ctx.Mem, f, a), nil
}

// maskNulls returns f with the rows that are NULL in parent made NULL too (the same array,
// retained, when parent has no nulls).
func maskNulls(mem memory.Allocator, f, parent arrow.Array) arrow.Array {
	if parent.NullN() == 0 {
		f.Retain()
		return f
	}
	n := f.Len()
	d := f.Data()
	off := d.Offset()
	valid := column.NewBitmap(mem, off+n)
	bits := valid.Bytes()
	if fb, foff := column.ValidBits(f); fb != nil {
		bitutil.CopyBitmap(fb, foff, n, bits, off)
	} else {
		bitutil.SetBitsTo(bits, int64(off), int64(n), true)
	}
	pb, poff := column.ValidBits(parent)
	bitutil.BitmapAnd(bits, pb, int64(off), int64(poff), bits, int64(off), int64(n))
	nulls := n - bitutil.CountSetBits(bits, off, n)
	bufs := append([]*memory.Buffer{valid}, d.Buffers()[1:]...)
	out := array.NewData(d.DataType(), n, bufs, d.Children(), nulls, off)
	valid.Release()
	defer out.Release()
	return array.MakeFromData(out)
}

func compileItem(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, unsupported("ITEM with %d operands", len(args))
	}
	ct, kt := args[0].Type(), args[1].Type()
	elem := ct.Elem
	if ct.Kind == catalog.Map {
		elem = ct.Value
	}
	if !n.Type.Nullable || elem != nil && !elem.Nullable {
		// Where the elements (values) are NOT NULL, Flink's generated code writes a missing
		// element or key as the type's default value ('' or 0), not as NULL.
		return nil, unsupported("ITEM of %s: Flink writes the element type's default value where an element is missing", ct)
	}
	switch ct.Kind {
	case catalog.Array:
		if kt.Kind != catalog.Int {
			// ScalarOperatorGens#generateArrayElementAt requires an INT index.
			return nil, unsupported("ITEM with an index of type %s", kt)
		}
		if k := n.Args[1]; k.Kind == Literal {
			if v, ok := k.Value.(int64); ok && v < 1 {
				return nil, unsupported("ITEM with the index %d: Flink rejects a constant index below 1", v)
			}
		}
		return &arrayItem{collection: args[0], key: args[1], typ: n.Type}, nil
	case catalog.Map:
		mk := *ct.Elem
		switch mk.Kind {
		case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Boolean, catalog.Date,
			catalog.Time, catalog.Float, catalog.Double, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		default:
			// A NULL key reads as Flink's default value of the slot, which for other layouts
			// (DECIMAL, TIMESTAMP, nested) is not a value Sluice holds.
			return nil, unsupported("ITEM of a map with %s keys", mk)
		}
		if !(mk.Kind == kt.Kind || mk.IsString() && kt.IsString() || mk.IsBinary() && kt.IsBinary()) {
			return nil, unsupported("ITEM of a map with %s keys by a %s key", mk, kt)
		}
		return &mapItem{collection: args[0], key: args[1], typ: n.Type}, nil
	}
	return nil, unsupported("ITEM of %s", ct)
}

// arrayItem is array[i] (ScalarOperatorGens#generateArrayElementAt): NULL when the array or i
// is NULL, when i is outside 1..size, or when the element is NULL.
type arrayItem struct {
	collection, key Expr
	typ             catalog.Type
}

func (e *arrayItem) Type() catalog.Type { return e.typ }

func (e *arrayItem) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	la, ia, err := evalBoth(ctx, in, e.collection, e.key)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ia.Release()
	l := la.(*array.List)
	sel := make([]int32, ctx.N)
	idx := column.Values[int32](ia)
	offs := column.ListOffsets(l)
	lb, loff := column.ValidBits(l)
	ib, ioff := column.ValidBits(ia)
	for r := range sel {
		sel[r] = -1
		if !column.Valid(lb, loff, r) || !column.Valid(ib, ioff, r) {
			continue
		}
		if k := int64(idx[r]) - 1; k >= 0 && k < int64(offs[r+1]-offs[r]) {
			sel[r] = offs[r] + int32(k)
		}
	}
	return column.TakeOrNull(l.ListValues(), sel, ctx.Mem)
}

// mapItem is map[key] (ScalarOperatorGens#generateMapGet): the value of the first entry whose
// key equals key, NULL when the map or key is NULL or no key matches. Flink reads a NULL key of
// the map as its slot's default (0, false, the empty string), and so does Sluice, whatever the
// NULL slot holds.
type mapItem struct {
	collection, key Expr
	typ             catalog.Type
}

func (e *mapItem) Type() catalog.Type { return e.typ }

func (e *mapItem) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	ma, ka, err := evalBoth(ctx, in, e.collection, e.key)
	if err != nil {
		return nil, err
	}
	defer ma.Release()
	defer ka.Release()
	l := ma.(*array.List)
	entries := l.ListValues().(*array.Struct)
	keys := entries.Field(0)
	sel := make([]int32, ctx.N)
	offs := column.ListOffsets(l)
	kb, koff := column.ValidBits(keys)
	switch kc := ka.(type) {
	default:
		return nil, fmt.Errorf("map lookup by a %s key", ka.DataType())
	case *array.Int8:
		lookup(offs, column.Values[int8](keys), kb, koff, kc.Int8Values(), l, ka, sel)
	case *array.Int16:
		lookup(offs, column.Values[int16](keys), kb, koff, kc.Int16Values(), l, ka, sel)
	case *array.Int32, *array.Date32, *array.Time32:
		lookup(offs, column.Values[int32](keys), kb, koff, column.Values[int32](ka), l, ka, sel)
	case *array.Int64:
		lookup(offs, column.Values[int64](keys), kb, koff, kc.Int64Values(), l, ka, sel)
	case *array.Float32:
		lookup(offs, column.Values[float32](keys), kb, koff, kc.Float32Values(), l, ka, sel)
	case *array.Float64:
		lookup(offs, column.Values[float64](keys), kb, koff, kc.Float64Values(), l, ka, sel)
	case *array.Boolean:
		lookupBool(offs, keys.(*array.Boolean), kc, l, sel)
	case *array.String, *array.Binary:
		lookupBytes(offs, keys, ka, l, sel)
	}
	return column.TakeOrNull(entries.Field(1), sel, ctx.Mem)
}

// lookup sets sel[r] to the entry index of the first key of map r equal (Java's ==: NaN never
// equal, -0.0 equal to 0.0) to want[r], or -1. A NULL key (validity keyBits) reads as zero,
// whatever its slot holds.
func lookup[T int8 | int16 | int32 | int64 | float32 | float64](offs []int32, keys []T, keyBits []byte, keyOff int, want []T, l, ka arrow.Array, sel []int32) {
	lb, loff := column.ValidBits(l)
	wb, woff := column.ValidBits(ka)
	for r := range sel {
		sel[r] = -1
		if !column.Valid(lb, loff, r) || !column.Valid(wb, woff, r) {
			continue
		}
		w := want[r]
		for k := offs[r]; k < offs[r+1]; k++ {
			key := keys[k]
			if keyBits != nil && !bitutil.BitIsSet(keyBits, keyOff+int(k)) {
				key = 0
			}
			if key == w {
				sel[r] = k
				break
			}
		}
	}
}

func lookupBool(offs []int32, keys, want *array.Boolean, l arrow.Array, sel []int32) {
	for r := range sel {
		sel[r] = -1
		if l.IsNull(r) || want.IsNull(r) {
			continue
		}
		w := want.Value(r)
		for k := offs[r]; k < offs[r+1]; k++ {
			if (keys.IsValid(int(k)) && keys.Value(int(k))) == w {
				sel[r] = k
				break
			}
		}
	}
}

func lookupBytes(offs []int32, keys, want, l arrow.Array, sel []int32) {
	ko, kd := varLen(keys)
	wo, wd := varLen(want)
	for r := range sel {
		sel[r] = -1
		if l.IsNull(r) || want.IsNull(r) {
			continue
		}
		w := wd[wo[r]-wo[0] : wo[r+1]-wo[0]]
		for k := offs[r]; k < offs[r+1]; k++ {
			key := kd[ko[k]-ko[0] : ko[k+1]-ko[0]]
			if keys.IsNull(int(k)) {
				key = nil // a NULL key reads as the empty string
			}
			if bytes.Equal(key, w) {
				sel[r] = k
				break
			}
		}
	}
}

// varLen returns the value offsets (len+1, honouring the array's offset) and the value bytes
// (starting at the first value's offset) of a string or binary array.
func varLen(a arrow.Array) ([]int32, []byte) {
	switch a := a.(type) {
	case *array.String:
		return a.ValueOffsets(), a.ValueBytes()
	case *array.Binary:
		return a.ValueOffsets(), a.ValueBytes()
	}
	panic("expr: not a string or binary array")
}

func compileCardinality(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || (args[0].Type().Kind != catalog.Array && args[0].Type().Kind != catalog.Map) {
		return nil, unsupported("CARDINALITY of %s", typeNames(args))
	}
	if n.Type.Kind != catalog.Int {
		return nil, unsupported("CARDINALITY returning %s", n.Type)
	}
	return &cardinality{unary{args[0], n.Type}}, nil
}

// cardinality is the number of elements of an array or entries of a map.
type cardinality struct{ unary }

func (e *cardinality) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *cardinality) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	offs := column.ListOffsets(a.(*array.List))
	buf, out := column.NewValues[int32](ctx.Mem, ctx.N)
	for r := range out {
		out[r] = offs[r+1] - offs[r]
	}
	return column.MakeArray(arrow.PrimitiveTypes.Int32, ctx.N, column.CopyValidity(a, ctx.Mem), buf), nil
}

func compileArrayValue(n *Node, args []Expr) (Expr, error) {
	if n.Type.Kind != catalog.Array || len(args) == 0 {
		return nil, unsupported("ARRAY constructor of %s", n.Type)
	}
	if k := n.Type.Elem.Kind; k == catalog.TinyInt || k == catalog.SmallInt {
		for _, a := range n.Args {
			if a.Kind != Literal {
				// generatePrimitiveArrayUpdateCode assigns an int to the element's byte or
				// short, which Janino rejects.
				return nil, unsupported("ARRAY constructor of %s elements that are not all constants fails in Flink's code generation; it runs on Flink", n.Type.Elem)
			}
		}
	}
	for _, a := range args {
		if !a.Type().WithNullable(true).Equal(n.Type.Elem.WithNullable(true)) {
			return nil, unsupported("ARRAY constructor with a %s element into %s", a.Type(), n.Type)
		}
	}
	return &arrayValue{args: args, typ: n.Type}, nil
}

func compileMapValue(n *Node, args []Expr) (Expr, error) {
	if n.Type.Kind != catalog.Map || len(args) == 0 || len(args)%2 != 0 {
		return nil, unsupported("MAP constructor of %s", n.Type)
	}
	var keys, vals []Expr
	for i, a := range args {
		want := *n.Type.Elem
		if i%2 == 1 {
			want = *n.Type.Value
		}
		if !a.Type().WithNullable(true).Equal(want.WithNullable(true)) {
			return nil, unsupported("MAP constructor with a %s operand into %s", a.Type(), n.Type)
		}
		if (want.Kind == catalog.TinyInt || want.Kind == catalog.SmallInt) && n.Args[i].Kind != Literal {
			return nil, unsupported("MAP constructor with %s keys or values that are not constants", want)
		}
		if i%2 == 0 {
			for j := 0; j < i; j += 2 {
				if sameNode(n.Args[i], n.Args[j]) {
					return nil, unsupported("MAP constructor with the key %s twice", n.Args[i].Describe())
				}
			}
			keys = append(keys, a)
		} else {
			vals = append(vals, a)
		}
	}
	return &mapValue{keys: arrayValue{args: keys}, vals: arrayValue{args: vals}, typ: n.Type}, nil
}

// sameNode reports whether two expression trees are the same expression.
func sameNode(a, b *Node) bool {
	if a.Kind != b.Kind || a.Index != b.Index || a.Op != b.Op || a.Name != b.Name || !a.Type.Equal(b.Type) ||
		fmt.Sprint(a.Value) != fmt.Sprint(b.Value) || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if !sameNode(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// mapValue is MAP[k1, v1, ...] (ScalarOperatorGens#generateMap): the key and value arrays
// side by side, every row the same number of entries.
type mapValue struct {
	keys, vals arrayValue
	typ        catalog.Type
}

func (e *mapValue) Type() catalog.Type { return e.typ }

func (e *mapValue) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	keys, err := e.keys.elements(ctx, in, *e.typ.Elem)
	if err != nil {
		return nil, err
	}
	defer keys.Release()
	vals, err := e.vals.elements(ctx, in, *e.typ.Value)
	if err != nil {
		return nil, err
	}
	defer vals.Release()
	entryType := arrowType(e.typ).(*arrow.ListType).Elem()
	entries := array.NewData(entryType, keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), vals.Data()}, 0, 0)
	defer entries.Release()
	return listOf(ctx, arrowType(e.typ), len(e.keys.args), entries), nil
}

// listOf wraps child as a list array of ctx.N lists of k elements each, never NULL.
func listOf(ctx *Ctx, dt arrow.DataType, k int, child arrow.ArrayData) arrow.Array {
	offBuf, offs := column.NewValues[int32](ctx.Mem, ctx.N+1)
	for r := range offs {
		offs[r] = int32(r * k)
	}
	d := array.NewData(dt, ctx.N, []*memory.Buffer{nil, offBuf}, []arrow.ArrayData{child}, 0, 0)
	offBuf.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

// arrayValue is ARRAY[e1, ..., ek] (ScalarOperatorGens#generateArray): k elements per row, in
// order, NULLs kept; the array itself is never NULL.
type arrayValue struct {
	args []Expr
	typ  catalog.Type
}

func (e *arrayValue) Type() catalog.Type { return e.typ }

func (e *arrayValue) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	elems, err := e.elements(ctx, in, *e.typ.Elem)
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	return listOf(ctx, arrowType(e.typ), len(e.args), elems.Data()), nil
}

// elements evaluates the operands and interleaves them: row r's k elements, row after row. A
// NULL where elem is NOT NULL fails its row (see failNotNull).
func (e *arrayValue) elements(ctx *Ctx, in Batch, elem catalog.Type) (arrow.Array, error) {
	cols, err := evalAll(ctx, in, e.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	if flinkPrimitive(elem) && !elem.Nullable {
		// generatePrimitiveArrayUpdateCode writes these unchecked; every other element type
		// goes through generateNonLiteralArray's null check, a NULL element as in Sluice.
		for _, c := range cols {
			failNotNull(ctx, c, elem, "an element of ARRAY or MAP")
		}
	}
	all, err := array.Concatenate(cols, ctx.Mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	n, k := ctx.N, len(cols)
	sel := make([]int32, n*k)
	for r := 0; r < n; r++ {
		for j := 0; j < k; j++ {
			sel[r*k+j] = int32(j*n + r)
		}
	}
	return column.Take(all, sel, ctx.Mem)
}

func compileRowValue(n *Node, args []Expr) (Expr, error) {
	if n.Type.Kind != catalog.Row || len(n.Type.Fields) != len(args) {
		return nil, unsupported("ROW constructor of %s", n.Type)
	}
	for i, a := range args {
		ft := n.Type.Fields[i].Type
		if !a.Type().WithNullable(true).Equal(ft.WithNullable(true)) {
			return nil, unsupported("ROW constructor with a %s field into %s", a.Type(), n.Type)
		}
		if (ft.Kind == catalog.TinyInt || ft.Kind == catalog.SmallInt) && n.Args[i].Kind != Literal {
			// Like ARRAY[...]: the primitive row's update code assigns an int to the field.
			return nil, unsupported("ROW constructor with a %s field that is not a constant", ft)
		}
	}
	return &rowValue{args: args, typ: n.Type}, nil
}

// rowValue is ROW(e1, ..., ek) (ScalarOperatorGens#generateRow): a struct of the operands;
// the row itself is never NULL.
type rowValue struct {
	args []Expr
	typ  catalog.Type
}

func (e *rowValue) Type() catalog.Type { return e.typ }

func (e *rowValue) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	cols, err := evalAll(ctx, in, e.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	children := make([]arrow.ArrayData, len(cols))
	for i, c := range cols {
		if ft := e.typ.Fields[i].Type; heldInPrimitive(ft) || rowWriterThrows(ft) {
			failNotNull(ctx, c, ft, "field "+e.typ.Fields[i].Name+" of ROW")
		}
		children[i] = c.Data()
	}
	d := array.NewData(arrowType(e.typ), ctx.N, []*memory.Buffer{nil}, children, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// failNotNull fails the rows where column c, whose place in a constructed value (what) has the
// NOT NULL type t, is NULL (an expression the planner types NOT NULL that yields NULL, e.g.
// RPAD with a negative length). Flink's generated constructors write some such places without
// a null check (see flinkPrimitive, heldInPrimitive and rowWriterThrows; the others they write
// as NULL, as Sluice does).
func failNotNull(ctx *Ctx, c arrow.Array, t catalog.Type, what string) {
	if t.Nullable || c.NullN() == 0 {
		return
	}
	for r := 0; r < c.Len(); r++ {
		if c.IsNull(r) {
			ctx.fail(r, fmt.Errorf("NULL for %s of NOT NULL type %s, which Flink's generated code writes without a null check (%s)", what, t, notNullOutcome(t)))
		}
	}
}

// flinkPrimitive is PlannerTypeUtils#isPrimitive: BOOLEAN, the integer and the floating types.
func flinkPrimitive(t catalog.Type) bool {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double:
		return true
	}
	return false
}

// heldInPrimitive reports whether Flink's generated code keeps a value of t in a Java primitive
// (flinkPrimitive types, DATE, TIME, intervals): an unchecked NULL there is written as the
// generated code's default for the type (often -1), which Sluice does not reproduce, so the row
// fails.
func heldInPrimitive(t catalog.Type) bool {
	return flinkPrimitive(t) || t.Kind == catalog.Date || t.Kind == catalog.Time || t.IsInterval()
}

// rowWriterThrows reports whether BinaryRowWriter throws a NullPointerException for a NULL
// object value of t written without a null check (generateNonLiteralRow): strings, binaries,
// compact DECIMAL and TIMESTAMP values and nested values; a non-compact DECIMAL or TIMESTAMP
// is written as NULL instead.
func rowWriterThrows(t catalog.Type) bool {
	switch {
	case t.IsString(), t.IsBinary(), t.IsNested():
		return true
	case t.Kind == catalog.Decimal:
		return t.IsCompactDecimal()
	case t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ:
		return t.Precision <= 3
	}
	return false
}

// notNullOutcome is what Flink does with an unchecked NULL of type t.
func notNullOutcome(t catalog.Type) string {
	if heldInPrimitive(t) {
		return "Flink writes its default value there, which Sluice does not reproduce"
	}
	return "java.lang.NullPointerException"
}

// errMoreThanOne is Flink's failure of ELEMENT on an array of several elements.
var errMoreThanOne = errors.New("java.lang.RuntimeException: Array has more than one element.")

func compileElement(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || args[0].Type().Kind != catalog.Array {
		return nil, unsupported("ELEMENT of %s", typeNames(args))
	}
	if !n.Type.Nullable || !args[0].Type().Elem.Nullable {
		// As for ITEM: a NOT NULL result is written as the type's default where it is NULL.
		return nil, unsupported("ELEMENT of %s: Flink writes the element type's default value for an empty array", args[0].Type())
	}
	return &element{unary{args[0], n.Type}}, nil
}

// element is ELEMENT(array) (ScalarOperatorGens#generateArrayElement).
type element struct{ unary }

func (e *element) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *element) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	l := a.(*array.List)
	offs := column.ListOffsets(l)
	lb, loff := column.ValidBits(l)
	sel := make([]int32, ctx.N)
	for r := range sel {
		sel[r] = -1
		if !column.Valid(lb, loff, r) {
			continue
		}
		switch offs[r+1] - offs[r] {
		case 0:
		case 1:
			sel[r] = offs[r]
		default:
			ctx.fail(r, errMoreThanOne)
		}
	}
	return column.TakeOrNull(l.ListValues(), sel, ctx.Mem)
}
