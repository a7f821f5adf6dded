package column

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Take returns a new column holding the rows sel of a (in that order): the rows of a batch
// that passed a filter. It handles the layouts of Sluice's batches: fixed-width values,
// booleans and variable-length strings/binaries.
func Take(a arrow.Array, sel []int32, mem memory.Allocator) (arrow.Array, error) {
	switch a.DataType().ID() {
	case arrow.BOOL:
		return takeBool(a, sel, mem), nil
	case arrow.INT8:
		return takeFixed[int8](a, sel, mem), nil
	case arrow.INT16:
		return takeFixed[int16](a, sel, mem), nil
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return takeFixed[int32](a, sel, mem), nil
	case arrow.INT64, arrow.TIMESTAMP, arrow.DURATION:
		return takeFixed[int64](a, sel, mem), nil
	case arrow.FLOAT32:
		return takeFixed[float32](a, sel, mem), nil
	case arrow.FLOAT64:
		return takeFixed[float64](a, sel, mem), nil
	case arrow.DECIMAL128:
		return takeFixed[decimal128.Num](a, sel, mem), nil
	case arrow.STRING, arrow.BINARY:
		return takeVar(a, sel, mem), nil
	}
	return nil, fmt.Errorf("take: columns of %s are not supported", a.DataType())
}

// takeValidity gathers the validity bits of the selected rows (nil when a has no nulls).
func takeValidity(a arrow.Array, sel []int32, mem memory.Allocator) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	buf := NewBitmap(mem, len(sel))
	bits := buf.Bytes()
	for j, r := range sel {
		if a.IsValid(int(r)) {
			bitutil.SetBit(bits, j)
		}
	}
	return buf
}

func takeFixed[T any](a arrow.Array, sel []int32, mem memory.Allocator) arrow.Array {
	src := Values[T](a)
	buf, dst := NewValues[T](mem, len(sel))
	for j, r := range sel {
		dst[j] = src[r]
	}
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem), buf)
}

func takeBool(a arrow.Array, sel []int32, mem memory.Allocator) arrow.Array {
	b := a.(*array.Boolean)
	buf := NewBitmap(mem, len(sel))
	bits := buf.Bytes()
	for j, r := range sel {
		if b.Value(int(r)) {
			bitutil.SetBit(bits, j)
		}
	}
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem), buf)
}

func takeVar(a arrow.Array, sel []int32, mem memory.Allocator) arrow.Array {
	d := a.Data()
	offs := offsetsOf(d)
	data := d.Buffers()[2]
	var bytes []byte
	if data != nil {
		bytes = data.Bytes()
	}
	total := 0
	for _, r := range sel {
		total += int(offs[r+1] - offs[r])
	}
	offBuf, outOffs := NewValues[int32](mem, len(sel)+1)
	dataBuf, out := NewValues[byte](mem, total)
	pos := int32(0)
	for j, r := range sel {
		outOffs[j] = pos
		pos += int32(copy(out[pos:], bytes[offs[r]:offs[r+1]]))
	}
	outOffs[len(sel)] = pos
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem), offBuf, dataBuf)
}

// offsetsOf returns the len+1 value offsets of a string/binary column, honouring its offset.
func offsetsOf(d arrow.ArrayData) []int32 {
	buf := d.Buffers()[1]
	all := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	return all[d.Offset() : d.Offset()+d.Len()+1]
}
