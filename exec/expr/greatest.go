package expr

import (
	"bytes"
	"cmp"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "GREATEST", Family: "conditional", Doc: "numbers (Java's boxed compareTo: NaN greatest, -0.0 < 0.0; DECIMALs by value after an exact conversion to the common type; a NULL DECIMAL operand of another type than the result fails the row with Flink's NullPointerException), strings, DATE, TIME, and TIMESTAMP or TIMESTAMP_LTZ of any precision (TimestampData#compareTo, narrower operands widened); NULL if any operand is NULL; every operand evaluated", compile: compileGreatestLeast, NanoTimestamps: true})
	register(&Function{Name: "LEAST", Family: "conditional", Doc: "as GREATEST", compile: compileGreatestLeast, NanoTimestamps: true})
}

func compileGreatestLeast(n *Node, args []Expr) (Expr, error) {
	t := n.Type
	args = append([]Expr(nil), args...)
	for k, a := range args {
		at := a.Type()
		numeric := t.IsNumeric() && at.IsNumeric() && (t.Kind != catalog.Decimal || exactDecimal(at, t))
		text := t.IsString() && at.IsString() && (t.Kind == catalog.VarChar || at.WithNullable(true).Equal(t.WithNullable(true)))
		// Flink passes temporal values to compareTo as they are (Integer, TimestampData): a
		// narrower timestamp is the same TimestampData in the wider result type.
		temporal := at.Kind == t.Kind && (t.Kind == catalog.Date || t.Kind == catalog.Time ||
			(t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && at.Precision <= t.Precision && at.TimeAttr == catalog.Regular)
		if !numeric && !text && !temporal {
			return nil, unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
		}
		if temporal && unitOf(at) == column.Millis && unitOf(t) == column.Micros {
			// Flink compares the TimestampData as it is; widening it to microseconds fails
			// beyond year 294,247 (DATE casts reach further).
			return nil, unsupported("%s of %s: a millisecond operand with a TIMESTAMP(4..6) result runs on Flink (microseconds end in year 294,247)", n.Op, typeNames(args))
		}
		if temporal && unitOf(at) != unitOf(t) {
			args[k] = &cast{unary: unary{a, t.WithNullable(at.Nullable)}, kind: castTimestampPrecision}
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
	e := &greatestLeast{args: args, typ: t, greatest: n.Op == "GREATEST"}
	for k, a := range args {
		// Flink's generated code converts a DECIMAL operand of another type than the common
		// one without checking for NULL first: a NULL there throws a NullPointerException.
		if at := a.Type(); at.Kind == catalog.Decimal && !at.WithNullable(true).Equal(t.WithNullable(true)) {
			if e.npeOnNull == nil {
				e.npeOnNull = make([]bool, len(args))
			}
			e.npeOnNull[k] = true
		}
	}
	return e, nil
}

// exactDecimal reports whether values of an integer or DECIMAL type convert to the DECIMAL t
// without rounding: Flink's generated GREATEST/LEAST casts every operand to the common type and
// compares DecimalData values; where the common type had to give up scale (precision 38) the
// rounding, and a cast overflowing to NULL, are not reproduced.
func exactDecimal(from, t catalog.Type) bool {
	p, s := from.Precision, from.Scale
	switch from.Kind {
	case catalog.TinyInt:
		p, s = 3, 0
	case catalog.SmallInt:
		p, s = 5, 0
	case catalog.Int:
		p, s = 10, 0
	case catalog.BigInt:
		p, s = 19, 0
	case catalog.Decimal:
	default:
		return false
	}
	return s <= t.Scale && p-s <= t.Precision-t.Scale
}

type greatestLeast struct {
	args     []Expr
	typ      catalog.Type
	greatest bool
	// npeOnNull marks the operands whose NULL fails the row in Flink (see compileGreatestLeast):
	// Flink stops converting operands at the first NULL, so only the first NULL counts.
	npeOnNull []bool
}

var errGreatestNPE = errors.New(`java.lang.NullPointerException: Cannot invoke "org.apache.flink.table.data.DecimalData.toBigDecimal()" because "dec" is null`)

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
	// order(k, best, i) compares operand k with the current best at row i (Java compareTo).
	var order func(k, best, i int) int
	switch e.typ.Kind {
	case catalog.Float, catalog.Double:
		vals := make([][]float64, len(cols))
		for k, c := range cols {
			vals[k] = asFloat64(c, e.typ)
		}
		order = func(k, best, i int) int { return javaDoubleCompare(vals[k][i], vals[best][i]) }
	case catalog.VarChar, catalog.Char:
		order = func(k, best, i int) int { return bytes.Compare(bytesAt(cols[k], i), bytesAt(cols[best], i)) }
	case catalog.Timestamp, catalog.TimestampLTZ:
		if e.typ.IsNanoTimestamp() {
			ms, nanos := make([][]int64, len(cols)), make([][]int32, len(cols))
			for k, c := range cols {
				ms[k], nanos[k] = column.NanoTimestamps(c)
			}
			order = func(k, best, i int) int {
				if c := cmp.Compare(ms[k][i], ms[best][i]); c != 0 {
					return c
				}
				return cmp.Compare(nanos[k][i], nanos[best][i])
			}
			break
		}
		vals := make([][]int64, len(cols))
		for k, c := range cols {
			vals[k] = column.Values[int64](c)
		}
		order = func(k, best, i int) int { return cmp.Compare(vals[k][i], vals[best][i]) }
	case catalog.Decimal:
		// Every operand was converted exactly to the result's scale (exactDecimal).
		vals := make([][]decimal128.Num, len(cols))
		for k, c := range cols {
			vals[k] = column.Values[decimal128.Num](c)
		}
		order = func(k, best, i int) int { return vals[k][i].Cmp(vals[best][i]) }
	default:
		vals := make([][]int64, len(cols))
		for k, c := range cols {
			vals[k] = asInt64(c, e.typ)
		}
		order = func(k, best, i int) int { return cmp.Compare(vals[k][i], vals[best][i]) }
	}
	pick := make([]int, n)
	for i := 0; i < n; i++ {
		best := 0
		for k := range cols {
			if cols[k].IsNull(i) {
				best = k // any NULL operand makes the result NULL
				if e.npeOnNull != nil && e.npeOnNull[k] {
					ctx.fail(i, errGreatestNPE)
				}
				break
			}
			if k == 0 {
				continue
			}
			if c := order(k, best, i); (e.greatest && c > 0) || (!e.greatest && c < 0) {
				best = k
			}
		}
		pick[i] = best
	}
	return gather(ctx, e.typ, pick, cols)
}
