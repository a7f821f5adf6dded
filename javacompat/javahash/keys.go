package javahash

import (
	"bytes"
	"cmp"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Keys is a column of keys seen as the Java objects Flink's generated code boxes them into
// (CodeGenUtils#boxedTypeTermForType): their hash codes, equality and natural order, which is
// what java.util.HashMap asks of its keys. A NULL key is Java's null: hash code 0, equal only
// to null, and not comparable.
type Keys interface {
	// Codes writes hashCode() of every key into codes (len(codes) is the column's length).
	Codes(codes []int32)
	// Equal is keys[i].equals(keys[j]), with nulls equal to each other only.
	Equal(i, j int) bool
	// Compare is HashMap#compareComparables of keys[i] and keys[j]: their compareTo when both
	// are non-null objects of a class that implements Comparable of itself; ok is false
	// otherwise (BinaryStringData implements Comparable<StringData>, which HashMap does not
	// take), and HashMap then breaks the tie by identity hash codes.
	Compare(i, j int) (c int, ok bool)
	// IsNull tells whether key i is NULL.
	IsNull(i int) bool
}

// KeysSupported tells whether NewKeys takes keys of type t, and if not, why.
func KeysSupported(t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
		catalog.Float, catalog.Double, catalog.Decimal, catalog.Char, catalog.VarChar,
		catalog.Date, catalog.Time, catalog.Timestamp, catalog.TimestampLTZ,
		catalog.IntervalYearMonth, catalog.IntervalDayTime:
		return nil
	case catalog.Binary, catalog.VarBinary:
		return fmt.Errorf("%s keys are Java byte arrays, whose hash codes (and so a HashMap's order) are identity hash codes that differ from run to run", t)
	}
	return fmt.Errorf("the hash codes of %s keys are not reproduced", t)
}

// NewKeys reads the keys of column a, of type t (see KeysSupported).
func NewKeys(a arrow.Array, t catalog.Type) (Keys, error) {
	if err := KeysSupported(t); err != nil {
		return nil, err
	}
	n := nulls{a}
	switch t.Kind {
	case catalog.Boolean:
		return boolKeys{n, a.(*array.Boolean)}, nil
	case catalog.TinyInt:
		return intKeys[int8]{n, values[int8](a)}, nil
	case catalog.SmallInt:
		return intKeys[int16]{n, values[int16](a)}, nil
	case catalog.Int, catalog.Date, catalog.Time, catalog.IntervalYearMonth:
		return intKeys[int32]{n, values[int32](a)}, nil
	case catalog.BigInt, catalog.IntervalDayTime:
		return longKeys{n, values[int64](a)}, nil
	case catalog.Float:
		return floatKeys{n, values[float32](a)}, nil
	case catalog.Double:
		return doubleKeys{n, values[float64](a)}, nil
	case catalog.Decimal:
		return decimalKeys{n, values[decimal128.Num](a), int32(t.Scale)}, nil
	case catalog.Char, catalog.VarChar:
		return stringKeys{n, a.(*array.String)}, nil
	default: // Timestamp, TimestampLTZ
		return timestampKeys{n, column.ReadTimestamps(a)}, nil
	}
}

// values are the values of a fixed-width column, zeros where it has no data buffer (a column of
// NULLs only may come without one).
func values[T any](a arrow.Array) []T {
	if v := column.Values[T](a); len(v) >= a.Len() {
		return v
	}
	return make([]T, a.Len())
}

// nulls answers the null side of Keys: a NULL key hashes to 0 and equals only NULL.
type nulls struct{ a arrow.Array }

func (n nulls) IsNull(i int) bool { return n.a.IsNull(i) }

// both reports whether keys i and j are both non-null, and if not, whether they are equal.
func (n nulls) both(i, j int) (both, equal bool) {
	ni, nj := n.a.IsNull(i), n.a.IsNull(j)
	return !ni && !nj, ni && nj
}

// zero sets the hash codes of the NULL keys to 0, after the value loop hashed every slot.
func (n nulls) zero(out []int32) {
	if n.a.NullN() == 0 {
		return
	}
	for i := range out {
		if n.a.IsNull(i) {
			out[i] = 0
		}
	}
}

// intKeys are Byte, Short and Integer keys (INT, DATE, TIME, INTERVAL YEAR TO MONTH): the
// value is the hash code.
type intKeys[T int8 | int16 | int32] struct {
	nulls
	v []T
}

func (k intKeys[T]) Codes(out []int32) {
	for i, v := range k.v[:len(out)] {
		out[i] = int32(v)
	}
	k.zero(out)
}

func (k intKeys[T]) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return k.v[i] == k.v[j]
}

func (k intKeys[T]) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	return cmp.Compare(k.v[i], k.v[j]), true
}

// longKeys are Long keys (BIGINT, INTERVAL DAY TO SECOND): Long#hashCode folds the halves.
type longKeys struct {
	nulls
	v []int64
}

func longHash(v int64) int32 { return int32(v ^ int64(uint64(v)>>32)) }

func (k longKeys) Codes(out []int32) {
	for i, v := range k.v[:len(out)] {
		out[i] = longHash(v)
	}
	k.zero(out)
}

func (k longKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return k.v[i] == k.v[j]
}

func (k longKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	return cmp.Compare(k.v[i], k.v[j]), true
}

// floatBits is Float#floatToIntBits: every NaN is 0x7fc00000.
func floatBits(v float32) int32 {
	if v != v {
		return 0x7fc00000
	}
	return int32(math.Float32bits(v))
}

