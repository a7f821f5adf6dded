// Package jsonformat decodes records of Flink's json format (flink-json, the default streaming
// parser path: JsonParserRowDataDeserializationSchema) into Arrow columns, with the values Flink
// produces. Its semantics, read from Flink's and Jackson's sources, are in
// docs/internals/flink-json-format.md.
//
// The decoder takes the well-formed records, which are nearly all of them, and decodes them
// exactly. A record whose result depends on Jackson's or java.time's corner cases (malformed
// JSON, duplicate keys, a container where a scalar is declared, numbers in Java-only spellings,
// lone surrogates, dates that java.time would resolve, values Flink rejects) is not decoded: its
// index is reported, and Flink's own deserializer decodes it, errors and ignore-parse-errors
// included. So no record is ever decoded differently; a record is only decoded by Flink.
package jsonformat

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/sources/textvalue"
)

// Options are the json format's decoding options.
type Options struct {
	// FailOnMissingField is 'json.fail-on-missing-field': a record without every field fails.
	FailOnMissingField bool
	// ISOTimestamps is 'json.timestamp-format.standard' = 'ISO-8601' (else 'SQL').
	ISOTimestamps bool
	// Tree: the records are Flink's tree deserializer's (JsonRowDataDeserializationSchema,
	// which debezium-json reads its envelopes with) rather than the streaming parser's. The
	// values where the two differ are left to Flink (docs/internals/flink-json-format.md).
	Tree bool
}

// Decoder decodes records of one row type. It is not safe for concurrent use.
type Decoder struct {
	names  []string
	types  []catalog.Type
	root   fieldSet
	opts   Options
	schema *arrow.Schema
	sc     scanner
	record uint32
	rows   int
	dec    big.Int
	// bigDecimals: the tree deserializer reads this row type's JSON floats as BigDecimals.
	bigDecimals bool
}

// hasDecimal says whether a DECIMAL is among the types, at any depth.
func hasDecimal(types []catalog.Type) bool {
	for _, t := range types {
		if t.Kind == catalog.Decimal {
			return true
		}
		for _, f := range t.Fields {
			if hasDecimal([]catalog.Type{f.Type}) {
				return true
			}
		}
	}
	return false
}

// fieldSet is the fields of one JSON object: the top-level row's, or a ROW column's.
type fieldSet struct {
	fields map[string]int
	cols   []column
	// seen marks the fields a record set (by the record's number, so never cleared).
	seen []uint32
}

// newFieldSet returns the fields of a row of the named fields. Types whose decoding is left to
// Flink whole (ARRAY, MAP, MULTISET, RAW, ...) are an error.
func newFieldSet(names []string, types []catalog.Type) (fieldSet, error) {
	f := fieldSet{fields: make(map[string]int, len(names)), cols: make([]column, len(types)), seen: make([]uint32, len(types))}
	for i, t := range types {
		if _, dup := f.fields[names[i]]; dup {
			return f, fmt.Errorf("json decoder: field %q twice", names[i])
		}
		f.fields[names[i]] = i
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
			catalog.Float, catalog.Double, catalog.Decimal, catalog.Char, catalog.VarChar,
			catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time, catalog.Timestamp,
			catalog.TimestampLTZ:
		case catalog.Row:
			var nested []string
			var nestedTypes []catalog.Type
			for _, nf := range t.Fields {
				nested, nestedTypes = append(nested, nf.Name), append(nestedTypes, nf.Type)
			}
			row, err := newFieldSet(nested, nestedTypes)
			if err != nil {
				return f, fmt.Errorf("json decoder: field %s: %w", names[i], err)
			}
			f.cols[i].row = &row
		default:
			return f, fmt.Errorf("json decoder: field %s of type %s is decoded by Flink", names[i], t)
		}
		if t.Kind == catalog.Decimal && (t.Precision < 1 || t.Precision > 38) {
			return f, fmt.Errorf("json decoder: field %s of type %s", names[i], t)
		}
		f.cols[i].Type = t
	}
	return f, nil
}

