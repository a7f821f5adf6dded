// Package rowdata transposes Flink BinaryRowData rows into Arrow column batches: the row edge
// into Sluice. The layout it reads is described in catalog/binaryrow.
package rowdata

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/catalog/binaryrow"
)

// Decoder turns buffers of BinaryRowData bytes of one row type into Arrow record batches. The
// batch has one column per field plus a final int8 RowKind column (catalog.RowKindColumn).
type Decoder struct {
	types  []catalog.Type
	schema *arrow.Schema
	mem    memory.Allocator
	arity  int
}

// NewDecoder returns a decoder for rows with the given field names and types.
func NewDecoder(names []string, types []catalog.Type, mem memory.Allocator) (*Decoder, error) {
	for i, t := range types {
		if ok, why := binaryrow.Supported(t); !ok {
			return nil, fmt.Errorf("rowdata decoder: field %d (%s): %s", i, names[i], why)
		}
	}
	s, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return nil, fmt.Errorf("rowdata decoder: %w", err)
	}
	fields := append(s.Fields(), arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	return &Decoder{types: types, schema: arrow.NewSchema(fields, nil), mem: mem, arity: len(types)}, nil
}

// Types are the Flink types of the fields the decoder reads.
func (d *Decoder) Types() []catalog.Type { return d.types }

// Schema is the schema of the batches the decoder returns.
func (d *Decoder) Schema() *arrow.Schema { return d.schema }

// Decode reads len(offsets)-1 rows; row i occupies data[offsets[i]:offsets[i+1]]. The caller
// keeps data alive only for the call: the batch owns copies of every value.
func (d *Decoder) Decode(data []byte, offsets []int32) (arrow.RecordBatch, error) {
	n := len(offsets) - 1
	if n < 0 {
		return nil, fmt.Errorf("rowdata decode: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := d.Check(data, starts, ends); err != nil {
		return nil, err
	}
	all := make([]int, d.arity)
	for i := range all {
		all[i] = i
	}
	cols, err := d.DecodeColumns(data, starts, ends, all)
	if err != nil {
		return nil, err
	}
	cols = append(cols, d.RowKinds(data, starts))
	rec := array.NewRecordBatch(d.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// Check verifies that every row [starts[r], ends[r]) lies in data and holds at least the fixed
// part of the row type. Decoding rows that passed Check never reads outside them.
func (d *Decoder) Check(data []byte, starts, ends []int32) error {
	fixed := binaryrow.FixedSize(d.arity)
	for r := range starts {
		s, e := starts[r], ends[r]
		if s < 0 || e < s || int(e) > len(data) {
			return fmt.Errorf("rowdata decode: row %d spans [%d,%d) outside buffer of %d bytes", r, s, e, len(data))
		}
		if int(e-s) < fixed {
			return fmt.Errorf("rowdata decode: row %d has %d bytes, fewer than the %d of its fixed part", r, e-s, fixed)
		}
	}
	return nil
}

// DecodeColumns decodes the fields cols of the rows [starts[r], ends[r]) (rows already checked
// with Check), one array per requested field, in the order of cols.
func (d *Decoder) DecodeColumns(data []byte, starts, ends []int32, cols []int) ([]arrow.Array, error) {
	out := make([]arrow.Array, 0, len(cols))
	for _, i := range cols {
		c, err := d.decodeColumn(i, d.types[i], data, starts, ends)
		if err != nil {
			for _, p := range out {
				p.Release()
			}
			return nil, fmt.Errorf("rowdata decode: field %d (%s): %w", i, d.schema.Field(i).Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// RowKinds returns the RowKind byte of each row as an int8 column.
func (d *Decoder) RowKinds(data []byte, starts []int32) arrow.Array {
	n := len(starts)
	kinds := make([]int8, n)
	for r, s := range starts {
		kinds[r] = int8(data[s])
	}
	return array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(kinds))), n))}, nil, 0, 0))
}

