// Package csvformat encodes Arrow rows as records of Flink's csv format, byte for byte as
// flink-csv 2.1.1's CsvRowDataSerializationSchema writes them through Jackson 2.18's CsvGenerator:
// the fields in schema order between delimiters, no line separator; numbers and booleans as
// they are (Java's Float/Double.toString, BigDecimal's toString of the stripped value or its
// plain text); NULL as the null literal; strings, bytes (base64), dates, times and timestamps
// as text, quoted when Jackson's loose check asks for it. The facts are in
// docs/internals/flink-csv-format.md §5.
package csvformat

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/sinks/textvalue"
)

// NoQuote is Options.Quote under 'csv.disable-quote-character'.
const NoQuote = -1

// maxQuoteCheck is the length (in Java chars) past which Jackson quotes a text unchecked.
const maxQuoteCheck = 24

// Options are the csv format's options that change what is written.
type Options struct {
	// Delimiter is 'csv.field-delimiter' (ASCII; Flink's default ',').
	Delimiter byte
	// Quote is 'csv.quote-character' (ASCII; default '"'), NoQuote when disabled.
	Quote int
	// NullLiteral is 'csv.null-literal' (empty when not set).
	NullLiteral []byte
	// DecimalPlain writes decimals as BigDecimal#toPlainString of the unstripped value, else
	// as toString of the stripped one. It is 'csv.write-bigdecimal-in-scientific-notation' =
	// 'false', and true when the option is not set: CsvFormatFactory passes the option to the
	// serializer only when it is set, and the serializer's own default is plain (the option's
	// documented default, true, applies to nothing).
	DecimalPlain bool
}

// DefaultOptions are what Flink's csv format writes without options.
func DefaultOptions() Options {
	return Options{Delimiter: ',', Quote: '"', DecimalPlain: true}
}

// Encoder writes rows of one row type as CSV records.
type Encoder struct {
	types   []catalog.Type
	opts    Options
	minSafe int // the first character Jackson's loose check takes as safe
	big     big.Int
	text    []byte
	units   []uint16
}

// NewEncoder returns an encoder of rows of the named fields. Nested types (ROW, ARRAY, MAP,
// MULTISET), RAW and intervals are an error: a sink with them keeps Flink's serializer.
func NewEncoder(names []string, types []catalog.Type, opts Options) (*Encoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("csv encoder: %d names for %d types", len(names), len(types))
	}
	if opts.Delimiter >= utf8.RuneSelf || opts.Quote >= utf8.RuneSelf {
		return nil, fmt.Errorf("csv encoder: non-ASCII delimiter or quote character")
	}
	for i, t := range types {
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
			catalog.Float, catalog.Double, catalog.Decimal, catalog.Char, catalog.VarChar,
			catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time, catalog.Timestamp,
			catalog.TimestampLTZ:
		default:
			return nil, fmt.Errorf("csv encoder: field %s of type %s is encoded by Flink", names[i], t)
		}
	}
	// CsvEncoder#_calcSafeChar: one past the larger of the delimiter and the quote (no line
	// separator: Flink writes none).
	minSafe := max(int(opts.Delimiter), opts.Quote) + 1
	return &Encoder{types: types, opts: opts, minSafe: minSafe}, nil
}