// NewDecoder returns a decoder of records into rows of the named fields. Types whose decoding
// is left to Flink whole (ARRAY, MAP, MULTISET, RAW, ...) are an error: a table with them keeps
// Flink's deserializer.
func NewDecoder(names []string, types []catalog.Type, opts Options) (*Decoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("json decoder: %d names for %d types", len(names), len(types))
	}
	root, err := newFieldSet(names, types)
	if err != nil {
		return nil, err
	}
	d := &Decoder{names: names, types: types, root: root, opts: opts}
	// The tree deserializer reads every JSON float as a BigDecimal when the row has a DECIMAL
	// (USE_BIG_DECIMAL_FOR_FLOATS), and fails on exponents a BigDecimal cannot hold.
	d.bigDecimals = opts.Tree && hasDecimal(types)
	d.sc.bigExponents = d.bigDecimals
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return nil, fmt.Errorf("json decoder: %w", err)
	}
	d.schema = schema
	return d, nil
}

// Schema is the schema of the decoded batches.
func (d *Decoder) Schema() *arrow.Schema { return d.schema }

// Rows is the number of rows decoded since the last Finish.
func (d *Decoder) Rows() int { return d.rows }

// DropLast takes back the last row decoded (a Kafka key's, when the record's value is left to
// Flink).
func (d *Decoder) DropLast() {
	if d.rows == 0 {
		return
	}
	d.rows--
	for i := range d.root.cols {
		d.root.cols[i].truncate(d.rows)
	}
}

// Add decodes one record (a Kafka record's value) and reports how many rows it added: 0 for a
// null or empty value (Flink emits nothing for them either), 1 for a JSON object. ok is false
// for a record left to Flink's deserializer, which added nothing.
func (d *Decoder) Add(value []byte) (rows int, ok bool) {
	if len(value) == 0 {
		return 0, true
	}
	d.record++
	if d.record == 0 { // wrapped: marks of 2^32 records ago would read as this record's
		d.root.clearSeen()
		d.record = 1
	}
	if err := d.object(value); err != nil {
		for i := range d.root.cols {
			d.root.cols[i].truncate(d.rows)
		}
		return 0, false
	}
	d.rows++
	return 1, true
}

// Last returns whether a field of the last row decoded is valid (not NULL) and, for a string or
// binary field, its bytes (they stay the decoder's, valid until the next call). The field is the
// top-level field path[0], or within it (a ROW) its field path[1], and so on.
func (d *Decoder) Last(path ...int) (text []byte, valid bool) {
	col := &d.root.cols[path[0]]
	for _, i := range path[1:] {
		col = &col.row.cols[i]
	}
	return col.Last()
}

// clearSeen clears the marks of the fields and of their ROW columns' fields.
func (f *fieldSet) clearSeen() {
	clear(f.seen)
	for i := range f.cols {
		if r := f.cols[i].row; r != nil {
			r.clearSeen()
		}
	}
}

// object decodes a record whose top-level value must be an object (arrays and scalars: Flink's
// deserializer emits one row per element, or fails).
func (d *Decoder) object(value []byte) error {
	s := &d.sc
	s.reset(value)
	if s.skipSpace() != '{' {
		return errUnsure
	}
	// Flink reads nothing after the top-level value.
	return d.fields(&d.root)
}

// fields decodes the object at the scanner's position (its '{') into one row of f, as Flink's
// row converter matches fields: by exact name, unknown ones skipped, missing ones NULL.
func (d *Decoder) fields(f *fieldSet) error {
	s := &d.sc
	s.pos++
	matched := 0
	if s.skipSpace() == '}' {
		s.pos++
	} else {
		for {
			if s.skipSpace() != '"' {
				return errUnsure
			}
			name, err := s.str(maxNameLength)
			if err != nil {
				return err
			}
			if err := s.expect(':'); err != nil {
				return err
			}
			i, known := f.fields[string(name)]
			switch {
			case !known:
				err = s.skipValue()
			case f.seen[i] == d.record:
				// A duplicate key counts twice in Flink's row converter, which then skips
				// fields it has not seen: left to Flink.
				return errUnsure
			default:
				f.seen[i] = d.record
				matched++
				err = d.value(&f.cols[i])
			}
			if err != nil {
				return err
			}
			c := s.skipSpace()
			s.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				return errUnsure
			}
		}
	}
	if matched < len(f.cols) {
		if d.opts.FailOnMissingField {
			return errUnsure // Flink fails the record
		}
		for i := range f.cols {
			if f.seen[i] != d.record {
				if !f.cols[i].Type.Nullable {
					return errUnsure
				}
				f.cols[i].appendNull()
			}
		}
	}
	return nil
}

