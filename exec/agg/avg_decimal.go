package agg

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
)

// avgDecimalAcc is AVG over DECIMAL(p, s), as Flink's DecimalAvgAggFunction: a sum in
// DECIMAL(38, s) starting at 0 and a BIGINT count. A sum that overflows 38 digits becomes NULL
// and stays NULL (NULL + x is NULL); the value is sum / count rounded HALF_UP to 38 significant
// digits, then to the result scale max(6, s) (DecimalDataUtils#divide), NULL for no values or a
// NULL sum.
type avgDecimalAcc struct {
	resultType
	argScale int
	sum      []decimal128.Num
	sumNull  []bool
	cnt      []int64
}

// newAvgDecimal returns the Accumulator of AVG(arg) returning result, or why it cannot run.
func newAvgDecimal(arg, result catalog.Type) (Accumulator, error) {
	if result.Kind != catalog.Decimal || result.Precision != 38 || result.Scale != max(6, arg.Scale) {
		return nil, fmt.Errorf("AVG(%s) returning %s is not supported natively", arg, result)
	}
	a := &avgDecimalAcc{argScale: arg.Scale}
	a.setType(result)
	return a, nil
}

func (a *avgDecimalAcc) Grow(n int) {
	a.sum, a.sumNull, a.cnt = grown(a.sum, n), grown(a.sumNull, n), grown(a.cnt, n)
}

func (a *avgDecimalAcc) Reset(g int32) {
	a.sum[g], a.sumNull[g], a.cnt[g] = decimal128.Num{}, false, 0
}

func (a *avgDecimalAcc) Count(int32) int64 { return 0 }

func (a *avgDecimalAcc) Copy(d, s int32) {
	a.sum[d], a.sumNull[d], a.cnt[d] = a.sum[s], a.sumNull[s], a.cnt[s]
}

// add is aggDecimalPlus into group g: NULL when either side is NULL or the sum overflows.
func (a *avgDecimalAcc) add(g int32, v decimal128.Num, null bool) {
	if a.sumNull[g] || null {
		a.sumNull[g] = true
		return
	}
	s, ok := addDecimal38(a.sum[g], v)
	a.sum[g], a.sumNull[g] = s, !ok
}

func (a *avgDecimalAcc) Merge(d, s int32) {
	a.add(d, a.sum[s], a.sumNull[s])
	a.cnt[d] += a.cnt[s]
}

func (a *avgDecimalAcc) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[decimal128.Num](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.add(g, vals[r], false)
			a.cnt[g]++
		}
	}
}

func (a *avgDecimalAcc) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]decimal128.Num, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		if a.cnt[g] == 0 || a.sumNull[g] {
			continue
		}
		q, scale, err := decimal.Divide38(a.sum[g].BigInt(), a.argScale, big.NewInt(a.cnt[g]), 0)
		if err != nil {
			return nil, err
		}
		vals[i], valid[i] = decimal.Fit(q, scale, a.typ.Precision, a.typ.Scale)
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func (a *avgDecimalAcc) FieldTypes() []catalog.Type {
	return []catalog.Type{catalog.DecimalType(38, a.argScale, true), catalog.BigIntType(true)}
}

func (a *avgDecimalAcc) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	sums, valid, cnts := make([]decimal128.Num, len(groups)), make([]bool, len(groups)), make([]int64, len(groups))
	for i, g := range groups {
		sums[i], valid[i], cnts[i] = a.sum[g], !a.sumNull[g], a.cnt[g]
	}
	sa, err := buildFixed(mem, catalog.DecimalType(38, a.argScale, true), sums, valid)
	if err != nil {
		return nil, err
	}
	ca, err := buildFixed(mem, catalog.BigIntType(true), cnts, nil)
	if err != nil {
		sa.Release()
		return nil, err
	}
	return []arrow.Array{sa, ca}, nil
}

func (a *avgDecimalAcc) MergeFields(cols []arrow.Array, groups []int32) {
	sums, cnts := column.Values[decimal128.Num](cols[0]), column.Values[int64](cols[1])
	bits, off := column.ValidBits(cols[0])
	for r, g := range groups {
		if g >= 0 {
			a.add(g, sums[r], !column.Valid(bits, off, r))
			a.cnt[g] += cnts[r]
		}
	}
}

func (a *avgDecimalAcc) GroupBytes() int { return 16 + 1 + 8 }

func (a *avgDecimalAcc) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(appendFixed(dst, a.sum[g]), a.sumNull[g]), a.cnt[g])
}

func (a *avgDecimalAcc) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.sum[g])
	if err == nil {
		src, err = readFixed(src, &a.sumNull[g])
	}
	if err != nil {
		return nil, err
	}
	return readFixed(src, &a.cnt[g])
}
