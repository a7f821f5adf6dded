package adbc

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/decimal"
)

// converter turns one column of a driver's result into the layout of the column's Flink type.
// The result is the caller's (released by it); the input stays the driver's.
type converter func(arrow.Array) (arrow.Array, error)

// converterFor returns how a driver's result column becomes a column of type t, with the value
// Flink's JDBC source reads from the same database column (AbstractDialectConverter), or an error
// when the driver's type cannot be read as t.
func converterFor(f arrow.Field, t catalog.Type) (converter, error) {
	want, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	got := f.Type
	if ext, ok := got.(arrow.ExtensionType); ok {
		got = ext.StorageType()
	}
	mismatch := func() (converter, error) {
		what := got.String()
		if pg, ok := f.Metadata.GetValue("POSTGRESQL:type"); ok {
			what = "PostgreSQL " + pg + " (" + what + ")"
		}
		return nil, fmt.Errorf("the database column is %s, which is not read as %s", what, t)
	}
	switch t.Kind {
	case catalog.SmallInt:
		return integers[int16](got, want, t, math.MinInt16, math.MaxInt16, mismatch)
	case catalog.Int:
		return integers[int32](got, want, t, math.MinInt32, math.MaxInt32, mismatch)
	case catalog.BigInt:
		return integers[int64](got, want, t, math.MinInt64, math.MaxInt64, mismatch)
	case catalog.Decimal:
		switch got.ID() {
		case arrow.STRING, arrow.LARGE_STRING:
			// PostgreSQL's numeric arrives as its text.
			return numericText(t), nil
		case arrow.DECIMAL128:
			return decimals(got.(*arrow.Decimal128Type), t), nil
		}
		return mismatch()
	case catalog.Char, catalog.VarChar:
		switch got.ID() {
		case arrow.STRING:
			return same, nil
		case arrow.LARGE_STRING:
			return narrow(want), nil
		}
		return mismatch()
	case catalog.Binary, catalog.VarBinary:
		switch got.ID() {
		case arrow.BINARY:
			return same, nil
		case arrow.LARGE_BINARY:
			return narrow(want), nil
		}
		return mismatch()
	case catalog.Time:
		if tt, ok := got.(*arrow.Time64Type); ok {
			return times(tt.Unit), nil
		}
		return mismatch()
	case catalog.Timestamp, catalog.TimestampLTZ:
		ts, ok := got.(*arrow.TimestampType)
		if !ok || (ts.TimeZone != "") != (t.Kind == catalog.TimestampLTZ) {
			return mismatch()
		}
		return timestamps(ts.Unit, want.(*arrow.TimestampType)), nil
	}
	if arrow.TypeEqual(got, want) {
		return same, nil
	}
	return mismatch()
}

func same(a arrow.Array) (arrow.Array, error) {
	a.Retain()
	return a, nil
}

// integer is the Go type of an integer column.
type integer interface{ ~int16 | ~int32 | ~int64 }

// integers converts integer columns of any width into T (of Arrow type want), failing on values
// out of its range (SQLite's integers are all 64-bit).
func integers[T integer](got, want arrow.DataType, t catalog.Type, lo, hi int64, mismatch func() (converter, error)) (converter, error) {
	if got.ID() == want.ID() {
		return same, nil
	}
	switch got.ID() {
	case arrow.INT16:
		return widen[int16, T](lo, hi, t), nil
	case arrow.INT32:
		return widen[int32, T](lo, hi, t), nil
	case arrow.INT64:
		return widen[int64, T](lo, hi, t), nil
	}
	return mismatch()
}

func widen[S, T integer](lo, hi int64, t catalog.Type) converter {
	return func(a arrow.Array) (arrow.Array, error) {
		vals := a.(interface{ Values() []S }).Values()
		out := make([]T, len(vals))
		for i, v := range vals {
			if a.IsValid(i) && (int64(v) < lo || int64(v) > hi) {
				return nil, fmt.Errorf("row %d: %d is out of the range of %s", i, v, t)
			}
			out[i] = T(v)
		}
		return fixedArray(a, out, t)
	}
}

// fixedArray builds a column of fixed-width values with a's validity.
func fixedArray[T arrow.FixedWidthType](a arrow.Array, vals []T, t catalog.Type) (arrow.Array, error) {
	dt, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	data := array.NewData(dt, a.Len(), []*memory.Buffer{validity(a), memory.NewBufferBytes(arrow.GetBytes(vals))}, nil, a.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// validity is a's validity bitmap at offset 0 (nil without NULLs): a's own buffer when a starts
// at offset 0 (array.NewData takes the reference the new column holds), else a copy.
func validity(a arrow.Array) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	d := a.Data()
	if d.Offset() == 0 {
		return d.Buffers()[0]
	}
	bits := make([]byte, (a.Len()+7)/8)
	bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), a.Len(), bits, 0)
	return memory.NewBufferBytes(bits)
}

// numericText reads PostgreSQL numeric text as DECIMAL(p, s) as DecimalData#fromBigDecimal
// stores a BigDecimal: rounded HALF_UP to the scale, NULL when it then has more than p digits.
// NaN and infinities have no DECIMAL value: PgJDBC returns them as a Double, which Flink's
// converter cannot take, so the job fails.
func numericText(t catalog.Type) converter {
	return func(a arrow.Array) (arrow.Array, error) {
		s := a.(interface {
			Value(int) string
			IsValid(int) bool
			Len() int
		})
		b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)})
		defer b.Release()
		b.Reserve(s.Len())
		for i := 0; i < s.Len(); i++ {
			if !s.IsValid(i) {
				b.UnsafeAppendBoolToBitmap(false)
				continue
			}
			v, scale, err := parseNumeric(roundingDigits(s.Value(i), t.Scale))
			if err != nil {
				return nil, fmt.Errorf("row %d: %w", i, err)
			}
			if d, ok := decimal.Fit(v, scale, t.Precision, t.Scale); ok {
				b.UnsafeAppend(d)
			} else {
				b.UnsafeAppendBoolToBitmap(false)
			}
		}
		return b.NewArray(), nil
	}
}

