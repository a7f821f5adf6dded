package agg

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// distinctKey is how a distinct value is kept: integer-like values as int64, strings and
// binaries as string.
type distinctKey interface{ int64 | string }

// valueSet is a set of distinct values kept as a slice: values are appended (cheap on the hot
// path) and the slice is sorted and deduplicated when it has grown to twice its size at the
// last compaction, or when the set is read.
type valueSet[K distinctKey] struct {
	vals    []K
	compact int // len(vals) right after the last compaction
}

func (s *valueSet[K]) add(v K) {
	s.vals = append(s.vals, v)
	if len(s.vals) >= 2*s.compact+64 {
		s.normalize()
	}
}

// normalize sorts and deduplicates the values.
func (s *valueSet[K]) normalize() {
	if len(s.vals) == s.compact {
		return
	}
	slices.Sort(s.vals)
	s.vals = slices.Compact(s.vals)
	s.compact = len(s.vals)
}

// distinctAcc is COUNT(DISTINCT x) or SUM(DISTINCT x): the set of non-null values of each group
// (Flink keeps them in a MapView); COUNT is the set's size, SUM the sum of its values in the
// argument's type (wrapping as Java does; the order of an integer sum does not matter).
type distinctAcc[K distinctKey] struct {
	resultType
	sum   bool
	arg   catalog.Type
	sets  []valueSet[K]
	read  func(arrow.Array) func(r int) K
	bytes int // memory estimate per value
	// unmarked: encoded sets lack the kind byte (window state version 1).
	unmarked bool
}

// setUnmarked makes decoding expect sets without their kind byte (state version 1).
func (a *distinctAcc[K]) SetUnmarked(on bool) { a.unmarked = on }

// newDistinctAccumulator returns the Accumulator of a DISTINCT call, or why it cannot run
// natively.
func newDistinctAccumulator(c Call) (Accumulator, error) {
	k := c.Arg.Kind
	intLike := c.Arg.IsIntegral() || k == catalog.Date || k == catalog.Time || k == catalog.Boolean ||
		((k == catalog.Timestamp || k == catalog.TimestampLTZ) && c.Arg.Precision <= 6)
	switch {
	case c.Func == Count && intLike:
		return &distinctAcc[int64]{resultType: resultType{c.Result}, arg: c.Arg, read: int64Reader(c.Arg), bytes: 8}, nil
	case c.Func == Count && (c.Arg.IsString() || c.Arg.IsBinary()):
		return &distinctAcc[string]{resultType: resultType{c.Result}, arg: c.Arg, read: ownedStringReader, bytes: 24}, nil
	case c.Func == Count && (k == catalog.Float || k == catalog.Double):
		// Flink's view is keyed by the boxed value: Double#equals compares doubleToLongBits, so
		// every NaN is one value and 0.0 and -0.0 are two.
		return &distinctAcc[int64]{resultType: resultType{c.Result}, arg: c.Arg, read: floatBitsReader(k), bytes: 8}, nil
	case c.Func == Count && k == catalog.Decimal:
		// One scale per column: equal values have equal unscaled values.
		return &distinctAcc[string]{resultType: resultType{c.Result}, arg: c.Arg, read: decimalReader, bytes: 32}, nil
	case c.Func == Sum && c.Arg.IsIntegral() && c.Result.Equal(c.Arg.WithNullable(true)):
		return &distinctAcc[int64]{resultType: resultType{c.Result}, sum: true, arg: c.Arg, read: int64Reader(c.Arg), bytes: 8}, nil
	}
	return nil, fmt.Errorf("%s(DISTINCT %s) is not supported natively yet", c.Func, c.Arg)
}

// int64Reader reads integer-like values of type t as int64.
func int64Reader(t catalog.Type) func(arrow.Array) func(int) int64 {
	switch t.Kind {
	case catalog.Boolean:
		return func(a arrow.Array) func(int) int64 {
			b := a.(*array.Boolean)
			return func(r int) int64 {
				if b.Value(r) {
					return 1
				}
				return 0
			}
		}
	case catalog.TinyInt:
		return widen[int8]
	case catalog.SmallInt:
		return widen[int16]
	case catalog.Int, catalog.Date, catalog.Time:
		return widen[int32]
	}
	return widen[int64]
}

