// Package avroformat encodes Arrow rows as records of Flink's avro format, byte for byte as
// flink-avro 2.1.1's AvroRowDataSerializationSchema writes them (RowDataToAvroConverters, then
// Avro 1.11's GenericDatumWriter and BinaryEncoder): the row's fields in order, a nullable field
// as the union [null, T] (index 0 for NULL, 1 before a value), ints and longs as zig-zag varints
// (TINYINT and SMALLINT widened to ints; DATE and TIME(p <= 3) ints; TIMESTAMP(p <= 3) a long of
// epoch milliseconds), floats and doubles little-endian with their bits, booleans one byte,
// strings and bytes a long length then the bytes, DECIMAL its unscaled value's minimal
// big-endian two's complement (BigInteger#toByteArray) as bytes.
package avroformat

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/textvalue"
)

// Options are the avro format's options that change what is written.
type Options struct {
	// LegacyTimestamps is 'avro.timestamp_mapping.legacy' (Flink's default true): TIMESTAMP_LTZ
	// has no Avro type then. Either way timestamps are written as epoch milliseconds.
	LegacyTimestamps bool
}

// Encoder writes rows of one row type as Avro records.
type Encoder struct {
	types []catalog.Type
	big   big.Int
	text  []byte
	units []uint16
}

// NewEncoder returns an encoder of rows of the named fields. Types it does not take (ROW, ARRAY,
// MAP, TIMESTAMP(p > 3), ...) are an error: a sink with them keeps Flink's serializer.
func NewEncoder(names []string, types []catalog.Type, opts Options) (*Encoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("avro encoder: %d names for %d types", len(names), len(types))
	}
	for i, t := range types {
		switch t.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float,
			catalog.Double, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Decimal:
		case catalog.Time, catalog.Timestamp:
			if t.Precision > 3 {
				return nil, fmt.Errorf("avro encoder: field %s of type %s is encoded by Flink", names[i], t)
			}
		case catalog.TimestampLTZ:
			if opts.LegacyTimestamps || t.Precision > 3 {
				return nil, fmt.Errorf("avro encoder: field %s of type %s is encoded by Flink", names[i], t)
			}
		default:
			return nil, fmt.Errorf("avro encoder: field %s of type %s is encoded by Flink", names[i], t)
		}
	}
	return &Encoder{types: types}, nil
}

// AppendRecords appends the records of b's rows (its first columns, one per field) to body and
// each record's end to ends.
func (e *Encoder) AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error) {
	for r := range int(b.NumRows()) {
		for i, t := range e.types {
			col := b.Column(i)
			if t.Nullable {
				if col.IsNull(r) {
					body = append(body, 0) // union index 0: null
					continue
				}
				body = append(body, 2) // union index 1
			} else if col.IsNull(r) {
				return nil, nil, fmt.Errorf("avro encoder: row %d: NULL in the NOT NULL field %d", r, i)
			}
			var err error
			if body, err = e.appendValue(body, t, col, r); err != nil {
				return nil, nil, fmt.Errorf("avro encoder: row %d field %d: %w", r, i, err)
			}
		}
		if len(body) >= 1<<31 {
			return nil, nil, fmt.Errorf("avro encoder: %d bytes of records in one batch", len(body))
		}
		ends = append(ends, uint32(len(body)))
	}
	return body, ends, nil
}

func (e *Encoder) appendValue(dst []byte, t catalog.Type, col arrow.Array, r int) ([]byte, error) {
	switch a := col.(type) {
	case *array.Boolean:
		if a.Value(r) {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case *array.Int8:
		return zigzag(dst, int64(a.Value(r))), nil
	case *array.Int16:
		return zigzag(dst, int64(a.Value(r))), nil
	case *array.Int32:
		return zigzag(dst, int64(a.Value(r))), nil
	case *array.Int64:
		return zigzag(dst, a.Value(r)), nil
	case *array.Date32:
		return zigzag(dst, int64(a.Value(r))), nil
	case *array.Time32:
		return zigzag(dst, int64(a.Value(r))), nil
	case *array.Timestamp:
		ms := int64(a.Value(r))
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			ms = textvalue.FloorDiv(ms, 1000)
		}
		return zigzag(dst, ms), nil
	case *array.Float32:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(a.Value(r))), nil
	case *array.Float64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(a.Value(r))), nil
	case *array.String:
		v := a.Value(r)
		s := unsafe.Slice(unsafe.StringData(v), len(v)) // read only
		if !utf8.ValidString(v) {
			e.text, e.units = textvalue.AppendJavaString(e.text[:0], e.units[:0], s)
			s = e.text
		}
		return append(zigzag(dst, int64(len(s))), s...), nil
	case *array.Binary:
		v := a.Value(r)
		return append(zigzag(dst, int64(len(v))), v...), nil
	case *array.Decimal128:
		v := a.Value(r)
		e.big.Set(v.BigInt())
		e.text = appendTwosComplement(e.text[:0], &e.big)
		return append(zigzag(dst, int64(len(e.text))), e.text...), nil
	}
	return nil, fmt.Errorf("no Avro encoding of Arrow type %s for %s", col.DataType(), t)
}

// zigzag appends v as Avro's zig-zag varint.
func zigzag(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// appendTwosComplement appends v as BigInteger#toByteArray: big-endian two's complement, in the
// fewest bytes that keep its sign (one byte for 0).
func appendTwosComplement(dst []byte, v *big.Int) []byte {
	if v.Sign() >= 0 {
		b := v.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			dst = append(dst, 0)
		}
		return append(dst, b...)
	}
	// -v - 1 has the complement's bits inverted.
	m := new(big.Int).Neg(v)
	m.Sub(m, big.NewInt(1))
	b := m.Bytes()
	start := len(dst)
	if len(b) == 0 || b[0]&0x80 != 0 {
		dst = append(dst, 0)
	}
	dst = append(dst, b...)
	for i := start; i < len(dst); i++ {
		dst[i] = ^dst[i]
	}
	return dst
}