// roundingDigits drops the fraction digits of numeric text beyond the first one past scale:
// rounding HALF_UP to scale depends on that digit only (PostgreSQL's numeric can carry thousands
// of fraction digits).
func roundingDigits(s string, scale int) string {
	dot := strings.IndexByte(s, '.')
	if dot < 0 || len(s)-dot-1 <= scale+1 {
		return s
	}
	return s[:dot+1+scale+1]
}

// parseNumeric reads numeric text in plain notation ("-12.340") as an unscaled value and scale.
func parseNumeric(s string) (*big.Int, int, error) {
	digits := make([]byte, 0, len(s))
	scale, dot := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
			if dot {
				scale++
			}
		case c == '.' && !dot:
			dot = true
		case (c == '-' || c == '+') && i == 0:
			digits = append(digits, c)
		default:
			return nil, 0, fmt.Errorf("numeric value %q has no DECIMAL value", s)
		}
	}
	v, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return nil, 0, fmt.Errorf("numeric value %q has no DECIMAL value", s)
	}
	return v, scale, nil
}

// decimals rescales another driver's decimals to DECIMAL(p, s) as DecimalData#fromBigDecimal.
func decimals(from *arrow.Decimal128Type, t catalog.Type) converter {
	return func(a arrow.Array) (arrow.Array, error) {
		if from.Precision == int32(t.Precision) && from.Scale == int32(t.Scale) {
			return same(a)
		}
		in := a.(*array.Decimal128)
		b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)})
		defer b.Release()
		b.Reserve(in.Len())
		for i := 0; i < in.Len(); i++ {
			if in.IsValid(i) {
				if d, ok := decimal.Fit(in.Value(i).BigInt(), int(from.Scale), t.Precision, t.Scale); ok {
					b.UnsafeAppend(d)
					continue
				}
			}
			b.UnsafeAppendBoolToBitmap(false)
		}
		return b.NewArray(), nil
	}
}

// times reads a time of day as Flink's JDBC source does: java.sql.Time#toLocalTime keeps whole
// seconds, so TIME values lose their fraction (milliseconds of the day, a multiple of 1000).
func times(unit arrow.TimeUnit) converter {
	perSecond := int64(1_000_000)
	if unit == arrow.Nanosecond {
		perSecond = 1_000_000_000
	}
	return func(a arrow.Array) (arrow.Array, error) {
		in := a.(*array.Time64).Values()
		out := make([]int32, len(in))
		for i, v := range in {
			// PostgreSQL's 24:00:00 is midnight for java.sql.Time (0 ms).
			out[i] = int32(int64(v)/perSecond%86400) * 1000
		}
		return fixedArray(a, out, catalog.Type{Kind: catalog.Time})
	}
}

// timestamps converts a driver's timestamps to the unit of Sluice's layout (milliseconds at
// precisions up to 3, microseconds above), failing on values finer than the layout holds.
func timestamps(from arrow.TimeUnit, want *arrow.TimestampType) converter {
	return func(a arrow.Array) (arrow.Array, error) {
		if from == want.Unit {
			// The driver's buffers under the layout's type: NewData takes references on them, so
			// they outlive the driver's batch (a C driver's memory is freed with its last
			// reference).
			data := array.NewData(want, a.Len(), a.Data().Buffers(), nil, a.NullN(), a.Data().Offset())
			defer data.Release()
			return array.MakeFromData(data), nil
		}
		div := int64(1)
		for u := want.Unit; u < from; u++ {
			div *= 1000
		}
		if from < want.Unit {
			return nil, fmt.Errorf("timestamps in %s are read into %s", from, want.Unit)
		}
		in := a.(*array.Timestamp).TimestampValues()
		out := make([]arrow.Timestamp, len(in))
		for i, v := range in {
			if a.IsValid(i) && int64(v)%div != 0 {
				return nil, fmt.Errorf("row %d: the timestamp has more fractional digits than the column's Flink type holds (declare a higher precision)", i)
			}
			out[i] = arrow.Timestamp(floorDiv(int64(v), div))
		}
		data := array.NewData(want, a.Len(), []*memory.Buffer{validity(a), memory.NewBufferBytes(arrow.GetBytes(out))}, nil, a.NullN(), 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// narrow turns a large string or binary column (64-bit offsets) into dt, its type with 32-bit
// offsets, sharing the values.
func narrow(dt arrow.DataType) converter {
	return func(a arrow.Array) (arrow.Array, error) {
		d := a.Data()
		offs := arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()+1]
		if last := offs[len(offs)-1]; last > math.MaxInt32 {
			return nil, fmt.Errorf("%d bytes of values do not fit a batch's 32-bit offsets", last)
		}
		out := make([]int32, len(offs))
		for i, o := range offs {
			out[i] = int32(o)
		}
		data := array.NewData(dt, a.Len(), []*memory.Buffer{validity(a), memory.NewBufferBytes(arrow.GetBytes(out)), d.Buffers()[2]}, nil, a.NullN(), 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	}
}