// AppendRecords appends the records of b's rows (its first columns, one per field) to body and
// each record's end to ends.
func (e *Encoder) AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error) {
	var err error
	for r := range int(b.NumRows()) {
		for i, t := range e.types {
			if i > 0 {
				body = append(body, e.opts.Delimiter)
			}
			col := b.Column(i)
			if col.IsNull(r) {
				body = append(body, e.opts.NullLiteral...)
				continue
			}
			if body, err = e.appendValue(body, t, col, r); err != nil {
				return nil, nil, fmt.Errorf("csv encoder: row %d field %d: %w", r, i, err)
			}
		}
		if len(body) >= 1<<31 {
			return nil, nil, fmt.Errorf("csv encoder: %d bytes of records in one batch", len(body))
		}
		ends = append(ends, uint32(len(body)))
	}
	return body, ends, nil
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
		return appendJavaFloat(dst, float64(a.Value(r)), true), nil
	case *array.Float64:
		return appendJavaFloat(dst, a.Value(r), false), nil
	case *array.Decimal128:
		v := a.Value(r)
		e.big.Set(v.BigInt())
		return textvalue.AppendDecimal(dst, &e.big, int(t.Scale), e.opts.DecimalPlain), nil
	case *array.String:
		v := a.Value(r)
		// The string's bytes in place: appendText only reads them.
		return e.appendText(dst, e.javaString(unsafe.Slice(unsafe.StringData(v), len(v)))), nil
	case *array.Binary:
		e.text = base64.StdEncoding.AppendEncode(e.text[:0], a.Value(r))
		return e.appendText(dst, e.text), nil
	case *array.Date32:
		e.text = textvalue.AppendDate(e.text[:0], int64(a.Value(r)))
		return e.appendText(dst, e.text), nil
	case *array.Time32:
		// ISO_LOCAL_TIME of the millisecond of the day.
		ms := int64(a.Value(r))
		e.text = textvalue.AppendClock(e.text[:0], ms/1000, ms%1000*1_000_000)
		return e.appendText(dst, e.text), nil
	case *array.Timestamp:
		ms, nanos := int64(a.Value(r)), int64(0)
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			ms, nanos = textvalue.FloorDiv(int64(a.Value(r)), 1000), textvalue.FloorMod(int64(a.Value(r)), 1000)*1000
		}
		e.text = textvalue.AppendTimestamp(e.text[:0], ms, nanos, ' ', t.Kind == catalog.TimestampLTZ)
		return e.appendText(dst, e.text), nil
	case *array.Struct: // TIMESTAMP(7..9)
		ms := a.Field(0).(*array.Int64).Value(r)
		nanos := int64(a.Field(1).(*array.Int32).Value(r))
		e.text = textvalue.AppendTimestamp(e.text[:0], ms, nanos, ' ', t.Kind == catalog.TimestampLTZ)
		return e.appendText(dst, e.text), nil
	}
	return nil, fmt.Errorf("no CSV encoding of Arrow type %s", col.DataType())
}

// appendJavaFloat writes Float/Double.toString, NaN and the infinities included.
func appendJavaFloat(dst []byte, v float64, float bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	case float:
		return javatext.AppendFloat(dst, float32(v))
	}
	return javatext.AppendDouble(dst, v)
}

// javaString is the UTF-8 Jackson writes for StringData#toString of a string's bytes: the bytes
// themselves when they are UTF-8.
func (e *Encoder) javaString(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	e.text, e.units = textvalue.AppendJavaString(e.text[:0], e.units[:0], b)
	return e.text
}

// appendText writes a text value as CsvEncoder#write(int, String) does: quoted (its quote
// characters doubled) when quoting is on and the loose check finds it longer than 24 Java
// chars or holding a character below the first safe one, the quote character or a backslash.
func (e *Encoder) appendText(dst, s []byte) []byte {
	if e.opts.Quote == NoQuote || !e.needsQuotes(s) {
		return append(dst, s...)
	}
	q := byte(e.opts.Quote)
	dst = append(dst, q)
	for _, c := range s {
		if c == q {
			dst = append(dst, q)
		}
		dst = append(dst, c)
	}
	return append(dst, q)
}

func (e *Encoder) needsQuotes(s []byte) bool {
	chars := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if int(c) < e.minSafe || int(c) == e.opts.Quote || c == '\\' {
				return true
			}
			chars++
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		chars++
		if r >= 0x10000 {
			chars++ // a surrogate pair
		}
		i += n
	}
	return chars > maxQuoteCheck
}
