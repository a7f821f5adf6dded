package agg

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Retractor is the accumulator of a call that consumes retractions: a group aggregation of
// input with updates and deletes accumulates +I/+U rows and retracts -U/-D rows.
type Retractor interface {
	GroupAccumulator
	// Retract takes row r of arg out of group groups[r]; rows with a negative group are
	// skipped. arg is nil for COUNT(*).
	Retract(arg arrow.Array, groups []int32)
	// CopyResult makes group dst's Result equal to group src's (copying what Result reads,
	// which for MIN/MAX is not their values' counts); dst is only read by Result afterwards.
	CopyResult(dst, src int32)
}

// CopyResult copies the count.
func (a *countAcc) CopyResult(d, s int32) { a.Copy(d, s) }

// CopyResult copies the sum.
func (a *sum0Acc[T]) CopyResult(d, s int32) { a.Copy(d, s) }

// CopyResult copies the sum and count.
func (a *avgIntAcc[T]) CopyResult(d, s int32) { a.Copy(d, s) }

// CopyResult copies the sum and count.
func (a *avgFloatAcc[T]) CopyResult(d, s int32) { a.Copy(d, s) }

// NewRetractor returns the accumulator Flink uses for a call that consumes retractions
// (AggFunctionFactory with needRetraction): COUNT, $SUM0 and AVG retract by subtracting,
// SUM is SumWithRetractAggFunction (a sum and a count of values), MIN and MAX are
// MinWithRetractAggFunction / MaxWithRetractAggFunction (a count per value). Other calls
// return an error saying why they cannot run natively.
func NewRetractor(c Call) (Retractor, error) {
	unsupported := fmt.Errorf("%s(%s) over input with retractions is not supported natively yet", c.Func, c.Arg)
	if c.Distinct {
		return nil, unsupported
	}
	if c.Func == CountStar || c.Func == Count {
		return &countAcc{star: c.Func == CountStar}, nil
	}
	if c.Arg.Kind == catalog.Decimal || c.Arg.IsString() || c.Arg.IsBinary() || c.Arg.Kind == catalog.Boolean {
		return nil, unsupported
	}
	k := c.Arg.Kind
	var acc interface {
		Retractor
		setType(catalog.Type)
	}
	switch c.Func {
	case Sum0, Avg:
		a, err := NewAccumulator(c)
		if err != nil {
			return nil, err
		}
		r, ok := a.(Retractor)
		if !ok {
			return nil, unsupported
		}
		return r, nil
	case Sum:
		// A NOT NULL result (of a NOT NULL argument without a filter) is never NULL: its number
		// of values is the group's number of rows, and a group without rows is deleted.
		if !c.Result.WithNullable(true).Equal(c.Arg.WithNullable(true)) {
			return nil, unsupported
		}
		acc, _ = catalog.Numeric[interface {
			Retractor
			setType(catalog.Type)
		}](k, &sumRetractAcc[int8]{}, &sumRetractAcc[int16]{}, &sumRetractAcc[int32]{}, &sumRetractAcc[int64]{},
			&sumRetractAcc[float32]{}, &sumRetractAcc[float64]{})
	case Min, Max:
		if !c.Result.WithNullable(true).Equal(c.Arg.WithNullable(true)) {
			return nil, unsupported
		}
		max := c.Func == Max
		switch {
		case k == catalog.Date || k == catalog.Time:
			acc = newValueCounts[int32](max, identityKey[int32], identityKey[int32])
		case (k == catalog.Timestamp || k == catalog.TimestampLTZ) && c.Arg.Precision <= 6:
			acc = newValueCounts[int64](max, identityKey[int64], identityKey[int64])
		case k == catalog.TinyInt:
			acc = newValueCounts[int8](max, identityKey[int8], identityKey[int8])
		case k == catalog.SmallInt:
			acc = newValueCounts[int16](max, identityKey[int16], identityKey[int16])
		case k == catalog.Int:
			acc = newValueCounts[int32](max, identityKey[int32], identityKey[int32])
		case k == catalog.BigInt:
			acc = newValueCounts[int64](max, identityKey[int64], identityKey[int64])
		case k == catalog.Float:
			acc = newValueCounts[float32](max, float32Key, float32FromKey)
		case k == catalog.Double:
			acc = newValueCounts[float64](max, float64Key, float64FromKey)
		}
	}
	if acc == nil {
		return nil, unsupported
	}
	acc.setType(c.Result)
	return acc, nil
}

