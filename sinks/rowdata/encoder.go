// Package rowdata writes Arrow column batches as Flink BinaryRowData bytes: the row edge out
// of Sluice. Every byte matches what Flink's RowDataSerializer#toBinaryRow writes for the same
// row (header, null bits, slots, variable part and its zeroed padding), so that Java wraps the
// bytes without touching a field and hashes of the rows agree with Flink's.
package rowdata

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/catalog/binaryrow"
	"github.com/sluice-project/sluice/exec/javatime"
)

// NullLayout says how a null DECIMAL with precision > 18 is written. Flink has two writers that
// differ only there: RowDataSerializer#toBinaryRow sets the null bit alone, while the code it
// generates for projections and operator outputs (key selectors included) also reserves the 16
// bytes of the variable part and points the slot at them with length 0. Hashes of the row
// differ, so key rows must use the generated code's layout.
type NullLayout int

const (
	// SerializerNulls is RowDataSerializer#toBinaryRow's layout.
	SerializerNulls NullLayout = iota
	// WriterNulls is the layout of Flink's generated projections (BinaryWriter null writes).
	WriterNulls
)

// Encoder writes batches of one row type as BinaryRowData.
type Encoder struct {
	types []catalog.Type
	arity int
	nulls NullLayout
	// sizes and cursors are reused across batches: one entry per row.
	sizes   []int32
	cursors []int32
}

// NewEncoder returns an encoder for rows of the given field types, in RowDataSerializer's
// layout.
func NewEncoder(types []catalog.Type) (*Encoder, error) {
	return NewEncoderWithNulls(types, SerializerNulls)
}

// NewEncoderWithNulls returns an encoder that writes nulls in the given layout.
func NewEncoderWithNulls(types []catalog.Type, nulls NullLayout) (*Encoder, error) {
	for i, t := range types {
		if ok, why := binaryrow.Supported(t); !ok {
			return nil, fmt.Errorf("rowdata encoder: field %d: %s", i, why)
		}
	}
	return &Encoder{types: types, arity: len(types), nulls: nulls}, nil
}

// Fields is the number of fields of the rows the encoder writes.
func (e *Encoder) Fields() int { return e.arity }

// Layout computes where each row of cols starts when encoded: offsets gets len+1 entries and
// the total byte size is offsets[n]. cols are the field columns in order.
func (e *Encoder) Layout(cols []arrow.Array, n int, offsets []int32) error {
	if len(cols) != e.arity {
		return fmt.Errorf("rowdata encode: %d columns for %d fields", len(cols), e.arity)
	}
	if len(offsets) < n+1 {
		return fmt.Errorf("rowdata encode: offsets hold %d entries, need %d", len(offsets), n+1)
	}
	fixed := int32(binaryrow.FixedSize(e.arity))
	if cap(e.sizes) < n {
		e.sizes = make([]int32, n)
	}
	sizes := e.sizes[:n]
	for r := range sizes {
		sizes[r] = fixed
	}
	for i, t := range e.types {
		c := cols[i]
		switch t.Kind {
		case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Raw:
			offs := varOffsets(c)
			for r := 0; r < n; r++ {
				if c.IsNull(r) {
					continue
				}
				if l := offs[r+1] - offs[r]; l > binaryrow.MaxInline || t.Kind == catalog.Raw {
					sizes[r] += int32(binaryrow.RoundUp8(int(l)))
				}
			}
		case catalog.Timestamp, catalog.TimestampLTZ:
			// Non-compact timestamps keep their epoch millis in the variable part.
			if !binaryrow.IsCompactTimestamp(t.Precision) {
				for r := 0; r < n; r++ {
					if e.nulls == WriterNulls || !c.IsNull(r) {
						sizes[r] += 8
					}
				}
			}
		case catalog.Decimal:
			if !t.IsCompactDecimal() {
				for r := 0; r < n; r++ {
					if e.nulls == WriterNulls || !c.IsNull(r) {
						sizes[r] += 16
					}
				}
			}
		}
	}
	var total int64
	for r := 0; r < n; r++ {
		offsets[r] = int32(total)
		total += int64(sizes[r])
	}
	if total > 1<<31-1 {
		return fmt.Errorf("rowdata encode: batch of %d bytes exceeds 2 GiB", total)
	}
	offsets[n] = int32(total)
	return nil
}