// doubleBits is Double#doubleToLongBits: every NaN is 0x7ff8000000000000.
func doubleBits(v float64) int64 {
	if v != v {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(v))
}

// javaFloatCompare is Float#compare and Double#compare: -0.0 below 0.0, NaN above everything
// and equal to itself.
func javaFloatCompare[T float32 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	// Equal numbers: only the zeros differ by sign.
	as, bs := math.Signbit(float64(a)), math.Signbit(float64(b))
	switch {
	case as == bs:
		return 0
	case as:
		return -1
	}
	return 1
}

// floatKeys are Float keys: hash code and equality by floatToIntBits (NaN equals NaN, -0.0 is
// not 0.0).
type floatKeys struct {
	nulls
	v []float32
}

func (k floatKeys) Codes(out []int32) {
	for i, v := range k.v[:len(out)] {
		out[i] = floatBits(v)
	}
	k.zero(out)
}

func (k floatKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return floatBits(k.v[i]) == floatBits(k.v[j])
}

func (k floatKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	return javaFloatCompare(k.v[i], k.v[j]), true
}

// doubleKeys are Double keys: Double#hashCode folds doubleToLongBits' halves.
type doubleKeys struct {
	nulls
	v []float64
}

func (k doubleKeys) Codes(out []int32) {
	for i, v := range k.v[:len(out)] {
		out[i] = longHash(doubleBits(v))
	}
	k.zero(out)
}

func (k doubleKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return doubleBits(k.v[i]) == doubleBits(k.v[j])
}

func (k doubleKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	return javaFloatCompare(k.v[i], k.v[j]), true
}

// decimalKeys are DecimalData keys of one scale: DecimalData#hashCode is its BigDecimal's,
// 31 * the unscaled BigInteger's hash code (its magnitude's 32-bit words folded by 31, times
// the sign) + the scale; equality and order are numeric.
type decimalKeys struct {
	nulls
	v     []decimal128.Num
	scale int32
}

func decimalHash(v decimal128.Num, scale int32) int32 {
	neg := v.Sign() < 0
	if neg {
		v = v.Negate()
	}
	hi, lo := v.HighBits(), v.LowBits()
	var h uint32
	for _, w := range [4]uint32{uint32(uint64(hi) >> 32), uint32(hi), uint32(lo >> 32), uint32(lo)} {
		h = 31*h + w
	}
	if neg {
		h = -h
	}
	return 31*int32(h) + scale
}

func (k decimalKeys) Codes(out []int32) {
	for i, v := range k.v[:len(out)] {
		out[i] = decimalHash(v, k.scale)
	}
	k.zero(out)
}

func (k decimalKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return k.v[i] == k.v[j]
}

func (k decimalKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	return k.v[i].Cmp(k.v[j]), true
}

// stringKeys are BinaryStringData keys: the hash code is Murmur3 of the UTF-8 bytes, equality
// bytewise, and HashMap finds no natural order (see Keys.Compare).
type stringKeys struct {
	nulls
	s *array.String
}

func (k stringKeys) Codes(out []int32) {
	off, data := k.s.ValueOffsets(), k.s.ValueBytes()
	for i := range out {
		out[i] = Bytes(data[off[i]-off[0] : off[i+1]-off[0]])
	}
	k.zero(out)
}

func (k stringKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return bytes.Equal(k.bytes(i), k.bytes(j))
}

func (k stringKeys) bytes(i int) []byte {
	off := k.s.ValueOffsets()
	return k.s.ValueBytes()[off[i]-off[0] : off[i+1]-off[0]]
}

func (k stringKeys) Compare(int, int) (int, bool) { return 0, false }

// timestampKeys are TimestampData keys (TIMESTAMP and TIMESTAMP_LTZ of every precision): the
// hash code folds the millisecond's halves, times 31, plus the nanoseconds of the millisecond.
type timestampKeys struct {
	nulls
	ts column.Timestamps
}

func (k timestampKeys) Codes(out []int32) {
	for i := range out {
		out[i] = 0
		if k.a.IsValid(i) {
			ms, nanos := k.ts.At(i)
			out[i] = 31*longHash(ms) + int32(nanos)
		}
	}
}

func (k timestampKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	mi, ni := k.ts.At(i)
	mj, nj := k.ts.At(j)
	return mi == mj && ni == nj
}

func (k timestampKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	mi, ni := k.ts.At(i)
	mj, nj := k.ts.At(j)
	if c := cmp.Compare(mi, mj); c != 0 {
		return c, true
	}
	return cmp.Compare(ni, nj), true
}

// boolKeys are Boolean keys: hash codes 1231 (true) and 1237 (false), false before true.
type boolKeys struct {
	nulls
	b *array.Boolean
}

func (k boolKeys) Codes(out []int32) {
	for i := range out {
		switch {
		case k.b.IsNull(i):
			out[i] = 0
		case k.b.Value(i):
			out[i] = 1231
		default:
			out[i] = 1237
		}
	}
}

func (k boolKeys) Equal(i, j int) bool {
	if both, eq := k.both(i, j); !both {
		return eq
	}
	return k.b.Value(i) == k.b.Value(j)
}

func (k boolKeys) Compare(i, j int) (int, bool) {
	if both, _ := k.both(i, j); !both {
		return 0, false
	}
	switch bi, bj := k.b.Value(i), k.b.Value(j); {
	case bi == bj:
		return 0, true
	case bi:
		return 1, true
	}
	return -1, true
}
