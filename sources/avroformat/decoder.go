// Package avroformat decodes records of Flink's avro format (flink-avro 2.1.1,
// AvroRowDataDeserializationSchema: Avro 1.11's GenericDatumReader and BinaryDecoder over the
// schema AvroSchemaConverter derives from the row type, then AvroToRowDataConverters) into Arrow
// columns, with the values Flink produces.
//
// The schema is the row's fields in order, a nullable type being the union [null, T]. Binary
// encoding: int and long as zig-zag varints, float and double little-endian, boolean one byte (1
// is true, any other byte false), string and bytes a long length then the bytes, DECIMAL bytes
// holding the unscaled value big-endian in two's complement, DATE an int (epoch day), TIME an int
// (millisecond of the day), TIMESTAMP(p <= 3) a long (epoch millisecond). TINYINT and SMALLINT
// are ints Flink narrows as Java's byteValue and shortValue do. Bytes after the record are
// ignored, as Avro's decoder ignores them.
//
// A record is left to Flink's deserializer, which decodes it with its errors, when anything is
// off: a union index other than 0 or 1, a varint Avro would read with overflow, a length past
// the record or negative, a string that is not UTF-8 (Flink replaces its bytes), an empty
// decimal, or a NULL for a NOT NULL column.
//
// Bytes after a record are not ignored but kept: Flink's AvroDeserializationSchema reads every
// record of a source subtask through one buffered BinaryDecoder, which holds on to the bytes a
// record left and reads them first for the next record. So once a record has bytes after it,
// every later record is decoded differently by Flink, and the decoder leaves them all to Flink's
// deserializer (the same instance, which carries those bytes on).
package avroformat

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/textvalue"
)

// Options are the avro format's options that change what is decoded.
type Options struct {
	// LegacyTimestamps is 'avro.timestamp_mapping.legacy' (Flink's default true): TIMESTAMP is
	// timestamp-millis and TIMESTAMP_LTZ has no Avro type; else TIMESTAMP is
	// local-timestamp-millis and TIMESTAMP_LTZ timestamp-millis. Both are a long of epoch
	// milliseconds.
	LegacyTimestamps bool
}

// Decoder decodes the records of one row type. It is not safe for concurrent use.
type Decoder struct {
	textvalue.RowSet
	dec big.Int
	// misaligned is set once a record had bytes after it: Flink's decoder reads them into the
	// next record, so every later record is Flink's.
	misaligned bool
}

// NewDecoder returns a decoder of records into rows of the named fields. Types the decoder does
// not take (ROW, ARRAY, MAP, TIMESTAMP(p > 3), ...) are an error: a table with them keeps
// Flink's deserializer.
func NewDecoder(names []string, types []catalog.Type, opts Options) (*Decoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("avro decoder: %d names for %d types", len(names), len(types))
	}
	d := &Decoder{}
	for i, t := range types {
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float,
			catalog.Double, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date:
		case catalog.Decimal:
			if t.Precision < 1 || t.Precision > 38 {
				return nil, fmt.Errorf("avro decoder: field %s of type %s", names[i], t)
			}
		case catalog.Time, catalog.Timestamp:
			if t.Precision > 3 {
				return nil, fmt.Errorf("avro decoder: field %s of type %s is decoded by Flink", names[i], t)
			}
		case catalog.TimestampLTZ:
			if opts.LegacyTimestamps || t.Precision > 3 {
				return nil, fmt.Errorf("avro decoder: field %s of type %s is decoded by Flink", names[i], t)
			}
		default:
			return nil, fmt.Errorf("avro decoder: field %s of type %s is decoded by Flink", names[i], t)
		}
	}
	rs, err := textvalue.NewRowSet(names, types)
	if err != nil {
		return nil, fmt.Errorf("avro decoder: %w", err)
	}
	d.RowSet = rs
	return d, nil
}

// Add decodes one record into one row. ok is false for a record left to Flink's deserializer
// (an empty one among them), which added nothing.
func (d *Decoder) Add(value []byte) (rows int, ok bool) {
	if len(value) == 0 || d.misaligned {
		return 0, false
	}
	r := reader{b: value}
	take := true
	for i := range d.Cols {
		switch d.field(&r, &d.Cols[i]) {
		case fieldMalformed:
			// Flink fails on the record (the job ends there), or reads it in a way not
			// followed here to its end: later records are Flink's too, to be safe.
			d.misaligned = true
			d.Rollback()
			return 0, false
		case fieldFlinks:
			take = false // read on, for where the record ends
		}
	}
	if r.pos != len(value) {
		d.misaligned = true
		take = false
	}
	if !take {
		d.Rollback()
		return 0, false
	}
	d.Commit()
	return 1, true
}

// What field makes of a field.
const (
	// fieldDecoded: decoded as Flink decodes it.
	fieldDecoded = iota
	// fieldFlinks: read, but its value is Flink's to make (the record goes to Flink).
	fieldFlinks
	// fieldMalformed: not readable here (Flink fails on it, or reads it in a way not
	// followed here).
	fieldMalformed
)

