package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "AND", Family: "logic", Doc: "n-ary, three-valued, operands evaluated lazily as Flink does", compile: compileAndOr})
	register(&Function{Name: "OR", Family: "logic", Doc: "n-ary, three-valued, operands evaluated lazily as Flink does", compile: compileAndOr})
	register(&Function{Name: "NOT", Family: "logic", Doc: "three-valued", compile: compileNot})
	for _, op := range []string{"IS NULL", "IS NOT NULL", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE"} {
		register(&Function{Name: op, Family: "logic", Doc: "never NULL", compile: compileIs, NanoTimestamps: op == "IS NULL" || op == "IS NOT NULL"})
	}
}

// truth splits a boolean column into rows that are TRUE and rows that are FALSE (NULL is in
// neither), as bitmaps of n bits starting at bit 0.
func truth(mem memory.Allocator, a arrow.Array) (t, f *memory.Buffer) {
	n := a.Len()
	t, f = column.NewBitmap(mem, n), column.NewBitmap(mem, n)
	d := a.Data()
	vals := d.Buffers()[1].Bytes()
	bitutil.CopyBitmap(vals, d.Offset(), n, t.Bytes(), 0)
	bitutil.CopyBitmap(vals, d.Offset(), n, f.Bytes(), 0)
	fb := f.Bytes()
	for i := range fb {
		fb[i] = ^fb[i]
	}
	if vb, off := column.ValidBits(a); vb != nil {
		bitutil.BitmapAnd(t.Bytes(), vb, 0, int64(off), t.Bytes(), 0, int64(n))
		bitutil.BitmapAnd(fb, vb, 0, int64(off), fb, 0, int64(n))
	}
	return t, f
}

func compileAndOr(n *Node, args []Expr) (Expr, error) {
	for _, a := range args {
		if a.Type().Kind != catalog.Boolean {
			return nil, unsupported("%s of %s", n.Op, typeNames(args))
		}
	}
	return &andOr{and: n.Op == "AND", args: args, typ: n.Type}, nil
}

type andOr struct {
	and  bool
	args []Expr
	typ  catalog.Type
}

func (e *andOr) Type() catalog.Type { return e.typ }

// Eval computes AND (OR) left to right. Like Flink's generated code, an operand is evaluated
// for a row only while the result is not yet decided (no FALSE for AND, no TRUE for OR), so a
// failure inside a later operand counts only for undecided rows.
func (e *andOr) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	n := ctx.N
	// decided: rows where some operand was FALSE (AND) / TRUE (OR).
	// allTrue: rows where every operand so far is TRUE (AND) / FALSE (OR).
	decided := column.NewBitmap(ctx.Mem, n)
	defer decided.Release()
	all := column.NewBitmap(ctx.Mem, n)
	bitutil.SetBitsTo(all.Bytes(), 0, int64(n), true)
	undecided := make([]byte, len(decided.Bytes()))
	for k, arg := range e.args {
		var keep []byte
		if k > 0 {
			for i := range undecided {
				undecided[i] = ^decided.Bytes()[i]
			}
			keep = undecided
		}
		scope := ctx.enter()
		a, err := arg.Eval(ctx, in)
		ctx.leave(scope, keep)
		if err != nil {
			all.Release()
			return nil, err
		}
		t, f := truth(ctx.Mem, a)
		a.Release()
		win, same := f, t // AND: FALSE decides, TRUE keeps "all"
		if !e.and {
			win, same = t, f
		}
		bitutil.BitmapOr(decided.Bytes(), win.Bytes(), 0, 0, decided.Bytes(), 0, int64(n))
		bitutil.BitmapAnd(all.Bytes(), same.Bytes(), 0, 0, all.Bytes(), 0, int64(n))
		t.Release()
		f.Release()
	}
	// AND: value TRUE where all TRUE; valid where decided (FALSE) or all TRUE.
	valid := column.NewBitmap(ctx.Mem, n)
	bitutil.BitmapOr(decided.Bytes(), all.Bytes(), 0, 0, valid.Bytes(), 0, int64(n))
	value := all
	if !e.and { // OR: value TRUE where decided (some TRUE)
		all.Release()
		value = column.NewBitmap(ctx.Mem, n)
		copy(value.Bytes(), decided.Bytes())
	}
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, valid, value), nil
}

func compileNot(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || args[0].Type().Kind != catalog.Boolean {
		return nil, unsupported("NOT of %s", typeNames(args))
	}
	return &not{unary{args[0], n.Type}}, nil
}

type not struct {
	unary
}

func (e *not) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *not) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	_, f := truth(ctx.Mem, a) // FALSE rows become TRUE; NULL stays NULL
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, ctx.N, andValidity(ctx.Mem, ctx.N, a), f), nil
}

func compileIs(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	if n.Op != "IS NULL" && n.Op != "IS NOT NULL" && args[0].Type().Kind != catalog.Boolean {
		return nil, unsupported("%s of %s", n.Op, typeNames(args))
	}
	return &is{unary: unary{args[0], n.Type}, op: n.Op}, nil
}

type is struct {
	unary
	op string
}

func (e *is) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *is) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	out := column.NewBitmap(ctx.Mem, n)
	bits := out.Bytes()
	switch e.op {
	case "IS NULL", "IS NOT NULL":
		want := e.op == "IS NULL"
		for i := 0; i < n; i++ {
			if a.IsNull(i) == want {
				bitutil.SetBit(bits, i)
			}
		}
	default:
		b := a.(*array.Boolean)
		for i := 0; i < n; i++ {
			var r bool
			switch e.op {
			case "IS TRUE":
				r = b.IsValid(i) && b.Value(i)
			case "IS NOT TRUE":
				r = !(b.IsValid(i) && b.Value(i))
			case "IS FALSE":
				r = b.IsValid(i) && !b.Value(i)
			case "IS NOT FALSE":
				r = !(b.IsValid(i) && !b.Value(i))
			}
			if r {
				bitutil.SetBit(bits, i)
			}
		}
	}
	return column.MakeArray(arrow.FixedWidthTypes.Boolean, n, nil, out), nil
}
