// Package agg holds the aggregate calls Sluice runs natively and their accumulators: one
// accumulator per call holds the state of every group (window slice, or key), indexed by slot,
// with Flink's accumulate / merge / getValue semantics, typed column loops and state encodings.
// The window operator (exec/window) and the group aggregation (GroupAggregate) share them.
package agg

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// FuncKind is an aggregate function.
type FuncKind int

// Aggregate functions that run natively.
const (
	CountStar FuncKind = iota
	Count
	Sum
	Min
	Max
	Avg
	FirstValue
	LastValue
	// Sum0 is Calcite's $SUM0: SUM that starts at 0 instead of NULL (Flink's Sum0AggFunction).
	Sum0
)

var funcNames = [...]string{"COUNT(*)", "COUNT", "SUM", "MIN", "MAX", "AVG", "FIRST_VALUE", "LAST_VALUE", "$SUM0"}

func (k FuncKind) String() string { return funcNames[k] }

// Call is one aggregate call: the function, its argument's type (unused for COUNT(*)) and its
// result type, both as Flink derives them, and whether it aggregates distinct values.
type Call struct {
	Func     FuncKind
	Arg      catalog.Type
	Result   catalog.Type
	Distinct bool
	// Filtered marks a call with a FILTER clause.
	Filtered bool
	// FilterArg identifies the call's FILTER (the input field Flink's plan names, the same in
	// both phases of a two-phase aggregation; -1 for none): DISTINCT calls of one view with
	// different filters keep different sets.
	FilterArg int
	// DistinctGroup numbers the DISTINCT calls that share one set of values (the same
	// argument), in order of first appearance, as Flink numbers its distinct views
	// (distinct$0, distinct$1, ...); -1 for other calls.
	DistinctGroup int
	// Retract marks a call of a group aggregation that consumes retractions (Flink's
	// aggCallNeedRetractions): its accumulator is a Retractor (NewRetractor). A MIN or MAX
	// over input with retractions that does not (its argument only grows, or only shrinks, as
	// Flink's planner derives) ignores them, as Flink's MinAggFunction does.
	Retract bool
}

// GroupAccumulator holds one aggregate's accumulators for every group, indexed by group id:
// what a group aggregation needs of them (accumulate, getValue, state).
type GroupAccumulator interface {
	// Grow makes room for group ids below n.
	Grow(n int)
	// Reset sets group g to the function's initial accumulator.
	Reset(g int32)
	// Accumulate adds row r of arg to group groups[r]; rows with a negative group are skipped.
	// arg is nil for COUNT(*).
	Accumulate(arg arrow.Array, groups []int32)
	// Result returns the function's value for each group, in order.
	Result(mem memory.Allocator, groups []int32) (arrow.Array, error)
	// GroupBytes is the memory one group's accumulator takes.
	GroupBytes() int
	// Encode appends group g's accumulator to dst.
	Encode(dst []byte, g int32) []byte
	// Decode reads group g's accumulator from src and returns the rest.
	Decode(src []byte, g int32) ([]byte, error)
}

// Accumulator holds one aggregate's accumulators for every group, indexed by group id, with
// Flink's accumulate / merge / getValue semantics (the DeclarativeAggregateFunctions of
// flink-table-planner: CountAggFunction, Count1AggFunction, SumAggFunction, MaxAggFunction,
// MinAggFunction, AvgAggFunction).
type Accumulator interface {
	GroupAccumulator
	// Merge merges group src into group dst.
	Merge(dst, src int32)
	// Copy makes group dst equal to group src.
	Copy(dst, src int32)
	// Count is the COUNT(*) of group g (only for COUNT(*)).
	Count(g int32) int64
	// FieldTypes are the Flink types of the accumulator's fields, as Flink's local aggregation
	// writes them (e.g. AVG(BIGINT): sum BIGINT, count BIGINT).
	FieldTypes() []catalog.Type
	// Fields returns the accumulator fields of each group, in order.
	Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error)
	// MergeFields merges the partial accumulators in cols (one column per field) of each row r
	// into group groups[r]; rows with a negative group are skipped.
	MergeFields(cols []arrow.Array, groups []int32)
}

// FieldCounter is an accumulator one of whose fields counts rows or values (a BIGINT): the
// field Flink's RecordCounter may read as a key's number of records.
type FieldCounter interface {
	// CountField is the index of the count among the accumulator's fields.
	CountField() int
	// FieldCount is the count of group g.
	FieldCount(g int32) int64
}