// Encode writes n rows into dst at the offsets that Layout computed; dst must hold
// offsets[n] bytes. kinds holds each row's RowKind byte, or is nil for all-insert.
func (e *Encoder) Encode(cols []arrow.Array, kinds []int8, n int, offsets []int32, dst []byte) error {
	total := int(offsets[n])
	if len(dst) < total {
		return fmt.Errorf("rowdata encode: buffer of %d bytes, need %d", len(dst), total)
	}
	dst = dst[:total]
	clear(dst)
	if kinds != nil {
		for r := 0; r < n; r++ {
			dst[offsets[r]] = byte(kinds[r])
		}
	}
	fixed := int32(binaryrow.FixedSize(e.arity))
	if cap(e.cursors) < n {
		e.cursors = make([]int32, n)
	}
	cursors := e.cursors[:n]
	for r := range cursors {
		cursors[r] = fixed
	}
	for i, t := range e.types {
		if err := e.encodeColumn(i, t, cols[i], n, offsets, cursors, dst); err != nil {
			return fmt.Errorf("rowdata encode: field %d (%s): %w", i, t, err)
		}
	}
	return nil
}

func (e *Encoder) encodeColumn(i int, t catalog.Type, c arrow.Array, n int, offsets, cursors []int32, dst []byte) error {
	if n == 0 {
		return nil // nothing to write; an empty column may have no value buffers at all
	}
	slot := binaryrow.SlotOffset(e.arity, i)
	nb, mask := binaryrow.NullByte(i), binaryrow.NullMask(i)
	// null(r) reads the validity bitmap directly: no interface call per row.
	var vbits []byte
	voff := 0
	if c.NullN() > 0 {
		vbits, voff = c.Data().Buffers()[0].Bytes(), c.Data().Offset()
		for r := 0; r < n; r++ {
			if bitutil.BitIsNotSet(vbits, voff+r) {
				dst[int(offsets[r])+nb] |= mask
			}
		}
	}
	null := func(r int) bool { return vbits != nil && bitutil.BitIsNotSet(vbits, voff+r) }
	switch t.Kind {
	case catalog.Boolean:
		d := c.Data()
		bools, boff := d.Buffers()[1].Bytes(), d.Offset()
		for r := 0; r < n; r++ {
			if bitutil.BitIsSet(bools, boff+r) && !null(r) {
				dst[int(offsets[r])+slot] = 1
			}
		}
	case catalog.TinyInt:
		writeFixed(c.(*array.Int8).Int8Values(), vbits, voff, offsets, slot, dst)
	case catalog.SmallInt:
		writeFixed(c.(*array.Int16).Int16Values(), vbits, voff, offsets, slot, dst)
	case catalog.Int, catalog.IntervalYearMonth:
		writeFixed(c.(*array.Int32).Int32Values(), vbits, voff, offsets, slot, dst)
	case catalog.IntervalDayTime:
		writeFixed(c.(*array.Duration).DurationValues(), vbits, voff, offsets, slot, dst)
	case catalog.Date:
		writeFixed(c.(*array.Date32).Date32Values(), vbits, voff, offsets, slot, dst)
	case catalog.Time:
		writeFixed(c.(*array.Time32).Time32Values(), vbits, voff, offsets, slot, dst)
	case catalog.BigInt:
		writeFixed(c.(*array.Int64).Int64Values(), vbits, voff, offsets, slot, dst)
	case catalog.Timestamp, catalog.TimestampLTZ:
		vals := c.(*array.Timestamp).TimestampValues()
		if binaryrow.IsCompactTimestamp(t.Precision) {
			writeFixed(vals, vbits, voff, offsets, slot, dst)
			break
		}
		// BinaryWriter#writeTimestamp: the millis in the variable part, the slot holding
		// (offset << 32 | nanoOfMillisecond); a null reserves its 8 bytes too.
		for r := 0; r < n; r++ {
			row := int(offsets[r])
			cur := int(cursors[r])
			if null(r) {
				if e.nulls == WriterNulls {
					binary.LittleEndian.PutUint64(dst[row+slot:], uint64(cur)<<32)
					cursors[r] += 8
				}
				continue
			}
			us := int64(vals[r])
			ms, nanoOfMilli := javatime.SplitMicros(us)
			binary.LittleEndian.PutUint64(dst[row+cur:], uint64(ms))
			binary.LittleEndian.PutUint64(dst[row+slot:], uint64(cur)<<32|uint64(nanoOfMilli))
			cursors[r] += 8
		}
	case catalog.Float:
		writeFixed(c.(*array.Float32).Float32Values(), vbits, voff, offsets, slot, dst)
	case catalog.Double:
		writeFixed(c.(*array.Float64).Float64Values(), vbits, voff, offsets, slot, dst)
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Raw:
		// RAW values always go to the variable part (AbstractBinaryWriter#writeRawValue).
		inline := t.Kind != catalog.Raw
		offs := varOffsets(c)
		vals := varBytes(c)
		base := offs[0] // ValueBytes starts at the first value of a sliced array
		for r := 0; r < n; r++ {
			if null(r) {
				continue
			}
			v := vals[offs[r]-base : offs[r+1]-base]
			row := int(offsets[r])
			if inline && len(v) <= binaryrow.MaxInline {
				copy(dst[row+slot:], v)
				dst[row+slot+7] = 0x80 | byte(len(v))
				continue
			}
			cur := int(cursors[r])
			copy(dst[row+cur:], v)
			binary.LittleEndian.PutUint64(dst[row+slot:], uint64(cur)<<32|uint64(len(v)))
			cursors[r] += int32(binaryrow.RoundUp8(len(v)))
		}
	case catalog.Decimal:
		vals := c.(*array.Decimal128).Values()
		for r := 0; r < n; r++ {
			row := int(offsets[r])
			if null(r) {
				if e.nulls == WriterNulls && !t.IsCompactDecimal() {
					binary.LittleEndian.PutUint64(dst[row+slot:], uint64(cursors[r])<<32)
					cursors[r] += 16
				}
				continue
			}
			if t.IsCompactDecimal() {
				if !vals[r].FitsInPrecision(18) {
					return fmt.Errorf("row %d: unscaled value %s does not fit DECIMAL(%d)", r, vals[r].BigInt(), t.Precision)
				}
				binary.LittleEndian.PutUint64(dst[row+slot:], uint64(vals[r].LowBits()))
				continue
			}
			b := DecimalToBigEndian(vals[r])
			cur := int(cursors[r])
			copy(dst[row+cur:], b)
			binary.LittleEndian.PutUint64(dst[row+slot:], uint64(cur)<<32|uint64(len(b)))
			cursors[r] += 16
		}
	default:
		return fmt.Errorf("type %s cannot be encoded", t)
	}
	return nil
}

