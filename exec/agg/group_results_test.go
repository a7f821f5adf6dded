package agg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// randomColumn returns n values of a BIGINT or DOUBLE column drawn from a few values, so that
// groups often end with equal results (NULLs, NaN and -0.0 among the doubles).
func randomColumn(rng *rand.Rand, typ catalog.Type, n int) arrow.Array {
	mem := memory.DefaultAllocator
	if typ.Kind == catalog.BigInt {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for range n {
			if rng.IntN(5) == 0 {
				b.AppendNull()
			} else {
				b.Append(int64(rng.IntN(4)))
			}
		}
		return b.NewArray()
	}
	doubles := []float64{0, math.Copysign(0, -1), 1.5, 3, math.NaN()}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for range n {
		if rng.IntN(5) == 0 {
			b.AppendNull()
		} else {
			b.Append(doubles[rng.IntN(len(doubles))])
		}
	}
	return b.NewArray()
}

// results returns an accumulator's results for groups, released when the test ends.
func results(t *testing.T, a GroupAccumulator, groups []int32) arrow.Array {
	t.Helper()
	r, err := a.Result(memory.DefaultAllocator, groups)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Release)
	return r
}

// The batched copies and comparisons of results agree with Result and valuesEqual, for every
// accumulator that batches them, over states with NULL, equal, NaN and signed-zero results.
func TestResultBatchersAgreeWithResults(t *testing.T) {
	const groups = 16
	long, double := catalog.BigIntType(true), catalog.DoubleType(true)
	count := catalog.BigIntType(false)
	type acc interface {
		GroupAccumulator
		resultBatcher
	}
	var cases []struct {
		name    string
		acc     acc
		retract bool
		arg     catalog.Type
	}
	for _, typ := range []catalog.Type{long, double} {
		for _, c := range []Call{
			{Func: CountStar, Result: count}, {Func: Count, Arg: typ, Result: count},
			{Func: Sum, Arg: typ, Result: typ}, {Func: Sum0, Arg: typ, Result: typ.WithNullable(false)},
			{Func: Min, Arg: typ, Result: typ}, {Func: Max, Arg: typ, Result: typ}, {Func: Avg, Arg: typ, Result: typ},
		} {
			a, err := NewAccumulator(c)
			if err != nil {
				t.Fatal(err)
			}
			b, ok := a.(acc)
			if !ok {
				t.Fatalf("%s(%s) does not batch its results", c.Func, typ)
			}
			cases = append(cases, struct {
				name    string
				acc     acc
				retract bool
				arg     catalog.Type
			}{fmt.Sprintf("%s(%s)", c.Func, typ), b, false, typ})
			if c.Func == Sum0 {
				continue // $SUM0's retractor is its accumulator
			}
			r, err := NewRetractor(c)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct {
				name    string
				acc     acc
				retract bool
				arg     catalog.Type
			}{fmt.Sprintf("%s(%s) retracting", c.Func, typ), r.(acc), true, typ})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			a := c.acc
			a.Grow(2 * groups)
			for g := range int32(2 * groups) {
				a.Reset(g)
			}
			for range 6 {
				n := 1 + rng.IntN(8)
				col := randomColumn(rng, c.arg, n)
				rows := make([]int32, n)
				for r := range rows {
					rows[r] = int32(rng.IntN(groups))
				}
				if c.retract && rng.IntN(3) == 0 {
					a.(Retractor).Retract(col, rows)
				} else {
					a.Accumulate(col, rows)
				}
				col.Release()
			}
			var x, y []int32
			for g := range int32(groups) {
				for h := range int32(groups) {
					x, y = append(x, g), append(y, h)
				}
			}
			differs := make([]bool, len(x))
			a.resultsDiffer(x, y, differs)
			rx := results(t, a, x)
			ry := results(t, a, y)
			equalPairs := 0
			for u := range x {
				if want := !valuesEqual(rx, u, ry, u); differs[u] != want {
					t.Fatalf("groups %d and %d: %v and %v differ %v, want %v", x[u], y[u], valueAt(rx, u), valueAt(ry, u), differs[u], want)
				}
				if !differs[u] && x[u] != y[u] {
					equalPairs++
				}
			}
			if equalPairs == 0 {
				t.Fatal("no two groups with equal results: the case tests nothing of equality")
			}
			// Copied results read as the originals.
			src, dst := make([]int32, groups), make([]int32, groups)
			for g := range int32(groups) {
				src[g], dst[g] = g, groups+g
			}
			a.copyResults(dst, src)
			rs := results(t, a, src)
			rd := results(t, a, dst)
			for g := range groups {
				if fmt.Sprint(valueAt(rs, g)) != fmt.Sprint(valueAt(rd, g)) {
					t.Fatalf("group %d copied as %v, want %v", g, valueAt(rd, g), valueAt(rs, g))
				}
			}
		})
	}
}