func widen[T ~int8 | ~int16 | ~int32 | ~int64](a arrow.Array) func(int) int64 {
	vals := column.Values[T](a)
	return func(r int) int64 { return int64(vals[r]) }
}

// floatBitsReader reads FLOAT or DOUBLE values as their canonical bits (Float#floatToIntBits,
// Double#doubleToLongBits: one NaN).
func floatBitsReader(k catalog.Kind) func(arrow.Array) func(int) int64 {
	if k == catalog.Float {
		return func(a arrow.Array) func(int) int64 {
			vals := column.Values[float32](a)
			return func(r int) int64 {
				if v := vals[r]; v != v {
					return 0x7fc00000
				}
				return int64(math.Float32bits(vals[r]))
			}
		}
	}
	return func(a arrow.Array) func(int) int64 {
		vals := column.Values[float64](a)
		return func(r int) int64 {
			if v := vals[r]; v != v {
				return 0x7ff8000000000000
			}
			return int64(math.Float64bits(vals[r]))
		}
	}
}

// decimalReader reads DECIMAL values as the 16 bytes of their unscaled values.
func decimalReader(a arrow.Array) func(int) string {
	vals := column.Values[decimal128.Num](a)
	return func(r int) string {
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], vals[r].LowBits())
		binary.LittleEndian.PutUint64(b[8:], uint64(vals[r].HighBits()))
		return string(b[:])
	}
}

// ownedStringReader reads strings and binaries copied out of the batch, for values kept past it
// (stringReader's share the batch's buffers, which are recycled).
func ownedStringReader(a arrow.Array) func(int) string {
	read := stringReader(a)
	return func(r int) string { return strings.Clone(read(r)) }
}

// stringReader reads strings and binaries sharing the batch's buffers.
func stringReader(a arrow.Array) func(int) string {
	switch s := a.(type) {
	case *array.String:
		return s.Value
	case *array.Binary:
		return func(r int) string { return string(s.Value(r)) }
	}
	return func(int) string { return "" }
}

func (a *distinctAcc[K]) Grow(n int)        { a.sets = grown(a.sets, n) }
func (a *distinctAcc[K]) Reset(g int32)     { a.sets[g] = valueSet[K]{vals: a.sets[g].vals[:0]} }
func (a *distinctAcc[K]) Count(int32) int64 { return 0 }

func (a *distinctAcc[K]) add(g int32, v K) { a.sets[g].add(v) }

// set returns group g's values, sorted and without duplicates.
func (a *distinctAcc[K]) set(g int32) []K {
	a.sets[g].normalize()
	return a.sets[g].vals
}

func (a *distinctAcc[K]) Merge(d, s int32) {
	for _, v := range a.set(s) {
		a.add(d, v)
	}
}

func (a *distinctAcc[K]) Copy(d, s int32) {
	a.sets[d] = valueSet[K]{vals: append(a.sets[d].vals[:0], a.set(s)...)}
	a.sets[d].compact = len(a.sets[d].vals)
}

func (a *distinctAcc[K]) GroupBytes() int { return 48 }

func (a *distinctAcc[K]) Accumulate(arg arrow.Array, groups []int32) {
	read := a.read(arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.add(g, read(r))
		}
	}
}

func (a *distinctAcc[K]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	vals := make([]int64, len(groups))
	valid := make([]bool, len(groups))
	for i, g := range groups {
		set := a.set(g)
		if !a.sum {
			vals[i], valid[i] = int64(len(set)), true
			continue
		}
		var s int64
		for _, v := range set {
			s += any(v).(int64)
		}
		vals[i], valid[i] = s, len(set) > 0
	}
	switch a.typ.Kind {
	case catalog.TinyInt:
		return buildFixed(mem, a.typ, narrow[int8](vals), valid)
	case catalog.SmallInt:
		return buildFixed(mem, a.typ, narrow[int16](vals), valid)
	case catalog.Int:
		return buildFixed(mem, a.typ, narrow[int32](vals), valid)
	}
	if !a.sum {
		valid = nil // COUNT is never NULL
	}
	return buildFixed(mem, a.typ, vals, valid)
}

func narrow[T ~int8 | ~int16 | ~int32](vals []int64) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = T(v)
	}
	return out
}