// CountField is COUNT's only field.
func (a *countAcc) CountField() int { return 0 }

// FieldCount is the count.
func (a *countAcc) FieldCount(g int32) int64 { return a.n[g] }

// CountField is AVG's count, after its sum.
func (a *avgIntAcc[T]) CountField() int { return 1 }

// FieldCount is the number of values averaged.
func (a *avgIntAcc[T]) FieldCount(g int32) int64 { return a.cnt[g] }

// CountField is AVG's count, after its sum.
func (a *avgFloatAcc[T]) CountField() int { return 1 }

// FieldCount is the number of values averaged.
func (a *avgFloatAcc[T]) FieldCount(g int32) int64 { return a.cnt[g] }

// NewAccumulator returns the Accumulator of a call, or an error saying why it cannot run
// natively.
func NewAccumulator(c Call) (Accumulator, error) {
	if c.Distinct {
		switch c.Func {
		case Min, Max:
			c.Distinct = false // the same values either way (TUMBLE only: see New)
		default:
			return newDistinctAccumulator(c)
		}
	}
	if c.Func == CountStar || c.Func == Count {
		return &countAcc{star: c.Func == CountStar}, nil
	}
	if c.Arg.Kind == catalog.Decimal {
		return decimalAccumulator(c)
	}
	if c.Arg.IsString() || c.Arg.IsBinary() {
		return newBytesAccumulator(c)
	}
	if c.Arg.Kind == catalog.Boolean && c.Func != Count && c.Func != CountStar {
		return newBoolAccumulator(c)
	}
	if c.Func == Sum0 {
		// Flink's Sum0AggFunction: the argument's own type, never NULL.
		if !c.Result.WithNullable(true).Equal(c.Arg.WithNullable(true)) {
			return nil, fmt.Errorf("%s(%s) returning %s is not supported natively", c.Func, c.Arg, c.Result)
		}
		acc := pickNumeric(c.Arg.Kind, &sum0Acc[int8]{}, &sum0Acc[int16]{}, &sum0Acc[int32]{}, &sum0Acc[int64]{}, &sum0Acc[float32]{}, &sum0Acc[float64]{})
		if acc == nil {
			return nil, fmt.Errorf("%s(%s) is not supported natively", c.Func, c.Arg)
		}
		acc.setType(c.Result)
		return acc, nil
	}
	// The result is the argument's type, nullable (an empty group, a filter), or NOT NULL
	// like a NOT NULL argument where Flink's planner knows every group has a row.
	if !c.Result.Equal(c.Arg.WithNullable(true)) && (c.Arg.Nullable || !c.Result.Equal(c.Arg)) {
		return nil, fmt.Errorf("%s(%s) returning %s is not supported natively", c.Func, c.Arg, c.Result)
	}
	var acc typedAccumulator
	k := c.Arg.Kind
	switch c.Func {
	case Sum:
		acc = pickNumeric(k, &sumAcc[int8]{}, &sumAcc[int16]{}, &sumAcc[int32]{}, &sumAcc[int64]{}, &sumAcc[float32]{}, &sumAcc[float64]{})
	case Avg:
		acc = pickNumeric(k, &avgIntAcc[int8]{}, &avgIntAcc[int16]{}, &avgIntAcc[int32]{}, &avgIntAcc[int64]{}, &avgFloatAcc[float32]{}, &avgFloatAcc[float64]{})
	case FirstValue, LastValue:
		last := c.Func == LastValue
		switch {
		case k == catalog.Date || k == catalog.Time:
			acc = &pickAcc[int32]{last: last}
		case (k == catalog.Timestamp || k == catalog.TimestampLTZ) && c.Arg.Precision <= 3:
			acc = &pickAcc[int64]{last: last}
		default:
			acc = pickNumeric(k, &pickAcc[int8]{last: last}, &pickAcc[int16]{last: last}, &pickAcc[int32]{last: last},
				&pickAcc[int64]{last: last}, &pickAcc[float32]{last: last}, &pickAcc[float64]{last: last})
		}
	case Min, Max:
		max := c.Func == Max
		switch {
		case k == catalog.Date || k == catalog.Time:
			acc = &extremeAcc[int32]{max: max}
		case (k == catalog.Timestamp || k == catalog.TimestampLTZ) && c.Arg.Precision <= 6:
			// Milliseconds or microseconds (catalog.ArrowType): ordered as TimestampData.
			acc = &extremeAcc[int64]{max: max}
		case c.Arg.IsNanoTimestamp():
			acc = &nanoExtremeAcc{max: max}
		default:
			acc = pickNumeric(k, &extremeAcc[int8]{max: max}, &extremeAcc[int16]{max: max}, &extremeAcc[int32]{max: max},
				&extremeAcc[int64]{max: max}, &extremeAcc[float32]{max: max}, &extremeAcc[float64]{max: max})
		}
	}
	if acc == nil {
		return nil, fmt.Errorf("%s(%s) is not supported natively", c.Func, c.Arg)
	}
	acc.setType(c.Result)
	return acc, nil
}

