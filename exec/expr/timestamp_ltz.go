package expr

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "TO_TIMESTAMP_LTZ", Family: "temporal",
		Doc:     "TO_TIMESTAMP_LTZ(n [, 0 or 3]) of integers, FLOAT, DOUBLE (Java's (long) cast) and DECIMAL (truncated, BigDecimal#longValue) as epoch seconds or milliseconds (default 3), NULL outside years 0000 to 9999 as DateTimeUtils#toTimestampData; TO_TIMESTAMP_LTZ(string) as CAST(string AS TIMESTAMP(3)) read as UTC. Other precisions, a non-constant precision and the format and time-zone forms fall back",
		compile: compileToTimestampLtz})
}

// The epoch range DateTimeUtils#toTimestampData accepts (0000-01-01 to 9999-12-31 23:59:59.999
// UTC).
const (
	minEpochMillis  = -62167219200000
	maxEpochMillis  = 253402300799999
	minEpochSeconds = -62167219200
	maxEpochSeconds = 253402300799
)

// compileToTimestampLtz compiles TO_TIMESTAMP_LTZ (Flink's ToTimestampLtzFunction).
func compileToTimestampLtz(n *Node, args []Expr) (Expr, error) {
	if len(args) < 1 || len(args) > 2 || n.Type.Kind != catalog.TimestampLTZ || n.Type.Precision != 3 {
		return nil, unsupported("TO_TIMESTAMP_LTZ(%s) is not supported natively yet", typeNames(args))
	}
	from := args[0].Type()
	if from.IsString() {
		if len(args) != 1 {
			return nil, unsupported("TO_TIMESTAMP_LTZ(%s) with a format is not supported natively yet (java.time patterns are not reproduced)", typeNames(args))
		}
		// parseTimestampData(String): the wall clock as epoch milliseconds; it throws on bad input.
		return &fromString{arg: args[0], typ: n.Type}, nil
	}
	precision := int64(3)
	if len(args) == 2 {
		p, ok := n.Args[1].Value.(int64)
		if n.Args[1].Kind != Literal || !ok || (p != 0 && p != 3) {
			return nil, unsupported("TO_TIMESTAMP_LTZ with a precision other than a constant 0 or 3 is not supported natively")
		}
		precision = p
	}
	if !from.IsNumeric() {
		return nil, unsupported("TO_TIMESTAMP_LTZ(%s) is not supported natively yet", typeNames(args))
	}
	return &epochToLtz{arg: args[0], seconds: precision == 0, typ: n.Type}, nil
}

// epochToLtz is DateTimeUtils#toTimestampData of a number: epoch seconds (seconds) or
// milliseconds into a TIMESTAMP_LTZ(3), NULL outside the supported years.
type epochToLtz struct {
	arg     Expr
	seconds bool
	typ     catalog.Type
}

func (e *epochToLtz) Type() catalog.Type { return e.typ }

func (e *epochToLtz) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	a, err := e.arg.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := ctx.N
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	set := func(i int, ms int64, ok bool) {
		if ok && ms >= minEpochMillis && ms <= maxEpochMillis {
			dst[i] = ms
			bitutil.SetBit(vbits, i)
		}
	}
	bits, off := column.ValidBits(a)
	switch from := e.arg.Type(); {
	case from.Kind == catalog.Float || from.Kind == catalog.Double:
		vals := asFloat64(a, from)
		for i, v := range vals {
			if !column.Valid(bits, off, i) {
				continue
			}
			if e.seconds {
				// NaN fails both comparisons: NULL.
				set(i, javaD2L(v*1000), v >= minEpochSeconds && v <= maxEpochSeconds)
			} else {
				set(i, javaD2L(v), true)
			}
		}
	case from.Kind == catalog.Decimal:
		d := a.(*array.Decimal128)
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from.Scale)), nil)
		mask := new(big.Int).SetUint64(^uint64(0))
		q := new(big.Int)
		for i := 0; i < n; i++ {
			if !column.Valid(bits, off, i) {
				continue
			}
			// BigDecimal#setScale(0, DOWN).longValue(): truncated, the low 64 bits.
			q.Quo(bigOf(d.Value(i)), scale)
			v := int64(q.And(q, mask).Uint64())
			if e.seconds {
				v *= 1000
			}
			set(i, v, true)
		}
	default:
		vals := integralAsInt64(a, from)
		for i, v := range vals {
			if !column.Valid(bits, off, i) {
				continue
			}
			if e.seconds {
				set(i, v*1000, v >= minEpochSeconds && v <= maxEpochSeconds)
			} else {
				set(i, v, true)
			}
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}