// In a two-phase aggregation Flink's partial aggregate of a DISTINCT call is its running value
// (count or sum) plus, after every call's fields, one MapView per distinct argument. Sluice
// writes the running value, which the global phase ignores, and carries the set itself in the
// RAW column of the distinct view, in its own encoding: both phases are Sluice's, and Flink's
// exchange moves the row's bytes without reading them.
func (a *distinctAcc[K]) FieldTypes() []catalog.Type { return []catalog.Type{a.typ} }

func (a *distinctAcc[K]) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

// mergeFields ignores the running value: the set arrives in the distinct view (mergeSets).
func (a *distinctAcc[K]) MergeFields([]arrow.Array, []int32) {}

// mergeSets adds the values of each row's encoded set (a distinct view column) to group
// groups[r]; rows with a negative group are skipped. A view holds one set per FILTER of its
// calls; this call's set follows skip others.
func (a *distinctAcc[K]) MergeSets(col arrow.Array, groups []int32, skip int) error {
	views := col.(*array.Binary)
	for r, g := range groups {
		if g < 0 || views.IsNull(r) {
			continue
		}
		src := views.Value(r)
		var err error
		for i := 0; i < skip && err == nil; i++ {
			src, err = skipSet(src)
		}
		if err == nil {
			_, err = a.decodeInto(src, g)
		}
		if err != nil {
			return fmt.Errorf("distinct view of row %d: %w", r, err)
		}
	}
	return nil
}

// skipSet returns what follows an encoded set (of int64 or string values: a string is a
// length and bytes, an int64 8 bytes; the set's first value tells which when lengths agree).
func skipSet(src []byte) ([]byte, error) {
	if len(src) < 5 {
		return nil, errTruncated
	}
	kind, n, rest := src[0], binary.LittleEndian.Uint32(src[1:5]), src[5:]
	switch kind {
	case setOfInt64:
		if uint64(len(rest)) < 8*uint64(n) {
			return nil, errTruncated
		}
		return rest[8*n:], nil
	case setOfString:
		for i := uint32(0); i < n; i++ {
			l, r, err := readU32(rest)
			if err != nil {
				return nil, err
			}
			if uint32(len(r)) < l {
				return nil, errTruncated
			}
			rest = r[l:]
		}
		return rest, nil
	}
	return nil, fmt.Errorf("unknown set kind %d", kind)
}

// DistinctSets is implemented by the accumulators of DISTINCT calls.
type DistinctSets interface {
	MergeSets(col arrow.Array, groups []int32, skip int) error
}

// Kinds of encoded sets.
const (
	setOfInt64  byte = 1
	setOfString byte = 2
)

func (a *distinctAcc[K]) Encode(dst []byte, g int32) []byte {
	set := a.set(g)
	var k K
	if _, ok := any(k).(int64); ok {
		dst = append(dst, setOfInt64)
	} else {
		dst = append(dst, setOfString)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(set)))
	for _, v := range set {
		switch x := any(v).(type) {
		case int64:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(x))
		case string:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(x)))
			dst = append(dst, x...)
		}
	}
	return dst
}

func (a *distinctAcc[K]) Decode(src []byte, g int32) ([]byte, error) {
	a.Reset(g)
	return a.decodeInto(src, g)
}

// decodeInto adds the values of an encoded set to group g.
func (a *distinctAcc[K]) decodeInto(src []byte, g int32) ([]byte, error) {
	if !a.unmarked {
		if len(src) < 1 {
			return nil, errTruncated
		}
		var k K
		want := setOfString
		if _, ok := any(k).(int64); ok {
			want = setOfInt64
		}
		if src[0] != want {
			return nil, fmt.Errorf("a set of kind %d where kind %d belongs", src[0], want)
		}
		src = src[1:]
	}
	n, src, err := readU32(src)
	if err != nil {
		return nil, err
	}
	for i := uint32(0); i < n; i++ {
		var v K
		switch p := any(&v).(type) {
		case *int64:
			if len(src) < 8 {
				return nil, errTruncated
			}
			*p, src = int64(binary.LittleEndian.Uint64(src)), src[8:]
		case *string:
			var l uint32
			if l, src, err = readU32(src); err != nil {
				return nil, err
			}
			if uint32(len(src)) < l {
				return nil, errTruncated
			}
			*p, src = string(src[:l]), src[l:]
		}
		a.add(g, v)
	}
	return src, nil
}