// typedAccumulator is an Accumulator whose result type is set after construction.
type typedAccumulator interface {
	Accumulator
	setType(catalog.Type)
}

// resultType is the Flink result type of an Accumulator's values.
type resultType struct{ typ catalog.Type }

func (r *resultType) setType(t catalog.Type) { r.typ = t }

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

func grown[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

// fixedValue is every Accumulator value type stored as its raw bytes.
type fixedValue interface {
	number | bool | decimal128.Num
}

// appendFixed appends v's bytes in native (little-endian) order.
func appendFixed[T fixedValue](dst []byte, v T) []byte {
	return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))...)
}

// readFixed reads one value written by appendFixed.
func readFixed[T fixedValue](src []byte, v *T) ([]byte, error) {
	n := int(unsafe.Sizeof(*v))
	if len(src) < n {
		return nil, errTruncated
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(v)), n), src[:n])
	return src[n:], nil
}

// buildFixed builds an array of Flink type t from one value per group and validity flags
// (valid nil: all valid).
func buildFixed[T any](mem memory.Allocator, t catalog.Type, vals []T, valid []bool) (arrow.Array, error) {
	dt, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	buf, out := column.NewValues[T](mem, len(vals))
	copy(out, vals)
	var bits *memory.Buffer
	if valid != nil {
		bits = column.NewBitmap(mem, len(vals))
		b := bits.Bytes()
		for i, ok := range valid {
			if ok {
				bitutil.SetBit(b, i)
			} else {
				var zero T
				out[i] = zero
			}
		}
	}
	return column.MakeArray(dt, len(vals), bits, buf), nil
}

// countAcc is COUNT(*) (Count1AggFunction) and COUNT(x) (CountAggFunction): BIGINT NOT NULL.
type countAcc struct {
	star bool
	n    []int64
}

func (a *countAcc) Grow(n int)          { a.n = grown(a.n, n) }
func (a *countAcc) Reset(g int32)       { a.n[g] = 0 }
func (a *countAcc) Merge(d, s int32)    { a.n[d] += a.n[s] }
func (a *countAcc) Copy(d, s int32)     { a.n[d] = a.n[s] }
func (a *countAcc) Count(g int32) int64 { return a.n[g] }

func (a *countAcc) Accumulate(arg arrow.Array, groups []int32) {
	if a.star || arg.NullN() == 0 {
		for _, g := range groups {
			if g >= 0 {
				a.n[g]++
			}
		}
		return
	}
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && bitutil.BitIsSet(bits, off+r) {
			a.n[g]++
		}
	}
}

func (a *countAcc) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals := make([]int64, len(groups))
	for i, g := range groups {
		vals[i] = a.n[g]
	}
	return buildFixed(mem, catalog.BigIntType(false), vals, nil)
}

func (a *countAcc) Encode(dst []byte, g int32) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(a.n[g]))
}

func (a *countAcc) Decode(src []byte, g int32) ([]byte, error) { return readFixed(src, &a.n[g]) }

// nullableValue is the state of accumulators that hold one value per group, NULL until set:
// SUM, MIN, MAX, FIRST_VALUE, LAST_VALUE. The value is also the result and the only field of
// the partial aggregate.
type nullableValue[T fixedValue] struct {
	resultType
	val []T
	has []bool
}

func (a *nullableValue[T]) Grow(n int)        { a.val, a.has = grown(a.val, n), grown(a.has, n) }
func (a *nullableValue[T]) Count(int32) int64 { return 0 }
func (a *nullableValue[T]) Copy(d, s int32)   { a.val[d], a.has[d] = a.val[s], a.has[s] }
func (a *nullableValue[T]) GroupBytes() int   { return int(unsafe.Sizeof(a.val[0:1][0])) + 1 }

