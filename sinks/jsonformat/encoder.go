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
	"github.com/sluice-project/sluice/sinks/textvalue"
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
		return textvalue.AppendInt(dst, int64(a.Value(r))), nil
	case *array.Int16:
		return textvalue.AppendInt(dst, int64(a.Value(r))), nil
	case *array.Int32:
		return textvalue.AppendInt(dst, int64(a.Value(r))), nil
	case *array.Int64:
		return textvalue.AppendInt(dst, a.Value(r)), nil
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(r)), true), nil
	case *array.Float64:
		return appendFloat(dst, a.Value(r), false), nil
	case *array.Decimal128:
		v := a.Value(r)
		e.big.Set(v.BigInt())
		return textvalue.AppendDecimal(dst, &e.big, int(t.Scale), e.opts.DecimalPlain), nil
	case *array.String:
		return appendString(dst, a.Value(r))
	case *array.Binary:
		v := a.Value(r)
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v)
		return append(dst, '"'), nil
	case *array.Date32:
		dst = append(dst, '"')
		dst = textvalue.AppendDate(dst, int64(a.Value(r)))
		return append(dst, '"'), nil
	case *array.Time32:
		// SQL_TIME_FORMAT of LocalTime.ofSecondOfDay(ms / 1000): no fraction.
		dst = append(dst, '"')
		dst = textvalue.AppendClock(dst, int64(a.Value(r))/1000, 0)
		return append(dst, '"'), nil
	case *array.Timestamp:
		ms, nanos := int64(a.Value(r)), int64(0)
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			ms, nanos = textvalue.FloorDiv(int64(a.Value(r)), 1000), textvalue.FloorMod(int64(a.Value(r)), 1000)*1000
		}
		return e.appendTimestamp(dst, t, ms, nanos), nil
	case *array.Struct: // TIMESTAMP(7..9)
		ms := a.Field(0).(*array.Int64).Value(r)
		nanos := int64(a.Field(1).(*array.Int32).Value(r))
		return e.appendTimestamp(dst, t, ms, nanos), nil
	}
	return nil, fmt.Errorf("no JSON encoding of Arrow type %s", col.DataType())
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

// appendTimestamp writes a TIMESTAMP (as wall-clock time) or TIMESTAMP_LTZ (in UTC, 'Z' after
// it) of an epoch millisecond and the nanoseconds of that millisecond.
func (e *Encoder) appendTimestamp(dst []byte, t catalog.Type, ms, nanoOfMilli int64) []byte {
	sep := byte(' ')
	if e.opts.ISOTimestamps {
		sep = 'T'
	}
	dst = append(dst, '"')
	dst = textvalue.AppendTimestamp(dst, ms, nanoOfMilli, sep, t.Kind == catalog.TimestampLTZ)
	return append(dst, '"')
}