// validity builds the validity bitmap of field i and returns it with the null count; a field
// without nulls in these rows gets no bitmap (nil), as Arrow allows.
func (d *Decoder) validity(i int, data []byte, starts []int32) (*memory.Buffer, int) {
	n := len(starts)
	nb, mask := binaryrow.NullByte(i), binaryrow.NullMask(i)
	any := byte(0)
	for _, s := range starts {
		any |= data[int(s)+nb]
	}
	if any&mask == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(d.mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	clear(bits)
	nulls := 0
	for r := 0; r < n; r++ {
		if data[int(starts[r])+nb]&mask != 0 {
			nulls++
		} else {
			bitutil.SetBit(bits, r)
		}
	}
	return buf, nulls
}

func (d *Decoder) decodeColumn(i int, t catalog.Type, data []byte, starts, ends []int32) (arrow.Array, error) {
	at, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	n := len(starts)
	valid, nulls := d.validity(i, data, starts)
	var validBytes []byte
	if valid != nil {
		defer valid.Release()
		validBytes = valid.Bytes()
	}
	slot := binaryrow.SlotOffset(d.arity, i)
	switch t.Kind {
	case catalog.Boolean:
		buf := memory.NewResizableBuffer(d.mem)
		buf.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := buf.Bytes()
		clear(bits)
		for r := 0; r < n; r++ {
			if data[int(starts[r])+slot] != 0 {
				bitutil.SetBit(bits, r)
			}
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.TinyInt:
		return newArray(at, n, valid, nulls, readFixed[int8](d.mem, data, starts, slot)), nil
	case catalog.SmallInt:
		return newArray(at, n, valid, nulls, readFixed[int16](d.mem, data, starts, slot)), nil
	case catalog.Int, catalog.Date, catalog.Time, catalog.IntervalYearMonth:
		return newArray(at, n, valid, nulls, readFixed[int32](d.mem, data, starts, slot)), nil
	case catalog.BigInt, catalog.IntervalDayTime:
		return newArray(at, n, valid, nulls, readFixed[int64](d.mem, data, starts, slot)), nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		if binaryrow.IsCompactTimestamp(t.Precision) {
			return newArray(at, n, valid, nulls, readFixed[int64](d.mem, data, starts, slot)), nil
		}
		buf, err := readTimestampMicros(d.mem, data, starts, ends, slot, validBytes)
		if err != nil {
			return nil, fmt.Errorf("column %d (%s): %w", i, t, err)
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.Float:
		return newArray(at, n, valid, nulls, readFixed[float32](d.mem, data, starts, slot)), nil
	case catalog.Double:
		return newArray(at, n, valid, nulls, readFixed[float64](d.mem, data, starts, slot)), nil
	case catalog.Decimal:
		buf, err := readDecimal(d.mem, t, data, starts, ends, slot, validBytes)
		if err != nil {
			return nil, err
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Raw:
		offs, vals, err := readVarLen(d.mem, data, starts, ends, slot, validBytes)
		if err != nil {
			return nil, err
		}
		defer offs.Release()
		defer vals.Release()
		return array.MakeFromData(array.NewData(at, n, []*memory.Buffer{valid, offs, vals}, nil, nulls, 0)), nil
	}
	return nil, fmt.Errorf("type %s cannot be decoded", t)
}

func newArray(at arrow.DataType, n int, valid *memory.Buffer, nulls int, values *memory.Buffer) arrow.Array {
	defer values.Release()
	return array.MakeFromData(array.NewData(at, n, []*memory.Buffer{valid, values}, nil, nulls, 0))
}

// fixedWidth is every Go type that a fixed-length slot holds.
type fixedWidth interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// readFixed copies the first sizeof(T) bytes of each row's slot (native byte order, as
// BinaryRowData writes them). A null field's slot is zero, so no branch is needed.
func readFixed[T fixedWidth](mem memory.Allocator, data []byte, starts []int32, slot int) *memory.Buffer {
	n := len(starts)
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * size)
	out := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n)
	for r := 0; r < n; r++ {
		out[r] = *(*T)(unsafe.Pointer(&data[int(starts[r])+slot]))
	}
	return buf
}

// varRef resolves a string/binary slot to the bytes it names inside row [start, end).
func varRef(data []byte, start, end int, slot int) ([]byte, error) {
	v := binary.LittleEndian.Uint64(data[start+slot:])
	if v&binaryrow.InlineMark != 0 {
		l := int((v >> 56) & 0x7f)
		if l > binaryrow.MaxInline {
			return nil, fmt.Errorf("inline length %d above %d", l, binaryrow.MaxInline)
		}
		return data[start+slot : start+slot+l], nil
	}
	off, l := int(v>>32), int(uint32(v))
	if off < 0 || l < 0 || start+off+l > end {
		return nil, fmt.Errorf("variable part [%d,+%d) outside row of %d bytes", off, l, end-start)
	}
	return data[start+off : start+off+l], nil
}

func readVarLen(mem memory.Allocator, data []byte, starts, ends []int32, slot int, valid []byte) (*memory.Buffer, *memory.Buffer, error) {
	n := len(starts)
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * 4)
	outOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	vals := make([]byte, 0, 16*n)
	for r := 0; r < n; r++ {
		outOffs[r] = int32(len(vals))
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		b, err := varRef(data, int(starts[r]), int(ends[r]), slot)
		if err != nil {
			offBuf.Release()
			return nil, nil, fmt.Errorf("row %d: %w", r, err)
		}
		vals = append(vals, b...)
	}
	outOffs[n] = int32(len(vals))
	return offBuf, memory.NewBufferBytes(vals), nil
}

// readTimestampMicros reads non-compact timestamps (BinaryRowData#getTimestamp: the slot holds
// offset << 32 | nanoOfMillisecond, the variable part the epoch millis) as microseconds.
// Precisions up to 6 hold whole microseconds; a value with nanoseconds below that is an error,
// not a silent truncation.
func readTimestampMicros(mem memory.Allocator, data []byte, starts, ends []int32, slot int, valid []byte) (*memory.Buffer, error) {
	n := len(starts)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			out[r] = 0
			continue
		}
		start := int(starts[r])
		v := binary.LittleEndian.Uint64(data[start+slot:])
		off, nanos := int(v>>32), int64(uint32(v))
		if off < 0 || start+off+8 > int(ends[r]) {
			buf.Release()
			return nil, fmt.Errorf("row %d: timestamp offset %d invalid in row of %d bytes", r, off, int(ends[r])-start)
		}
		if nanos >= 1_000_000 || nanos%1000 != 0 {
			buf.Release()
			return nil, fmt.Errorf("row %d: timestamp with %d nanoseconds of its millisecond, which a precision up to 6 cannot hold", r, nanos)
		}
		ms := int64(binary.LittleEndian.Uint64(data[start+off:]))
		out[r] = ms*1000 + nanos/1000
	}
	return buf, nil
}