// Retract takes rows back out of COUNT(*) (each row) or COUNT(x) (each non-NULL value).
func (a *countAcc) Retract(arg arrow.Array, groups []int32) {
	if a.star || arg.NullN() == 0 {
		for _, g := range groups {
			if g >= 0 {
				a.n[g]--
			}
		}
		return
	}
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.n[g]--
		}
	}
}

// Retract subtracts values from $SUM0 (wrapping, as Java arithmetic).
func (a *sum0Acc[T]) Retract(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.val[g] -= vals[r]
		}
	}
}

// Retract takes values out of an integer AVG's sum and count.
func (a *avgIntAcc[T]) Retract(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.sum[g] -= int64(vals[r])
			a.cnt[g]--
		}
	}
}

// Retract takes values out of a floating-point AVG's sum and count.
func (a *avgFloatAcc[T]) Retract(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.sum[g] -= float64(vals[r])
			a.cnt[g]--
		}
	}
}

// sumRetractAcc is SumWithRetractAggFunction over one numeric type: a sum (NULL until the
// first value, accumulated or retracted, which starts it at 0 - v) and the number of values
// in it; its value is NULL while that number is 0.
type sumRetractAcc[T number] struct {
	resultType
	sum []T
	has []bool
	cnt []int64
}

func (a *sumRetractAcc[T]) Grow(n int) {
	a.sum, a.has, a.cnt = grown(a.sum, n), grown(a.has, n), grown(a.cnt, n)
}

func (a *sumRetractAcc[T]) Reset(g int32) {
	var zero T
	a.sum[g], a.has[g], a.cnt[g] = zero, false, 0
}

func (a *sumRetractAcc[T]) GroupBytes() int { var v T; return int(binarySize(v)) + 1 + 8 }

func (a *sumRetractAcc[T]) CopyResult(d, s int32) {
	a.sum[d], a.has[d], a.cnt[d] = a.sum[s], a.has[s], a.cnt[s]
}

func (a *sumRetractAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		if a.has[g] {
			a.sum[g] += vals[r]
		} else {
			a.sum[g], a.has[g] = vals[r], true
		}
		a.cnt[g]++
	}
}

func (a *sumRetractAcc[T]) Retract(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		if a.has[g] {
			a.sum[g] -= vals[r]
		} else {
			var zero T
			a.sum[g], a.has[g] = zero-vals[r], true
		}
		a.cnt[g]--
	}
}

func (a *sumRetractAcc[T]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]T, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		vals[i], valid[i] = a.sum[g], a.cnt[g] != 0 && a.has[g]
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func (a *sumRetractAcc[T]) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(appendFixed(dst, a.has[g]), a.sum[g]), a.cnt[g])
}

func (a *sumRetractAcc[T]) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.has[g])
	if err != nil {
		return nil, err
	}
	if src, err = readFixed(src, &a.sum[g]); err != nil {
		return nil, err
	}
	return readFixed(src, &a.cnt[g])
}

func binarySize[T fixedValue](v T) int { return len(appendFixed(nil, v)) }

// valueCounts is MinWithRetractAggFunction / MaxWithRetractAggFunction over one type: per
// group a count per value (negative when retracted before accumulated), the number of
// values with a positive count as Flink keeps it (mapSize), and the current extreme, all
// updated as Flink's accumulate and retract update them (so that even retractions of values
// never accumulated give Flink's results). Values are kept as keys K ordered and compared as
// Java's compareTo and equals order and compare the boxed values (for floating point: -0.0
// before 0.0, NaN after +Inf and equal to itself; a NaN comes out as Java's canonical NaN).
type valueCounts[T fixedValue, K cmp.Ordered] struct {
	resultType
	max     bool
	key     func(T) K
	value   func(K) T
	counts  []map[K]int64
	extreme []K
	size    []int64
}

func newValueCounts[T fixedValue, K cmp.Ordered](max bool, key func(T) K, value func(K) T) *valueCounts[T, K] {
	return &valueCounts[T, K]{max: max, key: key, value: value}
}

func identityKey[T cmp.Ordered](v T) T { return v }

