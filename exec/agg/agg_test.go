package agg

import (
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sluice-project/sluice/catalog"
)

// TestSum0StartsAtZero checks $SUM0 against Flink's Sum0AggFunction: a group whose values are
// all NULL sums to 0 (SUM would be NULL), merging partials adds, and the value wraps as Java's
// int arithmetic does.
func TestSum0StartsAtZero(t *testing.T) {
	acc, err := NewAccumulator(Call{Func: Sum0, Arg: catalog.IntType(true), Result: catalog.IntType(false)})
	if err != nil {
		t.Fatal(err)
	}
	acc.Grow(3)
	for g := int32(0); g < 3; g++ {
		acc.Reset(g)
	}
	b := array.NewInt32Builder(memory.NewGoAllocator())
	b.AppendValues([]int32{5, 0, 1<<31 - 1, 7}, []bool{true, false, true, true})
	b.AppendNull()
	arg := b.NewArray()
	defer arg.Release()
	// Rows to groups: 5 -> 0, NULL -> 1, MaxInt32 -> 2, 7 -> 2, NULL -> 1.
	acc.Accumulate(arg, []int32{0, 1, 2, 2, 1})
	acc.Merge(0, 2) // 5 + (MaxInt32 + 7) wraps twice
	res, err := acc.Result(memory.NewGoAllocator(), []int32{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	got := res.(*array.Int32)
	want := []int32{5 + (1<<31 - 1) + 7 - 1<<32, 0, (1<<31 - 1) + 7 - 1<<32}
	for i, w := range want {
		if got.IsNull(i) || got.Value(i) != w {
			t.Errorf("group %d: %v, want %d", i, got.ValueStr(i), w)
		}
	}
	if _, err := NewAccumulator(Call{Func: Sum0, Arg: catalog.IntType(true), Result: catalog.BigIntType(false)}); err == nil {
		t.Error("$SUM0(INT) returning BIGINT was accepted")
	}
}

// TestAvgDecimal checks AVG(DECIMAL(10, 2)) against DecimalAvgAggFunction: the quotient at scale
// 6 rounded HALF_UP, NULL without values, and a sum that overflows 38 digits stays NULL even
// when later values would bring it back (unlike SUM, whose next value restarts it).
func TestAvgDecimal(t *testing.T) {
	mem := memory.NewGoAllocator()
	acc, err := NewAccumulator(Call{Func: Avg, Arg: catalog.DecimalType(10, 2, true), Result: catalog.DecimalType(38, 6, true)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewAccumulator(Call{Func: Avg, Arg: catalog.DecimalType(10, 2, true), Result: catalog.DecimalType(38, 2, true)}); err == nil {
		t.Error("AVG(DECIMAL(10, 2)) returning DECIMAL(38, 2) was accepted")
	}
	acc.Grow(3)
	for g := int32(0); g < 3; g++ {
		acc.Reset(g)
	}
	big38 := decimal128.FromBigInt(new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1)))
	b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 10, Scale: 2})
	// group 0: 1.00, 2.00, 0.01 -> 3.01 / 3 = 1.003333; group 1: NULL only; group 2: overflow then a negative.
	b.AppendValues([]decimal128.Num{decimal128.FromI64(100), decimal128.FromI64(200), decimal128.FromI64(1), {}, big38, big38, decimal128.FromI64(-1)},
		[]bool{true, true, true, false, true, true, true})
	arg := b.NewArray()
	defer arg.Release()
	acc.Accumulate(arg, []int32{0, 0, 0, 1, 2, 2, 2})
	res, err := acc.Result(mem, []int32{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	got := res.(*array.Decimal128)
	if got.IsNull(0) || got.Value(0).BigInt().Int64() != 1_003_333 {
		t.Errorf("AVG(1.00, 2.00, 0.01) = %s, want 1.003333", got.ValueStr(0))
	}
	if !got.IsNull(1) || !got.IsNull(2) {
		t.Errorf("no values / overflowed sum: %s, %s, want NULL, NULL", got.ValueStr(1), got.ValueStr(2))
	}
}

// A distinct set as a window state of version 1 encoded it, without its kind byte, still decodes
// (SetUnmarked).
func TestDistinctSetWithoutKindByte(t *testing.T) {
	mem := memory.NewGoAllocator()
	// A distinct set as version 1 encoded it: no kind byte.
	acc, err := NewAccumulator(Call{Func: Count, Distinct: true, Arg: catalog.BigIntType(true), Result: catalog.BigIntType(false)})
	if err != nil {
		t.Fatal(err)
	}
	acc.Grow(2)
	acc.Reset(0)
	acc.Reset(1)
	vb := array.NewInt64Builder(mem)
	vb.AppendValues([]int64{4, 4, 9}, nil)
	vals := vb.NewArray()
	defer vals.Release()
	acc.Accumulate(vals, []int32{0, 0, 0})
	v2 := acc.Encode(nil, 0)
	d := acc.(*distinctAcc[int64])
	d.SetUnmarked(true)
	if _, err := d.Decode(v2[1:], 1); err != nil {
		t.Fatal(err)
	}
	d.SetUnmarked(false)
	if a, b := acc.Encode(nil, 0), acc.Encode(nil, 1); string(a) != string(b) {
		t.Errorf("version 1 set decoded to %v, want %v", b, a)
	}
}