func (a *nullableValue[T]) Reset(g int32) {
	var zero T
	a.val[g], a.has[g] = zero, false
}

func (a *nullableValue[T]) FieldTypes() []catalog.Type {
	return []catalog.Type{a.typ.WithNullable(true)}
}

func (a *nullableValue[T]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]T, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		vals[i], valid[i] = a.val[g], a.has[g]
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func (a *nullableValue[T]) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

func (a *nullableValue[T]) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(dst, a.has[g]), a.val[g])
}

func (a *nullableValue[T]) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.has[g])
	if err != nil {
		return nil, err
	}
	return readFixed(src, &a.val[g])
}

// sumAcc is SUM over one numeric type: null until a non-null value arrives, then the sum in the
// argument's own type (wrapping on overflow, as Java arithmetic does).
type sumAcc[T number] struct{ nullableValue[T] }

func (a *sumAcc[T]) Merge(d, s int32) {
	switch {
	case !a.has[s]:
	case !a.has[d]:
		a.val[d], a.has[d] = a.val[s], true
	default:
		a.val[d] += a.val[s]
	}
}

func (a *sumAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		if a.has[g] {
			a.val[g] += vals[r]
		} else {
			a.val[g], a.has[g] = vals[r], true
		}
	}
}

// mergeFields merges partial sums: the same as accumulating them.
func (a *sumAcc[T]) MergeFields(cols []arrow.Array, groups []int32) { a.Accumulate(cols[0], groups) }

// sum0Acc is $SUM0 over one numeric type: SUM that starts at 0 (its Accumulator is never NULL,
// so accumulating and merging only add).
type sum0Acc[T number] struct{ sumAcc[T] }

func (a *sum0Acc[T]) Reset(g int32) {
	var zero T
	a.val[g], a.has[g] = zero, true
}

// extremeAcc is MIN or MAX: a value replaces the current one when it compares greater (MAX) or
// less (MIN) with Java's primitive comparison, so NaN never replaces a value.
type extremeAcc[T number] struct {
	nullableValue[T]
	max bool
}

func (a *extremeAcc[T]) better(v, cur T) bool {
	if a.max {
		return v > cur
	}
	return v < cur
}

func (a *extremeAcc[T]) Merge(d, s int32) {
	switch {
	case !a.has[s]:
	case !a.has[d] || a.better(a.val[s], a.val[d]):
		a.val[d], a.has[d] = a.val[s], true
	}
}

func (a *extremeAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		if !a.has[g] || a.better(vals[r], a.val[g]) {
			a.val[g], a.has[g] = vals[r], true
		}
	}
}

// mergeFields merges partial MIN/MAX values: the same as accumulating them.
func (a *extremeAcc[T]) MergeFields(cols []arrow.Array, groups []int32) {
	a.Accumulate(cols[0], groups)
}

// avgIntAcc is AVG over an integer type: a BIGINT sum and count; the value is sum / count
// (truncating) narrowed to the argument type, or null for no values.
type avgIntAcc[T ~int8 | ~int16 | ~int32 | ~int64] struct {
	resultType
	sum, cnt []int64
}

func (a *avgIntAcc[T]) Grow(n int)        { a.sum, a.cnt = grown(a.sum, n), grown(a.cnt, n) }
func (a *avgIntAcc[T]) Reset(g int32)     { a.sum[g], a.cnt[g] = 0, 0 }
func (a *avgIntAcc[T]) Count(int32) int64 { return 0 }
func (a *avgIntAcc[T]) Merge(d, s int32)  { a.sum[d] += a.sum[s]; a.cnt[d] += a.cnt[s] }
func (a *avgIntAcc[T]) Copy(d, s int32)   { a.sum[d], a.cnt[d] = a.sum[s], a.cnt[s] }

func (a *avgIntAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.sum[g] += int64(vals[r])
			a.cnt[g]++
		}
	}
}

func (a *avgIntAcc[T]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]T, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		if a.cnt[g] != 0 {
			vals[i], valid[i] = T(a.sum[g]/a.cnt[g]), true
		}
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func (a *avgIntAcc[T]) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(dst, a.sum[g]), a.cnt[g])
}