// float64Key maps a DOUBLE to an unsigned key ordered as Double.compareTo, one key per value
// Double.equals tells apart (every NaN is one).
func float64Key(v float64) uint64 {
	b := math.Float64bits(v)
	if v != v {
		b = 0x7ff8000000000000
	}
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func float64FromKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// float32Key maps a FLOAT to a key ordered as Float.compareTo.
func float32Key(v float32) uint32 {
	b := math.Float32bits(v)
	if v != v {
		b = 0x7fc00000
	}
	if b>>31 == 1 {
		return ^b
	}
	return b | 1<<31
}

func float32FromKey(k uint32) float32 {
	if k>>31 == 1 {
		return math.Float32frombits(k &^ (1 << 31))
	}
	return math.Float32frombits(^k)
}

func (a *valueCounts[T, K]) Grow(n int) {
	a.counts, a.extreme, a.size = grown(a.counts, n), grown(a.extreme, n), grown(a.size, n)
}

func (a *valueCounts[T, K]) Reset(g int32) {
	var zero K
	a.counts[g], a.extreme[g], a.size[g] = nil, zero, 0
}

// GroupBytes estimates a group with a few values.
func (a *valueCounts[T, K]) GroupBytes() int {
	var k K
	return 64 + 4*(binarySize(a.value(k))+8)
}

// CopyResult copies the extreme and the size, not the counts.
func (a *valueCounts[T, K]) CopyResult(d, s int32) {
	a.extreme[d], a.size[d] = a.extreme[s], a.size[s]
}

// beats says whether v replaces the current extreme cur (compareTo(v) > 0 for MIN).
func (a *valueCounts[T, K]) beats(v, cur K) bool {
	if a.max {
		return v > cur
	}
	return v < cur
}

func (a *valueCounts[T, K]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		v := a.key(vals[r])
		if a.size[g] == 0 || a.beats(v, a.extreme[g]) {
			a.extreme[g] = v
		}
		m := a.counts[g]
		if m == nil {
			m = map[K]int64{}
			a.counts[g] = m
		}
		c := m[v] + 1
		if c == 0 {
			delete(m, v)
		} else {
			m[v] = c
		}
		if c == 1 {
			a.size[g]++
		}
	}
}

func (a *valueCounts[T, K]) Retract(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		v := a.key(vals[r])
		m := a.counts[g]
		if m == nil {
			m = map[K]int64{}
			a.counts[g] = m
		}
		c := m[v] - 1
		if c != 0 {
			m[v] = c // negative counts do not count in the size
			continue
		}
		delete(m, v)
		a.size[g]--
		if a.size[g] == 0 {
			var zero K
			a.extreme[g] = zero
			continue
		}
		if v == a.extreme[g] {
			a.update(g)
		}
	}
}

// update finds the extreme among all values of the group (Flink's updateMin / updateMax,
// which iterate every entry of the map, negative counts included).
func (a *valueCounts[T, K]) update(g int32) {
	first := true
	for k := range a.counts[g] {
		if first || a.beats(k, a.extreme[g]) {
			a.extreme[g], first = k, false
		}
	}
	if first {
		var zero K
		a.size[g], a.extreme[g] = 0, zero
	}
}

func (a *valueCounts[T, K]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]T, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		if a.size[g] > 0 {
			vals[i], valid[i] = a.value(a.extreme[g]), true
		}
	}
	return buildFixed(mem, a.typ, vals, valid)
}

// Encode writes the extreme, the size and the counts in key order (equal state, equal bytes).
func (a *valueCounts[T, K]) Encode(dst []byte, g int32) []byte {
	m := a.counts[g]
	dst = appendFixed(appendFixed(dst, a.value(a.extreme[g])), a.size[g])
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(m)))
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		dst = appendFixed(appendFixed(dst, a.value(k)), m[k])
	}
	return dst
}

func (a *valueCounts[T, K]) Decode(src []byte, g int32) ([]byte, error) {
	var v T
	src, err := readFixed(src, &v)
	if err != nil {
		return nil, err
	}
	a.extreme[g] = a.key(v)
	if src, err = readFixed(src, &a.size[g]); err != nil {
		return nil, err
	}
	if len(src) < 4 {
		return nil, errTruncated
	}
	n := binary.LittleEndian.Uint32(src)
	src = src[4:]
	var m map[K]int64
	if n > 0 {
		m = make(map[K]int64, n)
	}
	for ; n > 0; n-- {
		var c int64
		if src, err = readFixed(src, &v); err != nil {
			return nil, err
		}
		if src, err = readFixed(src, &c); err != nil {
			return nil, err
		}
		if c == 0 {
			return nil, fmt.Errorf("value with count 0 in MIN/MAX state")
		}
		m[a.key(v)] = c
	}
	a.counts[g] = m
	return src, nil
}
