package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
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
		if ok, why := Supported(t); !ok {
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
	fixed := FixedSize(d.arity)
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

// locator says where n values of one type lie in data: value r's slot (8 bytes in a row, the
// element width in an array) starts at pos[r]+add; offsets stored in a slot count from
// base[r], and a value's bytes must end by end[r]. valid (nil: no nulls) marks the non-null
// values; readers never look at the slot of a null value, so a null nested row needs no bytes.
type locator struct {
	pos, base, end []int32
	add            int
	valid          *memory.Buffer
	nulls          int
	// unread marks values whose slots must not be read when null: fields of nested rows
	// whose row is NULL have no bytes at all. Other null slots hold zero, as Flink's writers
	// leave them, and are read without a branch.
	unread bool
}

// isValid reports whether value r is not null.
func (l *locator) isValid(r int) bool { return l.valid == nil || bitutil.BitIsSet(l.valid.Bytes(), r) }

// validBytes is the validity bitmap, nil when there are no nulls.
func (l *locator) validBytes() []byte {
	if l.valid == nil {
		return nil
	}
	return l.valid.Bytes()
}

// rowField locates field i of the rows [starts[r], ends[r]) of the given arity; rows that
// parent marks null (nil: none) make the field null too.
func (d *Decoder) rowField(data []byte, starts, ends []int32, arity, i int, parent []byte) locator {
	return locator{pos: starts, base: starts, end: ends, add: SlotOffset(arity, i),
		valid: d.nullBits(data, starts, NullByte(i), NullMask(i), parent), unread: parent != nil}
}

// nullBits builds a validity bitmap from the null flag at starts[r]+nb (mask) of every value
// not already null in parent; it returns nil when nothing is null, as Arrow allows.
func (d *Decoder) nullBits(data []byte, starts []int32, nb int, mask byte, parent []byte) *memory.Buffer {
	n := len(starts)
	if parent == nil {
		any := byte(0)
		for _, s := range starts {
			any |= data[int(s)+nb]
		}
		if any&mask == 0 {
			return nil
		}
	}
	buf := memory.NewResizableBuffer(d.mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	clear(bits)
	for r := 0; r < n; r++ {
		if (parent == nil || bitutil.BitIsSet(parent, r)) && data[int(starts[r])+nb]&mask == 0 {
			bitutil.SetBit(bits, r)
		}
	}
	return buf
}

func (d *Decoder) decodeColumn(i int, t catalog.Type, data []byte, starts, ends []int32) (arrow.Array, error) {
	loc := d.rowField(data, starts, ends, d.arity, i, nil)
	return d.decodeValues(t, data, loc)
}

// decodeValues reads the values loc names as one Arrow array of t; it takes over loc.valid.
func (d *Decoder) decodeValues(t catalog.Type, data []byte, loc locator) (arrow.Array, error) {
	if loc.valid != nil {
		defer loc.valid.Release()
		loc.nulls = len(loc.pos) - bitutil.CountSetBits(loc.valid.Bytes(), 0, len(loc.pos))
	}
	at, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	n := len(loc.pos)
	valid, nulls := loc.valid, loc.nulls
	switch t.Kind {
	case catalog.Boolean:
		buf := memory.NewResizableBuffer(d.mem)
		buf.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := buf.Bytes()
		clear(bits)
		for r := 0; r < n; r++ {
			if (!loc.unread || loc.isValid(r)) && data[int(loc.pos[r])+loc.add] != 0 {
				bitutil.SetBit(bits, r)
			}
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.TinyInt:
		return newArray(at, n, valid, nulls, readFixed[int8](d.mem, data, &loc)), nil
	case catalog.SmallInt:
		return newArray(at, n, valid, nulls, readFixed[int16](d.mem, data, &loc)), nil
	case catalog.Int, catalog.Date, catalog.Time, catalog.IntervalYearMonth:
		return newArray(at, n, valid, nulls, readFixed[int32](d.mem, data, &loc)), nil
	case catalog.BigInt, catalog.IntervalDayTime:
		return newArray(at, n, valid, nulls, readFixed[int64](d.mem, data, &loc)), nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		if IsCompactTimestamp(t.Precision) {
			return newArray(at, n, valid, nulls, readFixed[int64](d.mem, data, &loc)), nil
		}
		if t.IsNanoTimestamp() {
			ms, nanos, err := readTimestampNanos(d.mem, data, &loc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t, err)
			}
			if valid != nil {
				valid.Retain() // MakeNanoTimestamps takes a reference over; loc's is released above
			}
			return column.MakeNanoTimestamps(at, n, valid, ms, nanos), nil
		}
		buf, err := readTimestampMicros(d.mem, data, &loc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.Float:
		return newArray(at, n, valid, nulls, readFixed[float32](d.mem, data, &loc)), nil
	case catalog.Double:
		return newArray(at, n, valid, nulls, readFixed[float64](d.mem, data, &loc)), nil
	case catalog.Decimal:
		buf, err := readDecimal(d.mem, t, data, &loc)
		if err != nil {
			return nil, err
		}
		return newArray(at, n, valid, nulls, buf), nil
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Raw:
		offs, vals, err := readVarLen(d.mem, data, &loc)
		if err != nil {
			return nil, err
		}
		defer offs.Release()
		defer vals.Release()
		return owned(array.NewData(at, n, []*memory.Buffer{valid, offs, vals}, nil, nulls, 0)), nil
	case catalog.Row:
		return d.decodeRows(t, at, data, &loc)
	case catalog.Array:
		return d.decodeArrays(t, at, data, &loc)
	case catalog.Map:
		return d.decodeMaps(t, at, data, &loc)
	}
	return nil, fmt.Errorf("type %s cannot be decoded", t)
}

// owned wraps data in an array that holds its only reference.
func owned(data *array.Data) arrow.Array {
	defer data.Release()
	return array.MakeFromData(data)
}

func newArray(at arrow.DataType, n int, valid *memory.Buffer, nulls int, values *memory.Buffer) arrow.Array {
	defer values.Release()
	return owned(array.NewData(at, n, []*memory.Buffer{valid, values}, nil, nulls, 0))
}

// fixedWidth is every Go type that a fixed-length slot holds.
type fixedWidth interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// readFixed copies the first sizeof(T) bytes of each value's slot (native byte order, as
// BinaryRowData and BinaryArrayData write them); a null value reads as zero (its slot, or
// without reading when the slot does not exist).
func readFixed[T fixedWidth](mem memory.Allocator, data []byte, loc *locator) *memory.Buffer {
	n := len(loc.pos)
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * size)
	out := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n)
	pos, add := loc.pos, loc.add
	if loc.valid == nil || !loc.unread {
		for r := 0; r < n; r++ {
			out[r] = *(*T)(unsafe.Pointer(&data[int(pos[r])+add]))
		}
		return buf
	}
	valid := loc.valid.Bytes()
	for r := 0; r < n; r++ {
		if bitutil.BitIsSet(valid, r) {
			out[r] = *(*T)(unsafe.Pointer(&data[int(pos[r])+add]))
		} else {
			out[r] = 0
		}
	}
	return buf
}

// varRef resolves the string/binary slot at data[slot:] to the bytes it names: inside the slot,
// or at an offset from base that must end by end.
func varRef(data []byte, base, end int, slot int) ([]byte, error) {
	v := binary.LittleEndian.Uint64(data[slot:])
	if v&InlineMark != 0 {
		l := int((v >> 56) & 0x7f)
		if l > MaxInline {
			return nil, fmt.Errorf("inline length %d above %d", l, MaxInline)
		}
		return data[slot : slot+l], nil
	}
	off, l := int(v>>32), int(uint32(v))
	if off < 0 || l < 0 || base+off+l > end {
		return nil, fmt.Errorf("variable part [%d,+%d) outside value of %d bytes", off, l, end-base)
	}
	return data[base+off : base+off+l], nil
}

func readVarLen(mem memory.Allocator, data []byte, loc *locator) (*memory.Buffer, *memory.Buffer, error) {
	n := len(loc.pos)
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * 4)
	outOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	vals := make([]byte, 0, 16*n)
	valid := loc.validBytes()
	for r := 0; r < n; r++ {
		outOffs[r] = int32(len(vals))
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		b, err := varRef(data, int(loc.base[r]), int(loc.end[r]), int(loc.pos[r])+loc.add)
		if err != nil {
			offBuf.Release()
			return nil, nil, fmt.Errorf("row %d: %w", r, err)
		}
		if len(vals)+len(b) > math.MaxInt32 {
			offBuf.Release()
			return nil, nil, fmt.Errorf("row %d: more than 2 GiB of strings in one batch", r)
		}
		vals = append(vals, b...)
	}
	outOffs[n] = int32(len(vals))
	return offBuf, memory.NewBufferBytes(vals), nil
}

