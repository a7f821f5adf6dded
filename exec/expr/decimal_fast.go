package expr

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Fast paths for decimal arithmetic on values whose unscaled form fits an int64 (compact
// decimals, precision ≤ 18, and integers). They compute exactly what the big.Int path computes;
// any overflow falls back to it for that row.

// int64Operand returns the unscaled int64 values and scale of a compact DECIMAL or integer
// column, or ok=false.
func int64Operand(a arrow.Array, t catalog.Type) (vals []int64, scale int, ok bool) {
	switch {
	case t.IsIntegral():
		return integralAsInt64(a, t), 0, true
	case t.IsCompactDecimal():
		src := column.Values[decimal128.Num](a)
		out := make([]int64, len(src))
		for i, d := range src {
			out[i] = int64(d.LowBits())
		}
		return out, t.Scale, true
	}
	return nil, 0, false
}

// scaleUp64 returns v * 10^k, or ok=false on overflow.
func scaleUp64(v int64, k int) (int64, bool) {
	if k == 0 {
		return v, true
	}
	if k > 18 {
		return 0, v == 0
	}
	p := pow10Long[k]
	r := v * p
	if v != 0 && (r/p != v || (v > 0) != (r > 0)) {
		return 0, false
	}
	return r, true
}

// rescaleHalfUp64 changes the scale of v from `from` to `to` (HALF_UP when reducing).
func rescaleHalfUp64(v int64, from, to int) (int64, bool) {
	if to >= from {
		return scaleUp64(v, to-from)
	}
	k := from - to
	if k > 18 {
		return 0, false // left to the big.Int path
	}
	p := pow10Long[k]
	q, r := v/p, v%p
	if r < 0 {
		r = -r
	}
	if r >= p-r { // 2r >= p without overflow
		if v < 0 {
			q--
		} else {
			q++
		}
	}
	return q, true
}

// fits64 reports whether |v| < 10^precision (DecimalData's precision check).
func fits64(v int64, precision int) bool {
	if precision > 18 {
		return true
	}
	if v == math.MinInt64 {
		return false
	}
	if v < 0 {
		v = -v
	}
	return v < pow10Long[precision]
}

// decimalOp64 computes a op b exactly for + - * % into the result precision and scale. ok=false
// means the int64 path cannot decide (overflow); null=true means Flink yields NULL.
func decimalOp64(op byte, a int64, sa int, b int64, sb int, precision, scale int) (res int64, null, ok bool) {
	var v int64
	var s int
	switch op {
	case '+', '-', '%':
		x, y := a, b
		s = sa
		if sa < sb {
			if x, ok = scaleUp64(a, sb-sa); !ok {
				return 0, false, false
			}
			s = sb
		} else if sb < sa {
			if y, ok = scaleUp64(b, sa-sb); !ok {
				return 0, false, false
			}
		}
		switch op {
		case '+':
			v = x + y
			if (x >= 0) == (y >= 0) && (v >= 0) != (x >= 0) {
				return 0, false, false
			}
		case '-':
			v = x - y
			if (x >= 0) != (y >= 0) && (v >= 0) != (x >= 0) {
				return 0, false, false
			}
		case '%':
			if y == 0 || (y == -1 && x == math.MinInt64) {
				return 0, false, false
			}
			v = x % y
		}
	case '*':
		neg := (a < 0) != (b < 0)
		ua, ub := abs64(a), abs64(b)
		hi, lo := bits.Mul64(ua, ub)
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false, false
		}
		v, s = int64(lo), sa+sb
		if neg {
			v = -v
		}
	default:
		return 0, false, false
	}
	if s-scale > 18 {
		return 0, false, false
	}
	r, ok := rescaleHalfUp64(v, s, scale)
	if !ok {
		return 0, false, false
	}
	if !fits64(r, precision) {
		return 0, true, true
	}
	return r, false, true
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// compare64 compares a (scale sa) with b (scale sb) exactly, or ok=false on overflow.
func compare64(a int64, sa int, b int64, sb int) (int, bool) {
	var ok bool
	if sa < sb {
		if a, ok = scaleUp64(a, sb-sa); !ok {
			return 0, false
		}
	} else if sb < sa {
		if b, ok = scaleUp64(b, sa-sb); !ok {
			return 0, false
		}
	}
	switch {
	case a < b:
		return -1, true
	case a > b:
		return 1, true
	}
	return 0, true
}