// writeFixed stores each non-null value in the low bytes of its slot (native byte order).
func writeFixed[T int8 | int16 | int32 | int64 | float32 | float64 | arrow.Date32 | arrow.Time32 | arrow.Timestamp | arrow.Duration](vals []T, vbits []byte, voff int, offsets []int32, slot int, dst []byte) {
	n := len(offsets) - 1
	if n > len(vals) {
		n = len(vals)
	}
	for r := 0; r < n; r++ {
		if vbits != nil && bitutil.BitIsNotSet(vbits, voff+r) {
			continue
		}
		*(*T)(unsafe.Pointer(&dst[int(offsets[r])+slot])) = vals[r]
	}
}

func varOffsets(c arrow.Array) []int32 {
	switch a := c.(type) {
	case *array.String:
		return a.ValueOffsets()
	case *array.Binary:
		return a.ValueOffsets()
	}
	panic(fmt.Sprintf("rowdata: %T is not a variable-length array", c))
}

func varBytes(c arrow.Array) []byte {
	switch a := c.(type) {
	case *array.String:
		return a.ValueBytes()
	case *array.Binary:
		return a.ValueBytes()
	}
	panic(fmt.Sprintf("rowdata: %T is not a variable-length array", c))
}

// DecimalToBigEndian returns the shortest big-endian two's-complement bytes of v, exactly as
// java.math.BigInteger#toByteArray writes them.
func DecimalToBigEndian(v decimal128.Num) []byte {
	var full [16]byte
	binary.BigEndian.PutUint64(full[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(full[8:], v.LowBits())
	i := 0
	// Drop leading bytes that only repeat the sign, keeping one sign bit.
	for i < 15 {
		if full[i] == 0x00 && full[i+1]&0x80 == 0 {
			i++
		} else if full[i] == 0xff && full[i+1]&0x80 != 0 {
			i++
		} else {
			break
		}
	}
	return full[i:]
}
