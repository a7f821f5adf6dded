package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Kernels take a fast path when one operand is a non-NULL literal: the literal is converted once
// at compile time, through the same casts the column path applies, and the loop reads only the
// other operand.

// constantValue returns e's value when e is a non-NULL literal.
func constantValue(e Expr) (any, bool) {
	l, ok := e.(*literal)
	if !ok || l.value == nil {
		return nil, false
	}
	return l.value, true
}

// constantAs converts a literal through the numeric casts steps (as castChain would per row) and
// returns element 0 of the result in the Go type of the last step.
func constantAs(e Expr, steps ...catalog.Type) (any, bool) {
	v, ok := constantValue(e)
	if !ok {
		return nil, false
	}
	ctx := NewCtx(memory.DefaultAllocator, 1)
	a, err := constant(ctx.Mem, e.Type(), v, 1)
	if err != nil {
		return nil, false
	}
	defer a.Release()
	c, err := castChain(ctx, a, e.Type(), steps...)
	if err != nil || ctx.Err() != nil || c.IsNull(0) {
		if c != nil {
			c.Release()
		}
		return nil, false
	}
	defer c.Release()
	switch steps[len(steps)-1].Kind {
	case catalog.Int:
		return column.Values[int32](c)[0], true
	case catalog.BigInt:
		return column.Values[int64](c)[0], true
	case catalog.Float:
		return column.Values[float32](c)[0], true
	case catalog.Double:
		return column.Values[float64](c)[0], true
	}
	return nil, false
}

// arithScalar computes a op k into dst; rows whose divisor is zero are returned.
func arithScalar[T int32 | int64 | float32 | float64](op byte, a []T, k T, dst []T, isInt bool) (zeroDiv bool) {
	switch op {
	case '+':
		for i, v := range a {
			dst[i] = v + k
		}
	case '-':
		for i, v := range a {
			dst[i] = v - k
		}
	case '*':
		for i, v := range a {
			dst[i] = v * k
		}
	case '/':
		if isInt && k == 0 {
			return true
		}
		if isInt && k == -1 {
			for i, v := range a {
				dst[i] = -v
			}
			return false
		}
		for i, v := range a {
			dst[i] = v / k
		}
	case '%':
		if isInt {
			if k == 0 {
				return true
			}
			if k == -1 {
				clear(dst)
				return false
			}
			modInts(a, k, dst)
			return false
		}
		for i, v := range a {
			dst[i] = T(mathMod(float64(v), float64(k)))
		}
	}
	return false
}

// cmpScalar sets bit i where a[i] op k holds.
func cmpScalar[T int32 | int64 | float64](op string, a []T, k T, bits []byte) {
	switch op {
	case "=":
		for i, v := range a {
			if v == k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case "<>":
		for i, v := range a {
			if v != k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case "<":
		for i, v := range a {
			if v < k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case "<=":
		for i, v := range a {
			if v <= k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case ">":
		for i, v := range a {
			if v > k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case ">=":
		for i, v := range a {
			if v >= k {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	}
}

// flip returns the operator with its operands swapped (k op a ⇔ a flip(op) k).
func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

func modInts[T int32 | int64 | float32 | float64](a []T, k T, dst []T) {
	switch aa := any(a).(type) {
	case []int32:
		kk, d := any(k).(int32), any(dst).([]int32)
		for i, v := range aa {
			d[i] = v % kk
		}
	case []int64:
		kk, d := any(k).(int64), any(dst).([]int64)
		for i, v := range aa {
			d[i] = v % kk
		}
	}
}

func mathMod(a, b float64) float64 { return math.Mod(a, b) }
