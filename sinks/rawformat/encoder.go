// Package rawformat encodes Arrow rows as records of Flink's raw format (flink-table-runtime
// 2.1.1, RawFormatSerializationSchema): a row's single field is the record's value, as is for
// strings (their UTF-8 bytes) and bytes, one byte for BOOLEAN (1 or 0) and TINYINT, and the
// number's bytes in the table's byte order ('raw.endianness') for the other number types. A
// NULL field is a record without a value (null, as Kafka's tombstones).
package rawformat

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/recordends"
)

// Options are the raw format's options that change what is encoded.
type Options struct {
	// LittleEndian is 'raw.endianness' = 'little-endian' (Flink's default is big-endian).
	LittleEndian bool
}

// Encoder writes rows of one single-field row type as raw records.
type Encoder struct {
	t     catalog.Type
	order binary.AppendByteOrder
}

// NewEncoder returns an encoder of rows of the one named field. Other row types, and RAW fields,
// are an error: a sink with them keeps Flink's serializer.
func NewEncoder(names []string, types []catalog.Type, opts Options) (*Encoder, error) {
	if len(names) != 1 || len(types) != 1 {
		return nil, fmt.Errorf("raw encoder: the raw format has one field, not %d", len(types))
	}
	switch types[0].Kind {
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Boolean, catalog.TinyInt,
		catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double:
	default:
		return nil, fmt.Errorf("raw encoder: field %s of type %s is encoded by Flink", names[0], types[0])
	}
	e := &Encoder{t: types[0], order: binary.BigEndian}
	if opts.LittleEndian {
		e.order = binary.LittleEndian
	}
	return e, nil
}

// AppendRecords appends the record values of b's rows (b's one column is the field) to body, and
// each record's end in body to ends, with recordends.NullValue set for a NULL field, whose record has no
// value (nothing is appended for it).
func (e *Encoder) AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error) {
	col := b.Column(0)
	n := col.Len()
	switch a := col.(type) {
	case *array.String:
		for r := range n {
			if a.IsValid(r) {
				body = append(body, a.Value(r)...)
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Binary:
		for r := range n {
			if a.IsValid(r) {
				body = append(body, a.Value(r)...)
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Boolean:
		for r := range n {
			if a.IsValid(r) {
				body = append(body, boolByte(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Int8:
		for r := range n {
			if a.IsValid(r) {
				body = append(body, byte(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Int16:
		for r := range n {
			if a.IsValid(r) {
				body = e.order.AppendUint16(body, uint16(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Int32:
		for r := range n {
			if a.IsValid(r) {
				body = e.order.AppendUint32(body, uint32(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Int64:
		for r := range n {
			if a.IsValid(r) {
				body = e.order.AppendUint64(body, uint64(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Float32:
		for r := range n {
			if a.IsValid(r) {
				body = e.order.AppendUint32(body, math.Float32bits(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	case *array.Float64:
		for r := range n {
			if a.IsValid(r) {
				body = e.order.AppendUint64(body, math.Float64bits(a.Value(r)))
			}
			ends = appendEnd(ends, body, a.IsNull(r))
		}
	default:
		return nil, nil, fmt.Errorf("raw encoder: a %s column for field type %s", col.DataType(), e.t)
	}
	if err := recordends.Check("raw encoder", len(body)); err != nil {
		return nil, nil, err
	}
	return body, ends, nil
}

// appendEnd appends the end of a record that ends where body does.
func appendEnd(ends []uint32, body []byte, null bool) []uint32 {
	end := uint32(len(body))
	if null {
		end |= recordends.NullValue
	}
	return append(ends, end)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
