package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// blobs holds the Flink binary form of a column's values back to back: value r is
// data[offs[r]:offs[r+1]], empty for a null.
type blobs struct {
	data []byte
	offs []int32
}

// encodeNested writes every non-null value of a ROW, ARRAY or MAP column as Flink does when it
// copies a GenericRowData, GenericArrayData or GenericMapData into a row
// (RowDataSerializer#toBinaryRow, ArrayDataSerializer#toBinaryArray,
// MapDataSerializer#toBinaryMap); valid (bit r, nil: none null) says which values are null.
func encodeNested(t catalog.Type, c arrow.Array, valid []byte) (blobs, error) {
	switch t.Kind {
	case catalog.Row:
		return encodeRows(t, c.(*array.Struct), valid)
	case catalog.Array:
		l := c.(*array.List)
		return encodeArrays(*t.Elem, l.ListValues(), column.ListOffsets(l), valid)
	case catalog.Map:
		l := c.(*array.List)
		entries := l.ListValues().(*array.Struct)
		offs := column.ListOffsets(l)
		keys, err := encodeArrays(*t.Elem, entries.Field(0), offs, valid)
		if err != nil {
			return blobs{}, fmt.Errorf("map keys: %w", err)
		}
		vals, err := encodeArrays(*t.Value, entries.Field(1), offs, valid)
		if err != nil {
			return blobs{}, fmt.Errorf("map values: %w", err)
		}
		// BinaryMapData: the key array's size in 4 bytes, the key array, the value array.
		n := l.Len()
		out := blobs{offs: make([]int32, n+1)}
		size := int64(0)
		for r := 0; r < n; r++ {
			out.offs[r] = int32(size)
			if valid == nil || bitutil.BitIsSet(valid, r) {
				size += 4 + int64(keys.offs[r+1]-keys.offs[r]+vals.offs[r+1]-vals.offs[r])
				if size > math.MaxInt32 {
					return blobs{}, fmt.Errorf("maps of more than 2 GiB in one batch")
				}
			}
		}
		out.offs[n] = int32(size)
		out.data = make([]byte, size)
		for r := 0; r < n; r++ {
			if valid != nil && !bitutil.BitIsSet(valid, r) {
				continue
			}
			k := keys.data[keys.offs[r]:keys.offs[r+1]]
			at := out.offs[r]
			binary.LittleEndian.PutUint32(out.data[at:], uint32(len(k)))
			copy(out.data[at+4:], k)
			copy(out.data[at+4+int32(len(k)):], vals.data[vals.offs[r]:vals.offs[r+1]])
		}
		return out, nil
	}
	return blobs{}, fmt.Errorf("type %s is not nested", t)
}

// encodeRows writes struct values as nested BinaryRowData, in the serializer's null layout;
// rows of null values are written with every field null and not kept.
func encodeRows(t catalog.Type, c *array.Struct, valid []byte) (blobs, error) {
	types := make([]catalog.Type, len(t.Fields))
	fields := make([]arrow.Array, len(t.Fields))
	for i, f := range t.Fields {
		types[i] = f.Type
		fields[i] = c.Field(i)
	}
	enc := &Encoder{types: types, arity: len(types), nulls: SerializerNulls, parent: valid}
	n := c.Len()
	offs := make([]int32, n+1)
	if err := enc.Layout(fields, n, offs); err != nil {
		return blobs{}, err
	}
	data := make([]byte, offs[n])
	if err := enc.Encode(fields, nil, n, offs, data); err != nil {
		return blobs{}, err
	}
	return blobs{data: data, offs: offs}, nil
}

// encodeArrays writes the lists of elems that offs delimits (list r holds elements
// offs[r]..offs[r+1]) as BinaryArrayData: the element count, a null bit per element in whole
// 4-byte words, the elements at their width padded to 8 bytes, then the variable part, as
// BinaryArrayWriter writes them.
func encodeArrays(elem catalog.Type, elems arrow.Array, offs []int32, valid []byte) (blobs, error) {
	n := len(offs) - 1
	ev, err := newValues(elem, elems, nil, SerializerNulls)
	if err != nil {
		return blobs{}, fmt.Errorf("element: %w", err)
	}
	width := ElementSize(elem)
	varSizes := make([]int32, elems.Len())
	ev.addVarSizes(varSizes)
	out := blobs{offs: make([]int32, n+1)}
	size := int64(0)
	for r := 0; r < n; r++ {
		out.offs[r] = int32(size)
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		cnt := int(offs[r+1] - offs[r])
		size += int64(RoundUp8(ArrayHeaderSize(cnt) + cnt*width))
		for k := offs[r]; k < offs[r+1]; k++ {
			size += int64(varSizes[k])
		}
		if size > math.MaxInt32 {
			return blobs{}, fmt.Errorf("arrays of more than 2 GiB in one batch")
		}
	}
	out.offs[n] = int32(size)
	out.data = make([]byte, size)
	pos, base, cur := make([]int32, elems.Len()), make([]int32, elems.Len()), make([]int32, elems.Len())
	for k := range pos {
		pos[k] = -1 // elements of null lists, or outside every list, are not written
	}
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		start, cnt := out.offs[r], int(offs[r+1]-offs[r])
		binary.LittleEndian.PutUint32(out.data[start:], uint32(cnt))
		first := start + int32(ArrayHeaderSize(cnt))
		next := start + int32(RoundUp8(ArrayHeaderSize(cnt)+cnt*width))
		for j := 0; j < cnt; j++ {
			k := int(offs[r]) + j
			if ev.null(k) {
				out.data[int(start)+4+j/8] |= 1 << (j % 8)
			}
			pos[k] = first + int32(j*width)
			base[k] = start
			cur[k] = next
			next += varSizes[k]
		}
	}
	if err := ev.write(out.data, pos, base, cur); err != nil {
		return blobs{}, fmt.Errorf("element: %w", err)
	}
	return out, nil
}