// readTimestampNanos reads non-compact timestamps of precision 7 to 9 as epoch millis and
// nanos of the millisecond (catalog.NanoTimestampArrow's fields).
func readTimestampNanos(mem memory.Allocator, data []byte, loc *locator) (msBuf, nanoBuf *memory.Buffer, err error) {
	n := len(loc.pos)
	msBuf, nanoBuf, ms, nanos := column.NewNanoTimestamps(mem, n)
	valid := loc.validBytes()
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			ms[r], nanos[r] = 0, 0
			continue
		}
		v, err := timestampSlot(data, loc, r)
		if err != nil {
			msBuf.Release()
			nanoBuf.Release()
			return nil, nil, err
		}
		ms[r], nanos[r] = v.ms, int32(v.nanos)
	}
	return msBuf, nanoBuf, nil
}

// timestampValue is one non-compact timestamp as BinaryRowData stores it.
type timestampValue struct{ ms, nanos int64 }

// timestampSlot reads value r of loc (BinaryRowData#getTimestamp: the slot holds
// offset << 32 | nanoOfMillisecond, the variable part the epoch millis), checking the offset
// and the nanos.
func timestampSlot(data []byte, loc *locator, r int) (timestampValue, error) {
	base := int(loc.base[r])
	v := binary.LittleEndian.Uint64(data[int(loc.pos[r])+loc.add:])
	off, nanos := int(v>>32), int64(uint32(v))
	if off < 0 || base+off+8 > int(loc.end[r]) {
		return timestampValue{}, fmt.Errorf("row %d: timestamp offset %d invalid in value of %d bytes", r, off, int(loc.end[r])-base)
	}
	if nanos >= 1_000_000 {
		return timestampValue{}, fmt.Errorf("row %d: timestamp with %d nanoseconds of its millisecond (at most 999,999)", r, nanos)
	}
	return timestampValue{ms: int64(binary.LittleEndian.Uint64(data[base+off:])), nanos: nanos}, nil
}

