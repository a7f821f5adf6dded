package agg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// boolAcc is MIN or MAX over BOOLEAN (BooleanMinAggFunction, BooleanMaxAggFunction: false is
// less than true), or FIRST_VALUE / LAST_VALUE over BOOLEAN.
type boolAcc struct {
	resultType
	fn       FuncKind
	val, has []bool
}

// newBoolAccumulator returns the Accumulator of a call over a BOOLEAN argument.
func newBoolAccumulator(c Call) (Accumulator, error) {
	switch c.Func {
	case Min, Max, FirstValue, LastValue:
		if c.Result.Kind == catalog.Boolean {
			a := &boolAcc{fn: c.Func}
			a.setType(c.Result)
			return a, nil
		}
	}
	return nil, fmt.Errorf("%s(%s) returning %s is not supported natively", c.Func, c.Arg, c.Result)
}

func (a *boolAcc) Grow(n int)        { a.val, a.has = grown(a.val, n), grown(a.has, n) }
func (a *boolAcc) Reset(g int32)     { a.val[g], a.has[g] = false, false }
func (a *boolAcc) Count(int32) int64 { return 0 }
func (a *boolAcc) Copy(d, s int32)   { a.val[d], a.has[d] = a.val[s], a.has[s] }
func (a *boolAcc) GroupBytes() int   { return 2 }

// replaces reports whether value v (non-null) takes the place of group g's value.
func (a *boolAcc) replaces(g int32, v bool) bool {
	switch {
	case !a.has[g]:
		return true
	case a.fn == Min:
		return !v && a.val[g]
	case a.fn == Max:
		return v && !a.val[g]
	}
	return a.fn == LastValue
}

func (a *boolAcc) Merge(d, s int32) {
	if a.has[s] && a.replaces(d, a.val[s]) {
		a.val[d], a.has[d] = a.val[s], true
	}
}

func (a *boolAcc) Accumulate(arg arrow.Array, groups []int32) {
	b := arg.(*array.Boolean)
	for r, g := range groups {
		if g >= 0 && b.IsValid(r) {
			if v := b.Value(r); a.replaces(g, v) {
				a.val[g], a.has[g] = v, true
			}
		}
	}
}

func (a *boolAcc) MergeFields(cols []arrow.Array, groups []int32) { a.Accumulate(cols[0], groups) }

func (a *boolAcc) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.has[g] {
			b.Append(a.val[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

func (a *boolAcc) FieldTypes() []catalog.Type { return []catalog.Type{a.typ.WithNullable(true)} }

func (a *boolAcc) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

func (a *boolAcc) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(dst, a.has[g]), a.val[g])
}

func (a *boolAcc) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.has[g])
	if err != nil {
		return nil, err
	}
	return readFixed(src, &a.val[g])
}