func (a *avgIntAcc[T]) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.sum[g])
	if err != nil {
		return nil, err
	}
	return readFixed(src, &a.cnt[g])
}

// avgFloatAcc is AVG over FLOAT or DOUBLE: a DOUBLE sum starting at 0.0 and a count; the value
// is sum / count narrowed to the argument type, or null for no values.
type avgFloatAcc[T ~float32 | ~float64] struct {
	resultType
	sum []float64
	cnt []int64
}

func (a *avgFloatAcc[T]) Grow(n int)        { a.sum, a.cnt = grown(a.sum, n), grown(a.cnt, n) }
func (a *avgFloatAcc[T]) Reset(g int32)     { a.sum[g], a.cnt[g] = 0, 0 }
func (a *avgFloatAcc[T]) Count(int32) int64 { return 0 }
func (a *avgFloatAcc[T]) Merge(d, s int32)  { a.sum[d] += a.sum[s]; a.cnt[d] += a.cnt[s] }
func (a *avgFloatAcc[T]) Copy(d, s int32)   { a.sum[d], a.cnt[d] = a.sum[s], a.cnt[s] }

func (a *avgFloatAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.sum[g] += float64(vals[r])
			a.cnt[g]++
		}
	}
}

func (a *avgFloatAcc[T]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals, valid := make([]T, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		if a.cnt[g] != 0 {
			vals[i], valid[i] = T(a.sum[g]/float64(a.cnt[g])), true
		}
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func (a *avgFloatAcc[T]) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(dst, a.sum[g]), a.cnt[g])
}

func (a *avgFloatAcc[T]) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.sum[g])
	if err != nil {
		return nil, err
	}
	return readFixed(src, &a.cnt[g])
}

// --- Accumulator fields, for two-phase aggregation ---

func (a *countAcc) FieldTypes() []catalog.Type { return []catalog.Type{catalog.BigIntType(true)} }

func (a *countAcc) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

func (a *countAcc) MergeFields(cols []arrow.Array, groups []int32) {
	vals := column.Values[int64](cols[0])
	for r, g := range groups {
		if g >= 0 {
			a.n[g] += vals[r]
		}
	}
}

func (a *avgIntAcc[T]) FieldTypes() []catalog.Type {
	return []catalog.Type{catalog.BigIntType(true), catalog.BigIntType(true)}
}

func (a *avgIntAcc[T]) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	return sumCountFields(mem, a.sum, a.cnt, groups, catalog.BigIntType(true))
}

func (a *avgIntAcc[T]) MergeFields(cols []arrow.Array, groups []int32) {
	sums, cnts := column.Values[int64](cols[0]), column.Values[int64](cols[1])
	for r, g := range groups {
		if g >= 0 {
			a.sum[g] += sums[r]
			a.cnt[g] += cnts[r]
		}
	}
}

func (a *avgFloatAcc[T]) FieldTypes() []catalog.Type {
	return []catalog.Type{catalog.DoubleType(true), catalog.BigIntType(true)}
}

func (a *avgFloatAcc[T]) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	return sumCountFields(mem, a.sum, a.cnt, groups, catalog.DoubleType(true))
}

func (a *avgFloatAcc[T]) MergeFields(cols []arrow.Array, groups []int32) {
	sums, cnts := column.Values[float64](cols[0]), column.Values[int64](cols[1])
	for r, g := range groups {
		if g >= 0 {
			a.sum[g] += sums[r]
			a.cnt[g] += cnts[r]
		}
	}
}

// sumCountFields builds AVG's (sum, count) Accumulator columns.
func sumCountFields[S int64 | float64](mem memory.Allocator, sum []S, cnt []int64, groups []int32, sumType catalog.Type) ([]arrow.Array, error) {
	s, c := make([]S, len(groups)), make([]int64, len(groups))
	for i, g := range groups {
		s[i], c[i] = sum[g], cnt[g]
	}
	sa, err := buildFixed(mem, sumType, s, nil)
	if err != nil {
		return nil, err
	}
	ca, err := buildFixed(mem, catalog.BigIntType(true), c, nil)
	if err != nil {
		sa.Release()
		return nil, err
	}
	return []arrow.Array{sa, ca}, nil
}

func (a *countAcc) GroupBytes() int       { return 8 }
func (a *avgIntAcc[T]) GroupBytes() int   { return 16 }
func (a *avgFloatAcc[T]) GroupBytes() int { return 16 }

