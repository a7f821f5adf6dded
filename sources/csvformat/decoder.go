// Package csvformat decodes records of Flink's csv format (flink-csv 2.1.1,
// CsvRowDataDeserializationSchema: Jackson 2.18's CsvParser reads the record into a tree of text
// values, CsvToRowDataConverters converts each text) into Arrow columns, with the values Flink
// produces. The facts are in docs/internals/flink-csv-format.md.
//
// As the json decoder does, it takes the plain records, which are nearly all of them, and
// leaves to Flink's own deserializer every record whose result depends on Jackson's or Java's
// corner cases: line breaks, NUL bytes, invalid UTF-8 or a byte order mark in the record, the
// escape character anywhere in it, comment and blank-line skipping, text after a closing quote,
// more or fewer fields than the row has, and texts a converter would
// reject or read in a way not reproduced here. Flink decodes those, with its errors and
// 'csv.ignore-parse-errors'; no record is decoded differently.
package csvformat

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/sources/textvalue"
)

// NoChar is an Options character that is not set (no quoting, no escape character).
const NoChar = -1

// Options are the csv format's options that change how records are read.
type Options struct {
	// Delimiter is 'csv.field-delimiter' (an ASCII character; Flink's default is ',').
	Delimiter byte
	// Quote is 'csv.quote-character' (ASCII; default '"'), NoChar under
	// 'csv.disable-quote-character'.
	Quote int
	// Escape is 'csv.escape-character' (ASCII), NoChar when not set.
	Escape int
	// AllowComments is 'csv.allow-comments': Jackson skips comment lines and leading blanks.
	AllowComments bool
	// NullLiteral is 'csv.null-literal' (nil when not set): a field of this text is NULL.
	NullLiteral []byte
}

// DefaultOptions are Flink's defaults.
func DefaultOptions() Options {
	return Options{Delimiter: ',', Quote: '"', Escape: NoChar}
}

// Decoder decodes records of one row type. It is not safe for concurrent use.
type Decoder struct {
	textvalue.RowSet
	types []catalog.Type
	opts  Options
	// fields holds the spans of the record's field texts in it (start, end), quoted ones
	// without their quotes, or (negative: -start-1, -end-1) in undoubled, which holds the texts
	// of quoted fields with their doubled quotes made one.
	fields    [][2]int
	undoubled []byte
	dec       big.Int
}

// NewDecoder returns a decoder of records into rows of the named fields. Types the decoder does
// not take (ARRAY, ROW, MAP, MULTISET, RAW, intervals, TIME(p > 3), ...) are an error: a table
// with them keeps Flink's deserializer.
func NewDecoder(names []string, types []catalog.Type, opts Options) (*Decoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("csv decoder: %d names for %d types", len(names), len(types))
	}
	if len(types) == 0 {
		return nil, fmt.Errorf("csv decoder: a row without fields")
	}
	for _, c := range []int{int(opts.Delimiter), opts.Quote, opts.Escape} {
		if c >= utf8.RuneSelf || c == '\r' || c == '\n' || c == 0 {
			return nil, fmt.Errorf("csv decoder: the character %q is not read natively", rune(c))
		}
	}
	if opts.Quote == int(opts.Delimiter) || opts.Escape == int(opts.Delimiter) {
		return nil, fmt.Errorf("csv decoder: the delimiter %q is also the quote or escape character", opts.Delimiter)
	}
	d := &Decoder{types: types, opts: opts}
	for i, t := range types {
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
			catalog.Float, catalog.Double, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary,
			catalog.Date, catalog.Timestamp, catalog.TimestampLTZ:
		case catalog.Decimal:
			if t.Precision < 1 || t.Precision > 38 {
				return nil, fmt.Errorf("csv decoder: field %s of type %s", names[i], t)
			}
		case catalog.Time:
			if t.Precision > 3 {
				// Flink's converter refuses TIME(p > 3) when the job starts.
				return nil, fmt.Errorf("csv decoder: field %s of type %s is decoded by Flink", names[i], t)
			}
		default:
			return nil, fmt.Errorf("csv decoder: field %s of type %s is decoded by Flink", names[i], t)
		}
	}
	rs, err := textvalue.NewRowSet(names, types)
	if err != nil {
		return nil, fmt.Errorf("csv decoder: %w", err)
	}
	d.RowSet = rs
	return d, nil
}

