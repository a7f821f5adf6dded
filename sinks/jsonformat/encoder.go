// Package jsonformat encodes Arrow rows as records of Flink's json format, byte for byte as
// flink-json 2.1.1's JsonRowDataSerializationSchema writes them through Jackson 2.18: fields in
// schema order, Java's Float/Double.toString, BigDecimal's toString of the stripped value (or its
// plain form), ISO dates, times without fractions, timestamps with their fraction's trailing
// zeros dropped, base64 bytes, and Jackson's string escapes (supplementary characters as escaped
// surrogate pairs). The facts are in docs/internals/flink-json-format.md §10.
package jsonformat

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

// Options are the json format's encoding options.
type Options struct {
	// ISOTimestamps is 'json.timestamp-format.standard' = 'ISO-8601' (else 'SQL').
	ISOTimestamps bool
	// DecimalPlain is 'json.encode.decimal-as-plain-number'.
	DecimalPlain bool
	// IgnoreNullFields is 'json.encode.ignore-null-fields': NULL fields are left out.
	IgnoreNullFields bool
}

// Encoder writes rows of one row type as JSON records.
type Encoder struct {
	names [][]byte // each field's name, quoted and escaped, with its colon
	types []catalog.Type
	opts  Options
	big   big.Int
}

// NewEncoder returns an encoder of rows of the named fields. Nested types (ROW, ARRAY, MAP,
// MULTISET) and RAW are an error: a sink with them keeps Flink's serializer.
func NewEncoder(names []string, types []catalog.Type, opts Options) (*Encoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("json encoder: %d names for %d types", len(names), len(types))
	}
	e := &Encoder{types: types, opts: opts}
	for i, t := range types {
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
			catalog.Float, catalog.Double, catalog.Decimal, catalog.Char, catalog.VarChar,
			catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time, catalog.Timestamp,
			catalog.TimestampLTZ:
		default:
			return nil, fmt.Errorf("json encoder: field %s of type %s is encoded by Flink", names[i], t)
		}
		name, err := appendString(nil, names[i])
		if err != nil {
			return nil, fmt.Errorf("json encoder: field name %q: %w", names[i], err)
		}
		e.names = append(e.names, append(name, ':'))
	}
	return e, nil
}

// AppendRecord appends row r of the batch's first columns (one per field) as a JSON record.
func (e *Encoder) AppendRecord(dst []byte, b arrow.RecordBatch, r int) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	for i, t := range e.types {
		col := b.Column(i)
		if col.IsNull(r) && e.opts.IgnoreNullFields {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, e.names[i]...)
		if col.IsNull(r) {
			dst = append(dst, "null"...)
			continue
		}
		var err error
		if dst, err = e.appendValue(dst, t, col, r); err != nil {
			return nil, fmt.Errorf("json encoder: field %s: %w", e.names[i][1:len(e.names[i])-2], err)
		}
	}
	return append(dst, '}'), nil
}

func (e *Encoder) appendValue(dst []byte, t catalog.Type, col arrow.Array, r int) ([]byte, error) {
	switch a := col.(type) {
	case *array.Boolean:
		if a.Value(r) {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case *array.Int8:
		return appendInt(dst, int64(a.Value(r))), nil
	case *array.Int16:
		return appendInt(dst, int64(a.Value(r))), nil
	case *array.Int32:
		return appendInt(dst, int64(a.Value(r))), nil
	case *array.Int64:
		return appendInt(dst, a.Value(r)), nil
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(r)), true), nil
	case *array.Float64:
		return appendFloat(dst, a.Value(r), false), nil
	case *array.Decimal128:
		v := a.Value(r)
		e.big.Set(v.BigInt())
		return appendDecimal(dst, &e.big, int(t.Scale), e.opts.DecimalPlain), nil
	case *array.String:
		return appendString(dst, a.Value(r))
	case *array.Binary:
		v := a.Value(r)
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v)
		return append(dst, '"'), nil
	case *array.Date32:
		dst = append(dst, '"')
		dst = appendDate(dst, int64(a.Value(r)))
		return append(dst, '"'), nil
	case *array.Time32:
		// SQL_TIME_FORMAT of LocalTime.ofSecondOfDay(ms / 1000): no fraction.
		dst = append(dst, '"')
		dst = appendClock(dst, int64(a.Value(r))/1000, 0)
		return append(dst, '"'), nil
	case *array.Timestamp:
		ms, nanos := int64(a.Value(r)), int64(0)
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			ms, nanos = floorDiv(int64(a.Value(r)), 1000), floorMod(int64(a.Value(r)), 1000)*1000
		}
		return e.appendTimestamp(dst, t, ms, nanos), nil
	case *array.Struct: // TIMESTAMP(7..9)
		ms := a.Field(0).(*array.Int64).Value(r)
		nanos := int64(a.Field(1).(*array.Int32).Value(r))
		return e.appendTimestamp(dst, t, ms, nanos), nil
	}
	return nil, fmt.Errorf("no JSON encoding of Arrow type %s", col.DataType())
}

func appendInt(dst []byte, v int64) []byte {
	var buf [20]byte
	i := len(buf)
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if v < 0 {
		dst = append(dst, '-')
	}
	return append(dst, buf[i:]...)
}

