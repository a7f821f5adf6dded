package expr

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
)

func init() {
	register(&Function{Name: "GREATEST", Family: "conditional", Doc: "numbers (Java's boxed compareTo: NaN greatest, -0.0 < 0.0) and strings; NULL if any operand is NULL; every operand evaluated", compile: compileGreatestLeast})
	register(&Function{Name: "LEAST", Family: "conditional", Doc: "as GREATEST", compile: compileGreatestLeast})
}

func compileGreatestLeast(n *Node, args []Expr) (Expr, error) {
	t := n.Type
	for _, a := range args {
		at := a.Type()
		numeric := t.IsNumeric() && t.Kind != catalog.Decimal && at.IsNumeric() && at.Kind != catalog.Decimal
		text := t.Kind == catalog.VarChar && at.IsString()
		if !numeric && !text {
			return nil, unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
		}
	}
	if t.IsString() {
		for i := range n.Args {
			for j := i + 1; j < len(n.Args); j++ {
				if err := stringCompareHazard(n.Op, n.Args[i], n.Args[j], true); err != nil {
					return nil, err
				}
			}
		}
	}
	return &greatestLeast{args: args, typ: t, greatest: n.Op == "GREATEST"}, nil
}

type greatestLeast struct {
	args     []Expr
	typ      catalog.Type
	greatest bool
}

func (e *greatestLeast) Type() catalog.Type { return e.typ }

func (e *greatestLeast) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	raw, err := evalAll(ctx, in, e.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(raw)
	cols := make([]arrow.Array, len(raw))
	for k, c := range raw {
		if cols[k], err = coerce(ctx, c, e.args[k].Type(), e.typ); err != nil {
			releaseAll(cols[:k])
			return nil, err
		}
	}
	defer releaseAll(cols)
	n := ctx.N
	// cmp(k, best, i) compares operand k with the current best at row i (Java compareTo).
	var cmp func(k, best, i int) int
	switch e.typ.Kind {
	case catalog.Float, catalog.Double:
		vals := make([][]float64, len(cols))
		for k, c := range cols {
			vals[k] = asFloat64(c, e.typ)
		}
		cmp = func(k, best, i int) int { return javaDoubleCompare(vals[k][i], vals[best][i]) }
	case catalog.VarChar:
		cmp = func(k, best, i int) int { return bytes.Compare(bytesAt(cols[k], i), bytesAt(cols[best], i)) }
	default:
		vals := make([][]int64, len(cols))
		for k, c := range cols {
			vals[k] = asInt64(c, e.typ)
		}
		cmp = func(k, best, i int) int {
			switch a, b := vals[k][i], vals[best][i]; {
			case a < b:
				return -1
			case a > b:
				return 1
			}
			return 0
		}
	}
	pick := make([]int, n)
	for i := 0; i < n; i++ {
		best := 0
		for k := range cols {
			if cols[k].IsNull(i) {
				best = k // any NULL operand makes the result NULL
				break
			}
			if k == 0 {
				continue
			}
			if c := cmp(k, best, i); (e.greatest && c > 0) || (!e.greatest && c < 0) {
				best = k
			}
		}
		pick[i] = best
	}
	return gather(ctx, e.typ, pick, cols)
}