// Add decodes one record (a Kafka record's value) into one row. ok is false for a record left
// to Flink's deserializer (an empty one among them), which added nothing.
func (d *Decoder) Add(value []byte) (rows int, ok bool) {
	if !d.split(value) {
		return 0, false
	}
	for i := range d.Cols {
		f := d.fields[i]
		var text []byte
		if f[0] < 0 {
			text = d.undoubled[-f[0]-1 : -f[1]-1]
		} else {
			text = value[f[0]:f[1]]
		}
		if !d.value(&d.Cols[i], text) {
			d.Rollback()
			return 0, false
		}
	}
	d.Commit()
	return 1, true
}

// split finds the record's field texts, and reports whether the record is one read here: plain
// UTF-8 on one line, exactly one field per column.
func (d *Decoder) split(v []byte) bool {
	if len(v) == 0 || len(v) >= 3 && v[0] == 0xEF && v[1] == 0xBB && v[2] == 0xBF {
		return false // Flink's null for nothing; Jackson skips a byte order mark
	}
	if d.opts.AllowComments && (v[0] == '#' || v[0] == ' ') {
		return false // comment lines and leading blanks are skipped
	}
	for _, c := range v {
		if c == 0 || c == '\r' || c == '\n' || int(c) == d.opts.Escape {
			return false // NULs make Jackson guess UTF-16 or 32; one row per record is read
		}
	}
	if !utf8.Valid(v) {
		return false
	}
	d.fields, d.undoubled = d.fields[:0], d.undoubled[:0]
	delim, quote := d.opts.Delimiter, d.opts.Quote
	for at := 0; ; {
		if len(d.fields) == len(d.Cols) {
			return false // more fields than columns
		}
		if at < len(v) && int(v[at]) == quote {
			start, end, doubled, next, ok := quotedField(v, at+1, byte(quote))
			if !ok || next < len(v) && v[next] != delim {
				return false // no closing quote, or text after it (Jackson skips blanks there)
			}
			if doubled {
				from := len(d.undoubled)
				d.undoubled = appendUndoubled(d.undoubled, v[start:end], byte(quote))
				d.fields = append(d.fields, [2]int{-from - 1, -len(d.undoubled) - 1})
			} else {
				d.fields = append(d.fields, [2]int{start, end})
			}
			if next == len(v) {
				break
			}
			at = next + 1
		} else {
			end := bytes.IndexByte(v[at:], delim)
			if end < 0 {
				d.fields = append(d.fields, [2]int{at, len(v)})
				break
			}
			d.fields = append(d.fields, [2]int{at, at + end})
			at += end + 1
		}
		if at == len(v) {
			// A delimiter at the end: Jackson reads one more value, empty (unquoted).
			d.fields = append(d.fields, [2]int{at, at})
			break
		}
	}
	return len(d.fields) == len(d.Cols)
}

// quotedField reads a quoted field's text from v[at:] (past the opening quote) to its closing
// quote: the text's span, whether it holds doubled quotes, and where the closing quote ends.
func quotedField(v []byte, at int, quote byte) (start, end int, doubled bool, next int, ok bool) {
	for i := at; i < len(v); i++ {
		if v[i] != quote {
			continue
		}
		if i+1 < len(v) && v[i+1] == quote {
			doubled = true
			i++
			continue
		}
		return at, i, doubled, i + 1, true
	}
	return 0, 0, false, 0, false
}

// appendUndoubled appends a quoted field's text with each doubled quote made one.
func appendUndoubled(dst, text []byte, quote byte) []byte {
	for i := 0; i < len(text); i++ {
		dst = append(dst, text[i])
		if text[i] == quote {
			i++ // its double
		}
	}
	return dst
}

