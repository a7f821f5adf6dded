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
	return take(a, sel, mem, false)
}

// TakeBatch returns the rows sel of a batch (in that order) as a new batch of the same schema.
func TakeBatch(b arrow.RecordBatch, sel []int32, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		c, err := Take(b.Column(i), sel, mem)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", b.ColumnName(i), err)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(b.Schema(), cols, int64(len(sel))), nil
}

// TakeEither returns a new column whose row i is a's row sel[i], or b's row sel[i] - a.Len()
// when sel[i] is past a's rows (a and b of one type): rows picked from two columns, as a
// changelog's rows from the before and after images. It copies once when every row comes from
// one of them, else it lays the two end to end first.
func TakeEither(a, b arrow.Array, sel []int32, mem memory.Allocator) (arrow.Array, error) {
	n := int32(a.Len())
	fromA, fromB := true, true
	for _, r := range sel {
		if r < n {
			fromB = false
		} else {
			fromA = false
		}
	}
	switch {
	case fromA:
		return Take(a, sel, mem)
	case fromB:
		shifted := make([]int32, len(sel))
		for i, r := range sel {
			shifted[i] = r - n
		}
		return Take(b, shifted, mem)
	}
	both, err := array.Concatenate([]arrow.Array{a, b}, mem)
	if err != nil {
		return nil, err
	}
	defer both.Release()
	return Take(both, sel, mem)
}

// TakeOrNull is Take where a negative index selects a NULL: element access that misses.
func TakeOrNull(a arrow.Array, sel []int32, mem memory.Allocator) (arrow.Array, error) {
	return take(a, sel, mem, true)
}

func take(a arrow.Array, sel []int32, mem memory.Allocator, misses bool) (arrow.Array, error) {
	switch a.DataType().ID() {
	case arrow.BOOL:
		return takeBool(a, sel, mem, misses), nil
	case arrow.INT8:
		return takeFixed[int8](a, sel, mem, misses), nil
	case arrow.INT16:
		return takeFixed[int16](a, sel, mem, misses), nil
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return takeFixed[int32](a, sel, mem, misses), nil
	case arrow.INT64, arrow.TIMESTAMP, arrow.DURATION:
		return takeFixed[int64](a, sel, mem, misses), nil
	case arrow.FLOAT32:
		return takeFixed[float32](a, sel, mem, misses), nil
	case arrow.FLOAT64:
		return takeFixed[float64](a, sel, mem, misses), nil
	case arrow.DECIMAL128:
		return takeFixed[decimal128.Num](a, sel, mem, misses), nil
	case arrow.STRING, arrow.BINARY:
		return takeVar(a, sel, mem, misses), nil
	case arrow.STRUCT:
		return takeStruct(a.(*array.Struct), sel, mem, misses)
	case arrow.LIST:
		return takeList(a.(*array.List), sel, mem, misses)
	}
	return nil, fmt.Errorf("take: columns of %s are not supported", a.DataType())
}

// takeStruct takes the same rows of every field.
func takeStruct(a *array.Struct, sel []int32, mem memory.Allocator, misses bool) (arrow.Array, error) {
	children := make([]arrow.ArrayData, 0, a.NumField())
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	for i := 0; i < a.NumField(); i++ {
		c, err := take(a.Field(i), sel, mem, misses)
		if err != nil {
			return nil, err
		}
		children = append(children, c.Data())
		c.Data().Retain()
		c.Release()
	}
	return makeNested(a.DataType(), len(sel), takeValidity(a, sel, mem, misses), nil, children), nil
}

// takeList takes whole lists: the selected lists' elements, in order, become the new child.
func takeList(a *array.List, sel []int32, mem memory.Allocator, misses bool) (arrow.Array, error) {
	offs := ListOffsets(a)
	offBuf, outOffs := NewValues[int32](mem, len(sel)+1)
	total := int32(0)
	for j, r := range sel {
		outOffs[j] = total
		if r >= 0 {
			total += offs[r+1] - offs[r]
		}
	}
	outOffs[len(sel)] = total
	elems := make([]int32, 0, total)
	for _, r := range sel {
		if r >= 0 {
			for k := offs[r]; k < offs[r+1]; k++ {
				elems = append(elems, k)
			}
		}
	}
	child, err := take(a.ListValues(), elems, mem, false)
	if err != nil {
		offBuf.Release()
		return nil, err
	}
	defer child.Release()
	return makeNested(a.DataType(), len(sel), takeValidity(a, sel, mem, misses), offBuf, []arrow.ArrayData{child.Data()}), nil
}

// makeNested wraps a struct (offsets nil) or list array and releases the caller's buffers.
func makeNested(dt arrow.DataType, n int, valid, offsets *memory.Buffer, children []arrow.ArrayData) arrow.Array {
	bufs := []*memory.Buffer{valid}
	if offsets != nil {
		bufs = append(bufs, offsets)
	}
	nulls := 0
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid.Bytes(), 0, n)
	}
	d := array.NewData(dt, n, bufs, children, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// takeValidity gathers the validity bits of the selected rows (nil when a has no nulls and
// no index misses).
func takeValidity(a arrow.Array, sel []int32, mem memory.Allocator, misses bool) *memory.Buffer {
	if a.NullN() == 0 && !misses {
		return nil
	}
	buf := NewBitmap(mem, len(sel))
	bits := buf.Bytes()
	for j, r := range sel {
		if r >= 0 && a.IsValid(int(r)) {
			bitutil.SetBit(bits, j)
		}
	}
	return buf
}

func takeFixed[T any](a arrow.Array, sel []int32, mem memory.Allocator, misses bool) arrow.Array {
	src := Values[T](a)
	buf, dst := NewValues[T](mem, len(sel))
	if misses {
		var zero T
		for j, r := range sel {
			if r >= 0 {
				dst[j] = src[r]
			} else {
				dst[j] = zero
			}
		}
	} else {
		for j, r := range sel {
			dst[j] = src[r]
		}
	}
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem, misses), buf)
}

func takeBool(a arrow.Array, sel []int32, mem memory.Allocator, misses bool) arrow.Array {
	b := a.(*array.Boolean)
	buf := NewBitmap(mem, len(sel))
	bits := buf.Bytes()
	for j, r := range sel {
		if r >= 0 && b.Value(int(r)) {
			bitutil.SetBit(bits, j)
		}
	}
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem, misses), buf)
}

func takeVar(a arrow.Array, sel []int32, mem memory.Allocator, misses bool) arrow.Array {
	d := a.Data()
	offs := offsetsOf(d)
	data := d.Buffers()[2]
	var bytes []byte
	if data != nil {
		bytes = data.Bytes()
	}
	total := 0
	for _, r := range sel {
		if r >= 0 {
			total += int(offs[r+1] - offs[r])
		}
	}
	offBuf, outOffs := NewValues[int32](mem, len(sel)+1)
	dataBuf, out := NewValues[byte](mem, total)
	pos := int32(0)
	for j, r := range sel {
		outOffs[j] = pos
		if r >= 0 {
			pos += int32(copy(out[pos:], bytes[offs[r]:offs[r+1]]))
		}
	}
	outOffs[len(sel)] = pos
	return MakeArray(a.DataType(), len(sel), takeValidity(a, sel, mem, misses), offBuf, dataBuf)
}

// offsetsOf returns the len+1 value offsets of a string/binary column, honouring its offset.
func offsetsOf(d arrow.ArrayData) []int32 {
	buf := d.Buffers()[1]
	all := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	return all[d.Offset() : d.Offset()+d.Len()+1]
}