// field decodes one field into its column.
func (d *Decoder) field(r *reader, col *textvalue.Column) int {
	t := col.Type
	if t.Nullable {
		switch idx, ok, exact := r.int(); {
		case !ok || !exact || idx < 0 || idx > 1:
			return fieldMalformed
		case idx == 0:
			col.AppendNull()
			return fieldDecoded
		}
	}
	switch t.Kind {
	case catalog.Boolean:
		b, ok := r.byte()
		if !ok {
			return fieldMalformed
		}
		v := int64(0)
		if b == 1 {
			v = 1
		}
		col.AppendInt(v)
	case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.Date, catalog.Time:
		v, ok, exact := r.int()
		if !ok {
			return fieldMalformed
		}
		if !exact {
			return fieldFlinks
		}
		switch t.Kind {
		case catalog.TinyInt:
			v = int64(int8(v))
		case catalog.SmallInt:
			v = int64(int16(v))
		}
		col.AppendInt(v)
	case catalog.BigInt:
		v, ok, exact := r.long()
		if !ok {
			return fieldMalformed
		}
		if !exact {
			return fieldFlinks
		}
		col.AppendInt(v)
	case catalog.Timestamp, catalog.TimestampLTZ:
		ms, ok, exact := r.long()
		if !ok {
			return fieldMalformed
		}
		if !exact {
			return fieldFlinks
		}
		col.AppendTimestamp(textvalue.Timestamp{Day: floorDiv(ms, 86_400_000), Nanos: floorMod(ms, 86_400_000) * 1_000_000})
	case catalog.Float:
		b, ok := r.fixed(4)
		if !ok {
			return fieldMalformed
		}
		bits := binary.LittleEndian.Uint32(b)
		if bits&0x7f800000 == 0x7f800000 && bits&0x007fffff != 0 && bits&0x00400000 == 0 {
			// A signaling NaN: the column's float64 would make it quiet; Java keeps its bits.
			return fieldFlinks
		}
		col.AppendFloat(float64(math.Float32frombits(bits)))
	case catalog.Double:
		b, ok := r.fixed(8)
		if !ok {
			return fieldMalformed
		}
		col.AppendFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case catalog.Char, catalog.VarChar:
		b, ok := r.bytes()
		if !ok {
			return fieldMalformed
		}
		if !utf8.Valid(b) {
			return fieldFlinks // Java's decoding replaces the bytes
		}
		col.AppendBytes(b)
	case catalog.Binary, catalog.VarBinary:
		b, ok := r.bytes()
		if !ok {
			return fieldMalformed
		}
		col.AppendBytes(b)
	case catalog.Decimal:
		b, ok := r.bytes()
		if !ok || len(b) == 0 {
			return fieldMalformed // new BigInteger(new byte[0]) fails
		}
		twosComplement(&d.dec, b)
		n, fits := textvalue.FitDecimal(&d.dec, t.Scale, t.Precision, t.Scale)
		switch {
		case fits:
			col.AppendDecimal(n)
		case t.Nullable:
			col.AppendNull() // DecimalData.fromBigDecimal: null past the precision
		default:
			return fieldFlinks
		}
	default:
		return fieldMalformed
	}
	return fieldDecoded
}

// twosComplement sets v to the big-endian two's complement integer of b (new BigInteger(b)).
func twosComplement(v *big.Int, b []byte) {
	v.SetBytes(b)
	if b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// reader reads Avro's binary encoding from a record's bytes.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) byte() (byte, bool) {
	if r.pos >= len(r.b) {
		return 0, false
	}
	r.pos++
	return r.b[r.pos-1], true
}

// varint reads an unsigned varint of at most max bytes as Avro's readInt and readLong do: a
// last byte with its high bit set is malformed (ok false); one with bits past lastBits set
// loses them in Avro (exact false: the value is Flink's to make, the record still read).
func (r *reader) varint(max int, lastBits uint) (v uint64, ok, exact bool) {
	for i := 0; i < max; i++ {
		b, ok := r.byte()
		if !ok {
			return 0, false, false
		}
		if i == max-1 {
			if b >= 0x80 {
				return 0, false, false
			}
			exact = uint64(b) < 1<<lastBits
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, true, i < max-1 || exact
		}
	}
	return 0, false, false
}

// int is BinaryDecoder#readInt.
func (r *reader) int() (v int64, ok, exact bool) {
	u, ok, exact := r.varint(5, 4)
	if !ok {
		return 0, false, false
	}
	return int64(int32(uint32(u>>1) ^ -uint32(u&1))), true, exact
}

// long is BinaryDecoder#readLong.
func (r *reader) long() (v int64, ok, exact bool) {
	u, ok, exact := r.varint(10, 1)
	if !ok {
		return 0, false, false
	}
	return int64(u>>1) ^ -int64(u&1), true, exact
}

func (r *reader) fixed(n int) ([]byte, bool) {
	if len(r.b)-r.pos < n {
		return nil, false
	}
	r.pos += n
	return r.b[r.pos-n : r.pos], true
}

// bytes reads a string's or bytes' length (a long) and its bytes.
func (r *reader) bytes() ([]byte, bool) {
	n, ok, exact := r.long()
	if !ok || !exact || n < 0 || n > int64(len(r.b)-r.pos) {
		return nil, false
	}
	return r.fixed(int(n))
}