// value decodes a field's value at the scanner's position into its column.
func (d *Decoder) value(col *column) error {
	s := &d.sc
	t := col.Type
	if t.Kind == catalog.Row && s.skipSpace() == '{' {
		// A nested ROW: Flink's row converter again, on the nested object.
		if err := d.fields(col.row); err != nil {
			return err
		}
		col.AppendValidity(true)
		return nil
	}
	var text []byte
	var tok token
	switch c := s.skipSpace(); {
	case c == '"':
		b, err := s.str(maxStringLength)
		if err != nil {
			return err
		}
		text, tok = b, tokString
	case c == '-' || c >= '0' && c <= '9':
		b, integer, err := s.number()
		if err != nil {
			return err
		}
		text, tok = b, tokFloat
		if integer {
			tok = tokInt
		}
	case c == 't':
		if err := s.literal("true"); err != nil {
			return err
		}
		text, tok = []byte("true"), tokTrue
	case c == 'f':
		if err := s.literal("false"); err != nil {
			return err
		}
		text, tok = []byte("false"), tokFalse
	case c == 'n':
		if err := s.literal("null"); err != nil {
			return err
		}
		if !t.Nullable {
			return errUnsure
		}
		col.appendNull()
		return nil
	default:
		// A container for a scalar type: Flink's converters leave it unread (or fail), and
		// the row converter reads on inside it.
		return errUnsure
	}
	switch t.Kind {
	case catalog.Boolean:
		// Boolean.parseBoolean(getText().trim()) for anything but the literals: never fails.
		v := tok == tokTrue || tok == tokString && textvalue.EqualFoldTrue(textvalue.JavaTrim(text))
		col.AppendInt(boolInt(v))
	case catalog.TinyInt, catalog.SmallInt:
		// The literal's int value, or Byte/Short.parseX(getText().trim()): JSON floats fail.
		if tok != tokInt && tok != tokString {
			return errUnsure
		}
		v, ok := parseJavaInt(text, tok == tokString)
		lo, hi := int64(math.MinInt8), int64(math.MaxInt8)
		if t.Kind == catalog.SmallInt {
			lo, hi = math.MinInt16, math.MaxInt16
		}
		if !ok || v < lo || v > hi {
			return errUnsure
		}
		col.AppendInt(v)
	case catalog.Int, catalog.BigInt:
		if d.bigDecimals && tok == tokFloat {
			return errUnsure // the tree's BigDecimal truncation and range check
		}
		v, ok := d.integer(text, tok, t.Kind == catalog.BigInt)
		if !ok {
			return errUnsure
		}
		col.AppendInt(v)
	case catalog.Float, catalog.Double:
		bits := 64
		if t.Kind == catalog.Float {
			bits = 32
		}
		if tok == tokTrue || tok == tokFalse {
			return errUnsure
		}
		v, ok := parseJavaFloat(text, bits)
		if !ok {
			return errUnsure
		}
		if d.opts.Tree && tok != tokString && !d.treeFloat(text, v, bits) {
			return errUnsure
		}
		col.AppendFloat(v)
	case catalog.Decimal:
		// new BigDecimal(getText().trim()) for strings, the literal's exact value otherwise.
		if tok == tokTrue || tok == tokFalse {
			return errUnsure
		}
		if tok == tokString {
			trimmed := textvalue.JavaTrim(text)
			if d.opts.Tree && len(trimmed) != len(text) {
				return errUnsure // the tree's new BigDecimal(asText()) is not trimmed
			}
			text = trimmed
		}
		scale, ok := textvalue.ParseDecimalText(&d.dec, text)
		if !ok {
			return errUnsure
		}
		if n, fits := textvalue.FitDecimal(&d.dec, scale, t.Precision, t.Scale); fits {
			col.AppendDecimal(n)
		} else {
			// DecimalData.fromBigDecimal returns null for too many digits.
			if !t.Nullable {
				return errUnsure
			}
			col.appendNull()
		}
	case catalog.Char, catalog.VarChar:
		// getText(): a string's text, a number's literal text, "true"/"false"; no length
		// checks. The tree deserializer prints numbers its own way (Double#toString,
		// BigDecimal#toString, "-0" as "0").
		if d.opts.Tree && (tok == tokFloat || tok == tokInt && string(text) == "-0") {
			return errUnsure
		}
		col.AppendBytes(text)
	case catalog.Binary, catalog.VarBinary:
		if tok != tokString {
			return errUnsure
		}
		if !col.AppendBase64(text) {
			return errUnsure
		}
	case catalog.Date:
		// ISO_LOCAL_DATE.parse(getText()), untrimmed.
		day, err := javatext.ParseLocalDate(textvalue.BytesString(text))
		if err != nil {
			return errUnsure
		}
		col.AppendInt(day)
	case catalog.Time:
		// SQL_TIME_FORMAT, whose fraction LocalTime#toSecondOfDay drops.
		nanos, n, ok := textvalue.ParseTime(text, false)
		if !ok || n != len(text) {
			return errUnsure
		}
		col.AppendInt(nanos / 1e9 * 1000)
	case catalog.Timestamp, catalog.TimestampLTZ:
		ts, ok := textvalue.ParseTimestamp(text, d.opts.ISOTimestamps, t.Kind == catalog.TimestampLTZ)
		if !ok {
			return errUnsure
		}
		if _, nanos := ts.EpochMillis(); t.Precision > 3 && t.Precision <= 6 && nanos%1000 != 0 {
			// Flink's TimestampData keeps nanoseconds below a TIMESTAMP(4..6) column's
			// precision, which the column's microseconds cannot hold.
			return errUnsure
		}
		col.AppendTimestamp(ts)
	default:
		return errUnsure
	}
	return nil
}

