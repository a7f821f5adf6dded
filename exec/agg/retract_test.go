package agg

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// retractStep accumulates (add) or retracts one value (nil: NULL) into group 0.
type retractStep struct {
	add bool
	v   any
}

// runRetractor runs steps through a fresh Retractor of call c and returns the result after each
// (nil for NULL).
func runRetractor(t *testing.T, c Call, steps []retractStep) []any {
	t.Helper()
	r, err := NewRetractor(c)
	if err != nil {
		t.Fatal(err)
	}
	r.Grow(1)
	r.Reset(0)
	mem := memory.DefaultAllocator
	var out []any
	for _, s := range steps {
		col := oneValue(t, c.Arg, s.v)
		if s.add {
			r.Accumulate(col, []int32{0})
		} else {
			r.Retract(col, []int32{0})
		}
		col.Release()
		res, err := r.Result(mem, []int32{0})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, valueAt(res, 0))
		// The state survives an encoding round trip.
		blob := r.Encode(nil, 0)
		r.Reset(0)
		if rest, err := r.Decode(blob, 0); err != nil || len(rest) != 0 {
			t.Fatalf("decode: %v, %d bytes left", err, len(rest))
		}
		res.Release()
	}
	return out
}

func oneValue(t *testing.T, typ catalog.Type, v any) arrow.Array {
	t.Helper()
	mem := memory.DefaultAllocator
	switch typ.Kind {
	case catalog.BigInt:
		b := array.NewInt64Builder(mem)
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(v.(int64))
		}
		return b.NewArray()
	case catalog.Double:
		b := array.NewFloat64Builder(mem)
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(v.(float64))
		}
		return b.NewArray()
	}
	t.Fatalf("type %s", typ)
	return nil
}

func valueAt(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Int64:
		return x.Value(i)
	case *array.Float64:
		return x.Value(i)
	}
	return a.ValueStr(i)
}

// MIN/MAX with retraction as MinWithRetractAggFunction/MaxWithRetractAggFunction compute them,
// including values retracted before they were accumulated (negative counts, which do not count
// as values but are still found when the extreme is looked for again), and floating point as
// Double.compareTo orders it. SUM with retraction is NULL whenever its count of values is 0.
func TestRetractors(t *testing.T) {
	long, double := catalog.BigIntType(true), catalog.DoubleType(true)
	add := func(v any) retractStep { return retractStep{true, v} }
	sub := func(v any) retractStep { return retractStep{false, v} }
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		name  string
		call  Call
		steps []retractStep
		want  []any
	}{
		{"MIN falls back and empties", Call{Func: Min, Arg: long, Result: long},
			[]retractStep{add(int64(5)), add(int64(3)), add(int64(3)), sub(int64(3)), sub(int64(3)), sub(int64(5)), add(nil)},
			[]any{int64(5), int64(3), int64(3), int64(3), int64(5), nil, nil}},
		{"MAX with a value retracted first", Call{Func: Max, Arg: long, Result: long},
			// 9 and 8 at -1 are no values, but when 4 is retracted Flink's updateMax looks
			// through every entry and takes 9.
			[]retractStep{sub(int64(9)), add(int64(4)), sub(int64(8)), add(int64(1)), sub(int64(4))},
			[]any{nil, int64(4), int64(4), int64(4), int64(9)}},
		{"MAX finds a negative count when it looks again", Call{Func: Max, Arg: long, Result: long},
			[]retractStep{add(int64(2)), add(int64(1)), sub(int64(7)), sub(int64(2))},
			[]any{int64(2), int64(2), int64(2), int64(7)}},
		{"MIN orders -0.0 before 0.0", Call{Func: Min, Arg: double, Result: double},
			[]retractStep{add(0.0), add(negZero), sub(negZero)},
			[]any{0.0, negZero, 0.0}},
		{"MAX orders NaN last", Call{Func: Max, Arg: double, Result: double},
			[]retractStep{add(math.Inf(1)), add(math.NaN()), sub(math.NaN())},
			[]any{math.Inf(1), math.NaN(), math.Inf(1)}},
		{"SUM is NULL at a count of 0", Call{Func: Sum, Arg: long, Result: long},
			[]retractStep{sub(int64(4)), add(int64(4)), add(int64(6)), sub(nil), sub(int64(6))},
			[]any{int64(-4), nil, int64(6), int64(6), nil}},
		{"AVG and COUNT subtract", Call{Func: Avg, Arg: long, Result: long},
			[]retractStep{add(int64(4)), add(int64(7)), sub(int64(4))},
			[]any{int64(4), int64(5), int64(7)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runRetractor(t, c.call, c.steps)
			for i := range c.want {
				if !sameValue(got[i], c.want[i]) {
					t.Errorf("step %d: got %v, want %v (all: %v)", i, got[i], c.want[i], got)
				}
			}
		})
	}
}

// sameValue compares results bit for bit (so that -0.0 and NaN are told apart and matched).
func sameValue(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	if ok1 && ok2 {
		if x != x {
			return y != y
		}
		return math.Float64bits(x) == math.Float64bits(y)
	}
	return a == b
}

// Calls Go cannot retract exactly as Flink fall back with a reason.
func TestRetractorUnsupported(t *testing.T) {
	str := catalog.StringType(true)
	if _, err := NewRetractor(Call{Func: Max, Arg: str, Result: str}); err == nil {
		t.Error("MAX(VARCHAR) with retraction should be refused")
	}
}
