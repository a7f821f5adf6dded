// Package rawformat decodes records of Flink's raw format (flink-table-runtime 2.1.1,
// RawFormatDeserializationSchema) into Arrow columns: a record's value is its row's single
// field, as is for strings (UTF-8) and bytes, or one fixed-width number in the table's byte
// order ('raw.endianness').
//
// A record whose value is empty is left to Flink's deserializer: the bytes handed over do not
// say whether it was an empty value or none at all (a null field in Flink), and an empty value
// of a number type is Flink's error. A value of the wrong length for its number type is Flink's
// error too ("Size of data received for deserializing ... is not ..."), so it is left to Flink as
// well, which fails the job as stock Flink does.
package rawformat

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// Options are the raw format's options that change what is decoded.
type Options struct {
	// LittleEndian is 'raw.endianness' = 'little-endian' (Flink's default is big-endian).
	LittleEndian bool
}

// Decoder decodes the records of one single-field row type. It is not safe for concurrent use.
type Decoder struct {
	t      catalog.Type
	width  int // the byte width of a number type; 0 for strings and bytes
	order  binary.ByteOrder
	schema *arrow.Schema
	// bytes holds the values of the records taken so far, back to back; ends their ends (for
	// strings and bytes).
	bytes []byte
	ends  []int32
	rows  int
}

// Width is the number of bytes of a value of type t in the raw format (0: any number, for strings
// and bytes), and whether the format takes the type natively.
func Width(t catalog.Type) (int, bool) {
	switch t.Kind {
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		return 0, true
	case catalog.Boolean, catalog.TinyInt:
		return 1, true
	case catalog.SmallInt:
		return 2, true
	case catalog.Int, catalog.Float:
		return 4, true
	case catalog.BigInt, catalog.Double:
		return 8, true
	}
	return 0, false
}

// NewDecoder returns a decoder of records into rows of the one named field. Other row types, and
// RAW fields (whose values are Java-serialized objects), are an error: a table with them keeps
// Flink's deserializer.
func NewDecoder(names []string, types []catalog.Type, opts Options) (*Decoder, error) {
	if len(names) != 1 || len(types) != 1 {
		return nil, fmt.Errorf("raw decoder: the raw format has one field, not %d", len(types))
	}
	width, ok := Width(types[0])
	if !ok {
		return nil, fmt.Errorf("raw decoder: field %s of type %s is decoded by Flink", names[0], types[0])
	}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return nil, fmt.Errorf("raw decoder: %w", err)
	}
	d := &Decoder{t: types[0], width: width, schema: schema, order: binary.BigEndian}
	if opts.LittleEndian {
		d.order = binary.LittleEndian
	}
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
	if d.width > 0 {
		d.bytes = d.bytes[:d.rows*d.width]
		return
	}
	d.ends = d.ends[:d.rows]
	end := int32(0)
	if d.rows > 0 {
		end = d.ends[d.rows-1]
	}
	d.bytes = d.bytes[:end]
}

// Add decodes one record value into one row. ok is false for a record left to Flink's
// deserializer (an empty value, or a number of the wrong length), which added nothing.
func (d *Decoder) Add(value []byte) (rows int, ok bool) {
	if len(value) == 0 || (d.width > 0 && len(value) != d.width) {
		return 0, false
	}
	d.bytes = append(d.bytes, value...)
	if d.width == 0 {
		if len(d.bytes) > math.MaxInt32 {
			d.bytes = d.bytes[:len(d.bytes)-len(value)]
			return 0, false // past a batch's 32-bit string offsets; Flink's rows go in their own part
		}
		d.ends = append(d.ends, int32(len(d.bytes)))
	}
	d.rows++
	return 1, true
}

// Finish returns the rows decoded since the last Finish as a batch, and starts a new one.
func (d *Decoder) Finish(mem memory.Allocator) (arrow.RecordBatch, error) {
	n := d.rows
	col, err := d.column(mem, n)
	if err != nil {
		return nil, err
	}
	defer col.Release()
	d.bytes, d.ends, d.rows = d.bytes[:0], d.ends[:0], 0
	return array.NewRecordBatch(d.schema, []arrow.Array{col}, int64(n)), nil
}

// column builds the Arrow column of the n values taken, in typed loops per type.
func (d *Decoder) column(mem memory.Allocator, n int) (arrow.Array, error) {
	v := d.bytes
	switch b := array.NewBuilder(mem, d.schema.Field(0).Type).(type) {
	case *array.BooleanBuilder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(v[i] != 0)
		}
		return b.NewArray(), nil
	case *array.Int8Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(int8(v[i]))
		}
		return b.NewArray(), nil
	case *array.Int16Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(int16(d.order.Uint16(v[2*i:])))
		}
		return b.NewArray(), nil
	case *array.Int32Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(int32(d.order.Uint32(v[4*i:])))
		}
		return b.NewArray(), nil
	case *array.Int64Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(int64(d.order.Uint64(v[8*i:])))
		}
		return b.NewArray(), nil
	case *array.Float32Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(math.Float32frombits(d.order.Uint32(v[4*i:])))
		}
		return b.NewArray(), nil
	case *array.Float64Builder:
		defer b.Release()
		b.Reserve(n)
		for i := range n {
			b.UnsafeAppend(math.Float64frombits(d.order.Uint64(v[8*i:])))
		}
		return b.NewArray(), nil
	case *array.StringBuilder:
		defer b.Release()
		appendVarBytes(b.BinaryBuilder, v, d.ends)
		return b.NewArray(), nil
	case *array.BinaryBuilder:
		defer b.Release()
		appendVarBytes(b, v, d.ends)
		return b.NewArray(), nil
	case array.Builder:
		b.Release()
	}
	return nil, fmt.Errorf("raw decoder: no column of Arrow type %s", d.schema.Field(0).Type)
}

// appendVarBytes appends the values bytes[ends[i-1]:ends[i]] to a string or binary builder.
func appendVarBytes(b *array.BinaryBuilder, bytes []byte, ends []int32) {
	b.Reserve(len(ends))
	b.ReserveData(len(bytes))
	start := int32(0)
	for _, end := range ends {
		b.Append(bytes[start:end])
		start = end
	}
}
