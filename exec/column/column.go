// Package column reads and builds fixed-width Arrow columns as typed Go slices: the building
// blocks of the typed kernels in exec/ (no per-value interface calls).
package column

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Values returns the typed value slice of a fixed-width array, honouring its offset. It works
// for every Arrow type whose values buffer holds T (Int32, Date32, Time32, Timestamp, ...).
func Values[T any](a arrow.Array) []T {
	d := a.Data()
	buf := d.Buffers()[1]
	if buf == nil || a.Len() == 0 {
		return nil
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), buf.Len()/size)
	return all[d.Offset() : d.Offset()+d.Len()]
}

// NewValues allocates a buffer of n values of T and returns it with its typed view.
func NewValues[T any](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * size)
	if n == 0 {
		return buf, nil
	}
	return buf, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n)
}

// NewBitmap allocates a zeroed bitmap of n bits.
func NewBitmap(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	clear(buf.Bytes())
	return buf
}

// MakeArray wraps buffers into an array and releases the caller's references to them. valid
// may be nil (no nulls).
func MakeArray(dt arrow.DataType, n int, valid *memory.Buffer, bufs ...*memory.Buffer) arrow.Array {
	all := append([]*memory.Buffer{valid}, bufs...)
	nulls := 0
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid.Bytes(), 0, n)
	}
	d := array.NewData(dt, n, all, nil, nulls, 0)
	a := array.MakeFromData(d)
	d.Release()
	for _, b := range all {
		if b != nil {
			b.Release()
		}
	}
	return a
}

// ListOffsets returns the len+1 element offsets of a list array into its child, honouring the
// array's offset.
func ListOffsets(l *array.List) []int32 {
	o := l.Data().Offset()
	return l.Offsets()[o : o+l.Len()+1]
}

// ValidBits returns a's validity bitmap and offset, or nil when a has no nulls.
func ValidBits(a arrow.Array) ([]byte, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	return a.Data().Buffers()[0].Bytes(), a.Data().Offset()
}

// Valid reports whether bit i of a validity bitmap from ValidBits is set (nil: all valid).
func Valid(bits []byte, off, i int) bool {
	return bits == nil || bitutil.BitIsSet(bits, off+i)
}

// CopyValidity returns a new validity bitmap with a's (offset 0), or nil when a has no nulls.
func CopyValidity(a arrow.Array, mem memory.Allocator) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	n := a.Len()
	buf := NewBitmap(mem, n)
	bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, buf.Bytes(), 0)
	return buf
}

// Retype returns a with another Arrow type of the same layout (e.g. Binary as String, Int32
// as Date32), sharing its buffers; a itself when it already has that type (retained).
func Retype(a arrow.Array, dt arrow.DataType) arrow.Array {
	if arrow.TypeEqual(a.DataType(), dt) {
		a.Retain()
		return a
	}
	d := a.Data()
	out := array.NewData(dt, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out)
}

// Grow returns s with length n, reusing its array when it holds n values (scratch space for
// per-batch kernels; the values are not cleared).
func Grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}

// NanoTimestamps returns the epoch milliseconds and nanoseconds of the millisecond of a
// TIMESTAMP(7..9) column (catalog.NanoTimestampArrow), honouring its offset. What null rows
// hold is unspecified.
func NanoTimestamps(a arrow.Array) (ms []int64, nanos []int32) {
	s := a.(*array.Struct)
	return Values[int64](s.Field(0)), Values[int32](s.Field(1))
}

// NewNanoTimestamps allocates the two value buffers of n TIMESTAMP(7..9) values and returns
// them with their typed views; MakeNanoTimestamps turns them into a column.
func NewNanoTimestamps(mem memory.Allocator, n int) (msBuf, nanoBuf *memory.Buffer, ms []int64, nanos []int32) {
	msBuf, ms = NewValues[int64](mem, n)
	nanoBuf, nanos = NewValues[int32](mem, n)
	return msBuf, nanoBuf, ms, nanos
}

// MakeNanoTimestamps wraps n epoch milliseconds and nanoseconds of the millisecond into a
// TIMESTAMP(7..9) column of type dt (catalog.NanoTimestampArrow) and, as MakeArray, takes over
// the caller's references to the buffers, valid included. valid may be nil (no nulls). The
// fields share the column's validity, as Arrow's struct builder leaves them.
func MakeNanoTimestamps(dt arrow.DataType, n int, valid, ms, nanos *memory.Buffer) arrow.Array {
	st := dt.(*arrow.StructType)
	if valid != nil {
		valid.Retain()
		valid.Retain()
	}
	msCol := MakeArray(st.Field(0).Type, n, valid, ms)
	defer msCol.Release()
	nanoCol := MakeArray(st.Field(1).Type, n, valid, nanos)
	defer nanoCol.Release()
	return makeNested(dt, n, valid, nil, []arrow.ArrayData{msCol.Data(), nanoCol.Data()})
}
