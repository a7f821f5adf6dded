package binaryrow

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// values is one Arrow column prepared for writing as Flink binary values, the fields of rows
// or the elements of arrays: each value has a slot (8 bytes in a row, the element width in an
// array) and, for strings, non-compact decimals and timestamps and nested values, bytes in the
// variable part of the row or array that holds it.
type values struct {
	t catalog.Type
	c arrow.Array
	// vbits is the validity (bit voff+r), nil when nothing is null.
	vbits []byte
	voff  int
	nulls NullLayout
	// nested holds the binary form of each ROW, ARRAY or MAP value.
	nested blobs
}

// newValues prepares column c of type t. parent, when not nil, is the validity of the rows
// that hold the values (bit r): values of null rows are written as nulls.
func newValues(t catalog.Type, c arrow.Array, parent []byte, nulls NullLayout) (*values, error) {
	v := &values{t: t, c: c, nulls: nulls}
	n := c.Len()
	if c.NullN() > 0 {
		v.vbits, v.voff = c.Data().Buffers()[0].Bytes(), c.Data().Offset()
	}
	if parent != nil {
		merged := make([]byte, bitutil.BytesForBits(int64(n)))
		for r := 0; r < n; r++ {
			if bitutil.BitIsSet(parent, r) && (v.vbits == nil || bitutil.BitIsSet(v.vbits, v.voff+r)) {
				bitutil.SetBit(merged, r)
			}
		}
		v.vbits, v.voff = merged, 0
	}
	if t.IsNested() {
		var err error
		if v.nested, err = encodeNested(t, c, v.validity()); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// null reports whether value r is null.
func (v *values) null(r int) bool {
	return v.vbits != nil && bitutil.BitIsNotSet(v.vbits, v.voff+r)
}

// validity is the validity as a bitmap starting at value 0 (nil: no nulls).
func (v *values) validity() []byte {
	if v.vbits == nil || v.voff == 0 {
		return v.vbits
	}
	n := v.c.Len()
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	for r := 0; r < n; r++ {
		if !v.null(r) {
			bitutil.SetBit(out, r)
		}
	}
	return out
}

// addVarSizes adds to sizes[r] the bytes that value r takes in the variable part, padding
// included.
func (v *values) addVarSizes(sizes []int32) {
	n := len(sizes)
	t := v.t
	switch {
	case t.IsString() || t.IsBinary() || t.Kind == catalog.Raw:
		offs := varOffsets(v.c)
		for r := 0; r < n; r++ {
			if v.null(r) {
				continue
			}
			if l := offs[r+1] - offs[r]; l > MaxInline || t.Kind == catalog.Raw {
				sizes[r] += int32(RoundUp8(int(l)))
			}
		}
	case (t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && !IsCompactTimestamp(t.Precision):
		// Non-compact timestamps keep their epoch millis in the variable part.
		v.addFixed(sizes, 8)
	case t.Kind == catalog.Decimal && !t.IsCompactDecimal():
		v.addFixed(sizes, 16)
	case t.IsNested():
		for r := 0; r < n; r++ {
			if !v.null(r) {
				sizes[r] += int32(RoundUp8(int(v.nested.offs[r+1] - v.nested.offs[r])))
			}
		}
	}
}

// writeTimestamps writes non-compact timestamps as BinaryWriter#writeTimestamp does: the
// millis in the variable part, the slot holding (offset << 32 | nanoOfMillisecond); a null
// reserves its 8 bytes in the writer's layout.
func (v *values) writeTimestamps(dst []byte, pos, base, cur []int32, src column.Timestamps) {
	for r := range pos {
		if pos[r] < 0 {
			continue
		}
		rel := uint64(cur[r] - base[r])
		if v.null(r) {
			if v.nulls == WriterNulls {
				binary.LittleEndian.PutUint64(dst[pos[r]:], rel<<32)
				cur[r] += 8
			}
			continue
		}
		ms, nanoOfMilli := src.At(r)
		binary.LittleEndian.PutUint64(dst[cur[r]:], uint64(ms))
		binary.LittleEndian.PutUint64(dst[pos[r]:], rel<<32|uint64(nanoOfMilli))
		cur[r] += 8
	}
}

// addFixed adds size to every non-null value, and to nulls too in the writer's layout.
func (v *values) addFixed(sizes []int32, size int32) {
	for r := range sizes {
		if v.nulls == WriterNulls || !v.null(r) {
			sizes[r] += size
		}
	}
}

// write writes value r's slot at dst[pos[r]] and its variable part at dst[cur[r]], where an
// offset counts from dst[base[r]], advancing cur[r] by the bytes written there (as
// addVarSizes counted them). A value whose pos is negative is skipped. Slots of nulls are
// left as they are (zero).
func (v *values) write(dst []byte, pos, base, cur []int32) error {
	n := len(pos)
	if n == 0 {
		return nil // nothing to write; an empty column may have no value buffers at all
	}
	c, vbits, voff := v.c, v.vbits, v.voff
	t := v.t
	switch t.Kind {
	case catalog.Boolean:
		d := c.Data()
		bools, boff := d.Buffers()[1].Bytes(), d.Offset()
		for r := 0; r < n; r++ {
			if pos[r] >= 0 && bitutil.BitIsSet(bools, boff+r) && !v.null(r) {
				dst[pos[r]] = 1
			}
		}
	case catalog.TinyInt:
		writeFixed(c.(*array.Int8).Int8Values(), vbits, voff, pos, dst)
	case catalog.SmallInt:
		writeFixed(c.(*array.Int16).Int16Values(), vbits, voff, pos, dst)
	case catalog.Int, catalog.IntervalYearMonth:
		writeFixed(c.(*array.Int32).Int32Values(), vbits, voff, pos, dst)
	case catalog.IntervalDayTime:
		writeFixed(c.(*array.Duration).DurationValues(), vbits, voff, pos, dst)
	case catalog.Date:
		writeFixed(c.(*array.Date32).Date32Values(), vbits, voff, pos, dst)
	case catalog.Time:
		writeFixed(c.(*array.Time32).Time32Values(), vbits, voff, pos, dst)
	case catalog.BigInt:
		writeFixed(c.(*array.Int64).Int64Values(), vbits, voff, pos, dst)
	case catalog.Float:
		writeFixed(c.(*array.Float32).Float32Values(), vbits, voff, pos, dst)
	case catalog.Double:
		writeFixed(c.(*array.Float64).Float64Values(), vbits, voff, pos, dst)
	case catalog.Timestamp, catalog.TimestampLTZ:
		if IsCompactTimestamp(t.Precision) {
			writeFixed(c.(*array.Timestamp).TimestampValues(), vbits, voff, pos, dst)
			break
		}
		v.writeTimestamps(dst, pos, base, cur, column.ReadTimestamps(c))
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Raw:
		// RAW values always go to the variable part (AbstractBinaryWriter#writeRawValue).
		inline := t.Kind != catalog.Raw
		offs := varOffsets(c)
		vals := varBytes(c)
		first := offs[0] // ValueBytes starts at the first value of a sliced array
		for r := 0; r < n; r++ {
			if pos[r] < 0 || v.null(r) {
				continue
			}
			v := vals[offs[r]-first : offs[r+1]-first]
			writeVar(dst, v, inline, pos[r], base[r], &cur[r])
		}
	case catalog.Decimal:
		vals := c.(*array.Decimal128).Values()
		for r := 0; r < n; r++ {
			if pos[r] < 0 {
				continue
			}
			if v.null(r) {
				if v.nulls == WriterNulls && !t.IsCompactDecimal() {
					binary.LittleEndian.PutUint64(dst[pos[r]:], uint64(cur[r]-base[r])<<32)
					cur[r] += 16
				}
				continue
			}
			if t.IsCompactDecimal() {
				if !vals[r].FitsInPrecision(18) {
					return fmt.Errorf("row %d: unscaled value %s does not fit DECIMAL(%d)", r, vals[r].BigInt(), t.Precision)
				}
				binary.LittleEndian.PutUint64(dst[pos[r]:], uint64(vals[r].LowBits()))
				continue
			}
			b := DecimalToBigEndian(vals[r])
			copy(dst[cur[r]:], b)
			binary.LittleEndian.PutUint64(dst[pos[r]:], uint64(cur[r]-base[r])<<32|uint64(len(b)))
			cur[r] += 16
		}
	case catalog.Row, catalog.Array, catalog.Map:
		for r := 0; r < n; r++ {
			if pos[r] < 0 || v.null(r) {
				continue
			}
			b := v.nested.data[v.nested.offs[r]:v.nested.offs[r+1]]
			writeVar(dst, b, false, pos[r], base[r], &cur[r])
		}
	default:
		return fmt.Errorf("type %s cannot be encoded", t)
	}
	return nil
}

// writeVar stores b inside the slot at dst[pos] when inline allows and it fits
// (BinaryFormat#MAX_FIX_PART_DATA_SIZE: the length in the slot's highest byte with the mark
// bit), else at dst[*cur] with the slot holding (offset from base << 32 | length); the cursor
// advances by the padded length.
func writeVar(dst, b []byte, inline bool, pos, base int32, cur *int32) {
	if inline && len(b) <= MaxInline {
		copy(dst[pos:], b)
		dst[pos+7] = 0x80 | byte(len(b))
		return
	}
	copy(dst[*cur:], b)
	binary.LittleEndian.PutUint64(dst[pos:], uint64(*cur-base)<<32|uint64(len(b)))
	*cur += int32(RoundUp8(len(b)))
}

// writeFixed stores each non-null value in the low bytes of its slot (native byte order),
// skipping values whose position is negative.
func writeFixed[T int8 | int16 | int32 | int64 | float32 | float64 | arrow.Date32 | arrow.Time32 | arrow.Timestamp | arrow.Duration](vals []T, vbits []byte, voff int, pos []int32, dst []byte) {
	n := min(len(pos), len(vals))
	for r := 0; r < n; r++ {
		if pos[r] < 0 || (vbits != nil && bitutil.BitIsNotSet(vbits, voff+r)) {
			continue
		}
		*(*T)(unsafe.Pointer(&dst[pos[r]])) = vals[r]
	}
}