// value converts a field's text into its column as CsvToRowDataConverters converts the text
// node, and reports false for a text left to Flink (nothing appended).
func (d *Decoder) value(col *textvalue.Column, text []byte) bool {
	t := col.Type
	if d.opts.NullLiteral != nil && bytes.Equal(text, d.opts.NullLiteral) {
		// Jackson's null value: Flink's NULL, NOT NULL columns included (left to Flink).
		if !t.Nullable {
			return false
		}
		col.AppendNull()
		return true
	}
	switch t.Kind {
	case catalog.Boolean:
		// Boolean.parseBoolean(text.trim()): never fails.
		v := int64(0)
		if textvalue.EqualFoldTrue(textvalue.JavaTrim(text)) {
			v = 1
		}
		col.AppendInt(v)
	case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt:
		// Byte/Short/Integer/Long.parseX(text.trim()).
		v, err := javatext.ParseInt(textvalue.BytesString(textvalue.JavaTrim(text)), 64)
		if err != nil || !inRange(v, t.Kind) {
			return false
		}
		col.AppendInt(v)
	case catalog.Float, catalog.Double:
		// Float.parseFloat / Double.parseDouble(text.trim()).
		bits := 64
		if t.Kind == catalog.Float {
			bits = 32
		}
		v, ok := javatext.ParseDouble(textvalue.JavaTrim(text), bits)
		if !ok {
			return false
		}
		col.AppendFloat(v)
	case catalog.Decimal:
		// new BigDecimal(text), untrimmed, then DecimalData.fromBigDecimal.
		scale, ok := textvalue.ParseDecimalText(&d.dec, text)
		if !ok {
			return false
		}
		n, fits := textvalue.FitDecimal(&d.dec, scale, t.Precision, t.Scale)
		switch {
		case fits:
			col.AppendDecimal(n)
		case t.Nullable:
			col.AppendNull() // too many digits: null
		default:
			return false
		}
	case catalog.Char, catalog.VarChar:
		col.AppendBytes(text)
	case catalog.Binary, catalog.VarBinary:
		// TextNode#binaryValue: Jackson's default Base64 variant.
		return col.AppendBase64(text)
	case catalog.Date:
		// Date.valueOf(text).toLocalDate().
		day, ok := sqlDate(text)
		if !ok {
			return false
		}
		col.AppendInt(day)
	case catalog.Time:
		// LocalTime.parse(text) (ISO_LOCAL_TIME), its milliseconds cut to the precision.
		nanos, n, ok := textvalue.ParseTime(text, true)
		if !ok || n != len(text) {
			return false
		}
		ms := nanos / 1e6
		ms -= ms % timeUnit[t.Precision]
		col.AppendInt(ms)
	case catalog.Timestamp, catalog.TimestampLTZ:
		// LocalDateTime.parse(text.trim(), SQL_TIMESTAMP(_WITH_LOCAL_TIMEZONE)_FORMAT).
		ts, ok := textvalue.ParseTimestamp(textvalue.JavaTrim(text), false, t.Kind == catalog.TimestampLTZ)
		if !ok {
			return false
		}
		if _, nanos := ts.EpochMillis(); t.Precision > 3 && t.Precision <= 6 && nanos%1000 != 0 {
			// Flink's TimestampData keeps nanoseconds below a TIMESTAMP(4..6) column's
			// precision, which the column's microseconds cannot hold.
			return false
		}
		col.AppendTimestamp(ts)
	default:
		return false
	}
	return true
}

// timeUnit is the milliseconds a TIME(p) value is a multiple of, by p.
var timeUnit = [4]int64{1000, 100, 10, 1}

func inRange(v int64, k catalog.Kind) bool {
	switch k {
	case catalog.TinyInt:
		return v >= math.MinInt8 && v <= math.MaxInt8
	case catalog.SmallInt:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case catalog.Int:
		return v >= math.MinInt32 && v <= math.MaxInt32
	}
	return true
}

// sqlDate is java.sql.Date.valueOf(text).toLocalDate() as an epoch day, for "YYYY-MM-DD" with
// ASCII digits and a real date from 1600 on (Date.valueOf also takes one-digit months and days
// and signs, and moves days past a month's end into the next month; java.sql.Date counts
// earlier dates on the Julian calendar): other texts are left to Flink.
func sqlDate(text []byte) (int64, bool) {
	if len(text) != 10 {
		return 0, false
	}
	day, n, ok := textvalue.ParseDate(text)
	if !ok || n != len(text) || text[0] < '1' || text[0] == '1' && text[1] < '6' {
		return 0, false
	}
	return day, true
}