// pickAcc is FIRST_VALUE (the first non-null value in arrival order, FirstValueAggFunction) or
// LAST_VALUE (the last non-null value, LastValueAggFunction). Flink cannot merge them: they
// run in one phase on windows that need no merging (TUMBLE).
type pickAcc[T number] struct {
	nullableValue[T]
	last bool
}

// merge takes the other Accumulator's value as a later (LAST_VALUE) or earlier (never used:
// FIRST_VALUE is not merged) arrival would.
func (a *pickAcc[T]) Merge(d, s int32) {
	if a.has[s] && (a.last || !a.has[d]) {
		a.val[d], a.has[d] = a.val[s], true
	}
}

func (a *pickAcc[T]) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[T](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) && (a.last || !a.has[g]) {
			a.val[g], a.has[g] = vals[r], true
		}
	}
}

func (a *pickAcc[T]) MergeFields(cols []arrow.Array, groups []int32) { a.Accumulate(cols[0], groups) }

// --- DECIMAL ---

// decimalAccumulator returns the Accumulator of SUM, MIN or MAX over a DECIMAL: SUM adds in
// DECIMAL(38, s) (Flink's sum type) and becomes NULL when a sum overflows 38 digits, after which
// the next value starts it again, as Flink's generated code does; MIN and MAX compare values.
func decimalAccumulator(c Call) (Accumulator, error) {
	switch c.Func {
	case Sum:
		if c.Result.Kind != catalog.Decimal || c.Result.Precision != 38 || c.Result.Scale != c.Arg.Scale {
			return nil, fmt.Errorf("SUM(%s) returning %s is not supported natively", c.Arg, c.Result)
		}
		a := &decimalAcc{fn: Sum}
		a.setType(c.Result)
		return a, nil
	case Avg:
		return newAvgDecimal(c.Arg, c.Result)
	case Min, Max:
		if !c.Result.Equal(c.Arg.WithNullable(true)) {
			return nil, fmt.Errorf("%s(%s) returning %s is not supported natively", c.Func, c.Arg, c.Result)
		}
		a := &decimalAcc{fn: c.Func}
		a.setType(c.Result)
		return a, nil
	}
	return nil, fmt.Errorf("%s(%s) is not supported natively yet", c.Func, c.Arg)
}

// addDecimal38 adds two unscaled values of at most 38 digits; ok is false when the sum has more.
func addDecimal38(a, b decimal128.Num) (decimal128.Num, bool) {
	sum := a.Add(b)
	if a.Sign() == b.Sign() && a.Sign() != 0 && sum.Sign() != a.Sign() {
		return sum, false // 128-bit overflow
	}
	return sum, sum.FitsInPrecision(38)
}

// decimalAcc is SUM, MIN or MAX over a DECIMAL (one scale for values and result).
type decimalAcc struct {
	nullableValue[decimal128.Num]
	fn FuncKind
}

// step is one value's effect. SUM is Flink's IF(v IS NULL, sum, IF(sum IS NULL, v, sum + v))
// with sum + v NULL on overflow; MIN and MAX keep the lesser or greater value.
func (a *decimalAcc) step(g int32, v decimal128.Num, valid bool) {
	switch {
	case !valid:
	case !a.has[g]:
		a.val[g], a.has[g] = v, true
	case a.fn == Sum:
		a.val[g], a.has[g] = addDecimal38(a.val[g], v)
	case (a.fn == Max && v.Greater(a.val[g])) || (a.fn == Min && v.Less(a.val[g])):
		a.val[g] = v
	}
}

func (a *decimalAcc) Merge(d, s int32) { a.step(d, a.val[s], a.has[s]) }

func (a *decimalAcc) Accumulate(arg arrow.Array, groups []int32) {
	vals := column.Values[decimal128.Num](arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 {
			a.step(g, vals[r], column.Valid(bits, off, r))
		}
	}
}

// mergeFields merges partial values: the same as accumulating them.
func (a *decimalAcc) MergeFields(cols []arrow.Array, groups []int32) { a.Accumulate(cols[0], groups) }

// pickNumeric picks the Accumulator for a numeric argument kind, or nil.
func pickNumeric(k catalog.Kind, i8, i16, i32, i64, f32, f64 typedAccumulator) typedAccumulator {
	acc, _ := catalog.Numeric(k, i8, i16, i32, i64, f32, f64)
	return acc
}