// token is the kind of a scalar JSON token, as Jackson's JsonToken.
type token uint8

const (
	tokString token = iota
	tokInt
	tokFloat
	tokTrue
	tokFalse
)

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// parseJavaInt is JsonParser#getLongValue for an integer literal, or (str) Long.parseLong of
// the trimmed text (javatext.ParseInt: Java's ASCII forms; other Unicode digits are left to
// Flink).
func parseJavaInt(b []byte, str bool) (int64, bool) {
	if str {
		b = textvalue.JavaTrim(b)
	}
	v, err := javatext.ParseInt(textvalue.BytesString(b), 64)
	return v, err == nil
}

// integer is INT's (BIGINT's with long) value of a token: JsonParser#getIntValue/getLongValue
// for numbers (JSON floats truncated toward zero, their range checked as doubles), else
// Integer/Long.parseX of the trimmed text.
func (d *Decoder) integer(text []byte, tok token, long bool) (int64, bool) {
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	if long {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	switch tok {
	case tokInt, tokString:
		v, ok := parseJavaInt(text, tok == tokString)
		return v, ok && v >= lo && v <= hi
	case tokFloat:
		f, err := strconv.ParseFloat(textvalue.BytesString(text), 64)
		if err != nil && !isRange(err) {
			return 0, false
		}
		// ParserBase#convertNumberToInt/Long: d < MIN or d > MAX (as doubles) overflows;
		// (long) d saturates at 2^63, which the check lets through.
		if math.IsInf(f, 0) || f < float64(lo) || f > float64(hi) {
			return 0, false
		}
		if long && f >= 0x1p63 {
			return math.MaxInt64, true
		}
		return int64(f), true
	}
	return 0, false
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// treeFloat says whether the tree deserializer gives a JSON number token the same FLOAT or
// DOUBLE (bits) as the streaming parser's v: it reads the number as a double (or BigDecimal)
// first and casts that to float, and it has no negative zero (from "-0", and from "-0.0" when
// floats are BigDecimals).
func (d *Decoder) treeFloat(text []byte, v float64, bits int) bool {
	if v == 0 && len(text) > 0 && text[0] == '-' {
		return false
	}
	if bits == 32 {
		w, ok := parseJavaFloat(text, 64)
		return ok && float64(float32(w)) == v
	}
	return true
}

// parseJavaFloat is JsonParser#getFloatValue/getDoubleValue for a JSON number (Java's parse of
// the literal, rounded once to the type), or Float/Double.parseFloat of a string's trimmed text
// (javatext.ParseDouble: Java's grammar, "NaN", "1.5f" and hex floats included). Overflow gives
// ±Inf and underflow 0, as in Java.
func parseJavaFloat(b []byte, bits int) (float64, bool) {
	return javatext.ParseDouble(b, bits)
}