// readTimestampMicros reads non-compact timestamps (BinaryRowData#getTimestamp: the slot holds
// offset << 32 | nanoOfMillisecond, the variable part the epoch millis) as microseconds.
// Precisions up to 6 hold whole microseconds; a value with nanoseconds below that is an error,
// not a silent truncation.
func readTimestampMicros(mem memory.Allocator, data []byte, loc *locator) (*memory.Buffer, error) {
	n := len(loc.pos)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	valid := loc.validBytes()
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			out[r] = 0
			continue
		}
		v, err := timestampSlot(data, loc, r)
		if err == nil && v.nanos%1000 != 0 {
			err = fmt.Errorf("row %d: timestamp with %d nanoseconds of its millisecond, which a precision up to 6 cannot hold", r, v.nanos)
		}
		if err != nil {
			buf.Release()
			return nil, err
		}
		out[r] = v.ms*1000 + v.nanos/1000
	}
	return buf, nil
}

func readDecimal(mem memory.Allocator, t catalog.Type, data []byte, loc *locator) (*memory.Buffer, error) {
	n := len(loc.pos)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 16)
	out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	valid := loc.validBytes()
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			out[r] = decimal128.Num{}
			continue
		}
		slot := data[int(loc.pos[r])+loc.add:]
		if t.IsCompactDecimal() {
			out[r] = decimal128.FromI64(int64(binary.LittleEndian.Uint64(slot)))
			continue
		}
		base := int(loc.base[r])
		v := binary.LittleEndian.Uint64(slot)
		off, l := int(v>>32), int(uint32(v))
		if l < 1 || l > 16 || off < 0 || base+off+l > int(loc.end[r]) {
			buf.Release()
			return nil, fmt.Errorf("row %d: decimal bytes [%d,+%d) invalid in value of %d bytes", r, off, l, int(loc.end[r])-base)
		}
		out[r] = DecimalFromBigEndian(data[base+off : base+off+l])
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
