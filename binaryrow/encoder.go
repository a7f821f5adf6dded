package binaryrow

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
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
	// parent, set for the rows of a nested ROW column, is the validity of the ROW values (bit
	// r): rows of null values are written with every field null.
	parent []byte
	// prepared are the columns that Layout saw, ready for Encode.
	prepared []*values
	// sizes, pos and cursors are reused across batches: one entry per row.
	sizes   []int32
	pos     []int32
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
		if ok, why := Supported(t); !ok {
			return nil, fmt.Errorf("rowdata encoder: field %d: %s", i, why)
		}
	}
	return &Encoder{types: types, arity: len(types), nulls: nulls}, nil
}

// Fields is the number of fields of the rows the encoder writes.
func (e *Encoder) Fields() int { return e.arity }

// prepare readies cols for writing, unless Layout already did for the same arrays.
func (e *Encoder) prepare(cols []arrow.Array) error {
	if len(e.prepared) == len(cols) {
		same := true
		for i, c := range cols {
			same = same && e.prepared[i].c == c
		}
		if same {
			return nil
		}
	}
	e.prepared = e.prepared[:0]
	for i, t := range e.types {
		v, err := newValues(t, cols[i], e.parent, e.nulls)
		if err != nil {
			e.prepared = e.prepared[:0]
			return fmt.Errorf("rowdata encode: field %d (%s): %w", i, t, err)
		}
		e.prepared = append(e.prepared, v)
	}
	return nil
}

// Layout computes where each row of cols starts when encoded: offsets gets len+1 entries and
// the total byte size is offsets[n]. cols are the field columns in order.
func (e *Encoder) Layout(cols []arrow.Array, n int, offsets []int32) error {
	if len(cols) != e.arity {
		return fmt.Errorf("rowdata encode: %d columns for %d fields", len(cols), e.arity)
	}
	if len(offsets) < n+1 {
		return fmt.Errorf("rowdata encode: offsets hold %d entries, need %d", len(offsets), n+1)
	}
	e.prepared = e.prepared[:0] // Layout starts a batch: prepare afresh
	if err := e.prepare(cols); err != nil {
		return err
	}
	fixed := int32(FixedSize(e.arity))
	if cap(e.sizes) < n {
		e.sizes = make([]int32, n)
	}
	sizes := e.sizes[:n]
	for r := range sizes {
		sizes[r] = fixed
	}
	for _, v := range e.prepared {
		v.addVarSizes(sizes)
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
	if len(cols) != e.arity {
		return fmt.Errorf("rowdata encode: %d columns for %d fields", len(cols), e.arity)
	}
	if err := e.prepare(cols); err != nil {
		return err
	}
	dst = dst[:total]
	clear(dst)
	if kinds != nil {
		for r := 0; r < n; r++ {
			dst[offsets[r]] = byte(kinds[r])
		}
	}
	fixed := int32(FixedSize(e.arity))
	if cap(e.cursors) < n {
		e.cursors, e.pos = make([]int32, n), make([]int32, n)
	}
	cursors, pos, base := e.cursors[:n], e.pos[:n], offsets[:n]
	for r := range cursors {
		cursors[r] = offsets[r] + fixed
	}
	for i, v := range e.prepared {
		slot := int32(SlotOffset(e.arity, i))
		nb, mask := int32(NullByte(i)), NullMask(i)
		for r := 0; r < n; r++ {
			pos[r] = offsets[r] + slot
		}
		if v.vbits != nil {
			for r := 0; r < n; r++ {
				if v.null(r) {
					dst[offsets[r]+nb] |= mask
				}
			}
		}
		if err := v.write(dst, pos, base, cursors); err != nil {
			return fmt.Errorf("rowdata encode: field %d (%s): %w", i, v.t, err)
		}
	}
	return nil
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