// appendFloat writes Float/Double.toString; NaN and the infinities as quoted strings (Jackson's
// QUOTE_NON_NUMERIC_NUMBERS).
func appendFloat(dst []byte, v float64, float bool) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		dst = append(dst, '"')
		switch {
		case math.IsNaN(v):
			dst = append(dst, "NaN"...)
		case v > 0:
			dst = append(dst, "Infinity"...)
		default:
			dst = append(dst, "-Infinity"...)
		}
		return append(dst, '"')
	}
	if float {
		return javatext.AppendFloat(dst, float32(v))
	}
	return javatext.AppendDouble(dst, v)
}

var bigTen = big.NewInt(10)

// appendDecimal writes the unscaled value v at scale as BigDecimal#toString of its
// stripTrailingZeros() (Flink's default), or as toPlainString (plain).
func appendDecimal(dst []byte, v *big.Int, scale int, plain bool) []byte {
	neg := v.Sign() < 0
	v.Abs(v)
	if !plain {
		if v.Sign() == 0 {
			return append(dst, '0') // BigDecimal.ZERO
		}
		var q, m big.Int
		for {
			q.QuoRem(v, bigTen, &m)
			if m.Sign() != 0 {
				break
			}
			v.Set(&q)
			scale--
		}
	}
	digits := v.Text(10)
	if neg {
		dst = append(dst, '-')
	}
	adjusted := -scale + len(digits) - 1
	switch {
	case plain || scale >= 0 && adjusted >= -6:
		if scale <= 0 {
			dst = append(dst, digits...)
			for ; scale < 0; scale++ {
				dst = append(dst, '0')
			}
			return dst
		}
		if len(digits) > scale {
			dst = append(dst, digits[:len(digits)-scale]...)
			dst = append(dst, '.')
			return append(dst, digits[len(digits)-scale:]...)
		}
		dst = append(dst, '0', '.')
		for k := len(digits); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'E')
	if adjusted >= 0 {
		dst = append(dst, '+')
	}
	return appendInt(dst, int64(adjusted))
}

// appendString writes a JSON string as Jackson's UTF8JsonGenerator: '"' and '\' escaped, the
// control characters as \b \t \n \f \r or \u00XX (upper-case hex), other characters of the
// Basic Multilingual Plane as they are, supplementary ones as escaped surrogate pairs.
func appendString(dst []byte, s string) ([]byte, error) {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, fmt.Errorf("invalid UTF-8 at byte %d of a string", i)
		}
		if r >= 0x10000 {
			hi, lo := 0xD800+((r-0x10000)>>10), 0xDC00+((r-0x10000)&0x3FF)
			for _, u := range [2]rune{hi, lo} {
				dst = append(dst, '\\', 'u', hex[u>>12&15], hex[u>>8&15], hex[u>>4&15], hex[u&15])
			}
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"'), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// civil is the proleptic Gregorian date of an epoch day (Howard Hinnant's civil_from_days).
func civil(day int64) (y, m, d int64) {
	z := day + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

func appendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	b := appendInt(buf[:0], v)
	for k := len(b); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// appendDate writes ISO_LOCAL_DATE: a four-digit year (a sign beyond 9999 and below 0).
func appendDate(dst []byte, day int64) []byte {
	y, m, d := civil(day)
	switch {
	case y > 9999:
		dst = append(dst, '+')
		dst = appendInt(dst, y)
	case y < 0:
		dst = append(dst, '-')
		dst = appendPadded(dst, -y, 4)
	default:
		dst = appendPadded(dst, y, 4)
	}
	dst = append(dst, '-')
	dst = appendPadded(dst, m, 2)
	dst = append(dst, '-')
	return appendPadded(dst, d, 2)
}

// appendClock writes HH:mm:ss of a second of the day, then the nanoseconds' fraction with its
// trailing zeros dropped (none at all for 0).
func appendClock(dst []byte, sec, nanos int64) []byte {
	dst = appendPadded(dst, sec/3600, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, sec/60%60, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, sec%60, 2)
	if nanos == 0 {
		return dst
	}
	var buf [9]byte
	for k := 8; k >= 0; k-- {
		buf[k] = byte('0' + nanos%10)
		nanos /= 10
	}
	n := 9
	for n > 0 && buf[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, buf[:n]...)
}

// appendTimestamp writes a TIMESTAMP (as wall-clock time) or TIMESTAMP_LTZ (in UTC, 'Z' after
// it) of an epoch millisecond and the nanoseconds of that millisecond.
func (e *Encoder) appendTimestamp(dst []byte, t catalog.Type, ms, nanoOfMilli int64) []byte {
	day := floorDiv(ms, 86_400_000)
	msOfDay := floorMod(ms, 86_400_000)
	dst = append(dst, '"')
	dst = appendDate(dst, day)
	if e.opts.ISOTimestamps {
		dst = append(dst, 'T')
	} else {
		dst = append(dst, ' ')
	}
	dst = appendClock(dst, msOfDay/1000, msOfDay%1000*1_000_000+nanoOfMilli)
	if t.Kind == catalog.TimestampLTZ {
		dst = append(dst, 'Z')
	}
	return append(dst, '"')
}