func readDecimal(mem memory.Allocator, t catalog.Type, data []byte, starts, ends []int32, slot int, valid []byte) (*memory.Buffer, error) {
	n := len(starts)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 16)
	out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	for r := 0; r < n; r++ {
		start := int(starts[r])
		if t.IsCompactDecimal() {
			out[r] = decimal128.FromI64(int64(binary.LittleEndian.Uint64(data[start+slot:])))
			continue
		}
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			out[r] = decimal128.Num{}
			continue
		}
		v := binary.LittleEndian.Uint64(data[start+slot:])
		off, l := int(v>>32), int(uint32(v))
		if l < 1 || l > 16 || off < 0 || start+off+l > int(ends[r]) {
			buf.Release()
			return nil, fmt.Errorf("row %d: decimal bytes [%d,+%d) invalid in row of %d bytes", r, off, l, int(ends[r])-start)
		}
		out[r] = DecimalFromBigEndian(data[start+off : start+off+l])
	}
	return buf, nil
}

// DecimalFromBigEndian reads a big-endian two's-complement integer of at most 16 bytes, the
// form of BigInteger#toByteArray that Flink stores for non-compact decimals.
func DecimalFromBigEndian(b []byte) decimal128.Num {
	var full [16]byte
	fill := byte(0)
	if len(b) > 0 && b[0]&0x80 != 0 {
		fill = 0xff
	}
	for i := 0; i < 16-len(b); i++ {
		full[i] = fill
	}
	copy(full[16-len(b):], b)
	hi := int64(binary.BigEndian.Uint64(full[:8]))
	lo := binary.BigEndian.Uint64(full[8:])
	return decimal128.New(hi, lo)
}
