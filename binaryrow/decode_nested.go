package binaryrow

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// spans resolves the variable-part slot of every non-null value of loc (offset << 32 | size,
// offset from base) to the bytes [starts[r], ends[r]) it names, each at least min bytes long.
// Null values get empty spans.
func spans(data []byte, loc *locator, min int, what string) (starts, ends []int32, err error) {
	n := len(loc.pos)
	starts, ends = make([]int32, n), make([]int32, n)
	valid := loc.validBytes()
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		v := binary.LittleEndian.Uint64(data[int(loc.pos[r])+loc.add:])
		off, size := int64(v>>32), int64(uint32(v))
		s := int64(loc.base[r]) + off
		if off < 0 || size < int64(min) || s+size > int64(loc.end[r]) {
			return nil, nil, fmt.Errorf("row %d: %s of %d bytes at offset %d does not fit its enclosing value of %d bytes (at least %d needed)",
				r, what, size, off, loc.end[r]-loc.base[r], min)
		}
		starts[r], ends[r] = int32(s), int32(s+size)
	}
	return starts, ends, nil
}

// decodeRows reads nested BinaryRowData values (ROW) as an Arrow struct array.
func (d *Decoder) decodeRows(t catalog.Type, at arrow.DataType, data []byte, loc *locator) (arrow.Array, error) {
	arity := len(t.Fields)
	starts, ends, err := spans(data, loc, FixedSize(arity), "nested row")
	if err != nil {
		return nil, err
	}
	children := make([]arrow.ArrayData, 0, arity)
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	for i, f := range t.Fields {
		c, err := d.decodeValues(f.Type, data, d.rowField(data, starts, ends, arity, i, loc.validBytes()))
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		children = append(children, c.Data())
		c.Data().Retain()
		c.Release()
	}
	return owned(array.NewData(at, len(loc.pos), []*memory.Buffer{loc.valid}, children, loc.nulls, 0)), nil
}

// elements locates the elements of BinaryArrayData values [starts[r], ends[r]) of the rows
// that valid (nil: all) marks, in row order, each of width size; offsets gets the Arrow list
// offsets (len(starts)+1 entries).
func (d *Decoder) elements(data []byte, starts, ends []int32, valid []byte, size int, offsets []int32) (locator, error) {
	n := len(starts)
	total := int64(0)
	for r := 0; r < n; r++ {
		offsets[r] = int32(total)
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		s, e := int64(starts[r]), int64(ends[r])
		if e-s < 4 {
			return locator{}, fmt.Errorf("row %d: array of %d bytes has no element count", r, e-s)
		}
		cnt := int64(int32(binary.LittleEndian.Uint32(data[s:])))
		if cnt < 0 || int64(ArrayHeaderSize(int(cnt)))+cnt*int64(size) > e-s {
			return locator{}, fmt.Errorf("row %d: array of %d elements does not fit its %d bytes", r, cnt, e-s)
		}
		total += cnt
		if total > math.MaxInt32 {
			return locator{}, fmt.Errorf("row %d: more than 2^31 array elements in one batch", r)
		}
	}
	if total > int64(len(data)) {
		// Every element takes at least one byte of its array, and arrays do not overlap.
		return locator{}, fmt.Errorf("%d array elements in %d bytes: arrays overlap", total, len(data))
	}
	offsets[n] = int32(total)
	loc := locator{pos: make([]int32, total), base: make([]int32, total), end: make([]int32, total)}
	var bits []byte
	for r := 0; r < n; r++ {
		o, cnt := int(offsets[r]), int(offsets[r+1]-offsets[r])
		if cnt == 0 {
			continue
		}
		s := starts[r]
		first := s + int32(ArrayHeaderSize(cnt))
		for j := 0; j < cnt; j++ {
			loc.pos[o+j] = first + int32(j*size)
			loc.base[o+j] = s
			loc.end[o+j] = ends[r]
			if data[int(s)+4+j/8]&(1<<(j%8)) != 0 {
				if loc.valid == nil {
					loc.valid = memory.NewResizableBuffer(d.mem)
					loc.valid.Resize(int(bitutil.BytesForBits(total)))
					bits = loc.valid.Bytes()
					bitutil.SetBitsTo(bits, 0, total, true)
				}
				bitutil.ClearBit(bits, o+j)
			}
		}
	}
	return loc, nil
}

// decodeArrays reads BinaryArrayData values (ARRAY) as an Arrow list array.
func (d *Decoder) decodeArrays(t catalog.Type, at arrow.DataType, data []byte, loc *locator) (arrow.Array, error) {
	starts, ends, err := spans(data, loc, 4, "array")
	if err != nil {
		return nil, err
	}
	offBuf := memory.NewResizableBuffer(d.mem)
	defer offBuf.Release()
	offBuf.Resize((len(loc.pos) + 1) * 4)
	offsets := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	el, err := d.elements(data, starts, ends, loc.validBytes(), ElementSize(*t.Elem), offsets)
	if err != nil {
		return nil, err
	}
	elems, err := d.decodeValues(*t.Elem, data, el)
	if err != nil {
		return nil, fmt.Errorf("element: %w", err)
	}
	defer elems.Release()
	return d.list(at, loc, offBuf, elems.Data()), nil
}

// list assembles a list array of the values loc names from its offsets and child.
func (d *Decoder) list(at arrow.DataType, loc *locator, offsets *memory.Buffer, child arrow.ArrayData) arrow.Array {
	return owned(array.NewData(at, len(loc.pos), []*memory.Buffer{loc.valid, offsets},
		[]arrow.ArrayData{child}, loc.nulls, 0))
}

// decodeMaps reads BinaryMapData values (MAP: the key array's size in 4 bytes, the key array,
// the value array) as an Arrow list of key/value structs.
func (d *Decoder) decodeMaps(t catalog.Type, at arrow.DataType, data []byte, loc *locator) (arrow.Array, error) {
	starts, ends, err := spans(data, loc, 4, "map")
	if err != nil {
		return nil, err
	}
	n := len(loc.pos)
	valid := loc.validBytes()
	keyEnds, valStarts := make([]int32, n), make([]int32, n)
	for r := 0; r < n; r++ {
		if valid != nil && !bitutil.BitIsSet(valid, r) {
			continue
		}
		kb := int64(int32(binary.LittleEndian.Uint32(data[starts[r]:])))
		if kb < 0 || int64(starts[r])+4+kb > int64(ends[r]) {
			return nil, fmt.Errorf("row %d: map key array of %d bytes does not fit the map's %d bytes", r, kb, ends[r]-starts[r])
		}
		keyEnds[r] = starts[r] + 4 + int32(kb)
		valStarts[r] = keyEnds[r]
		starts[r] += 4
	}
	offBuf := memory.NewResizableBuffer(d.mem)
	defer offBuf.Release()
	offBuf.Resize((n + 1) * 4)
	offsets := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	keyLoc, err := d.elements(data, starts, keyEnds, valid, ElementSize(*t.Elem), offsets)
	if err != nil {
		return nil, fmt.Errorf("map keys: %w", err)
	}
	valOffsets := make([]int32, n+1)
	valLoc, err := d.elements(data, valStarts, ends, valid, ElementSize(*t.Value), valOffsets)
	if err != nil {
		keyLoc.release()
		return nil, fmt.Errorf("map values: %w", err)
	}
	for r := 0; r < n; r++ {
		if k, v := offsets[r+1]-offsets[r], valOffsets[r+1]-valOffsets[r]; k != v {
			keyLoc.release()
			valLoc.release()
			return nil, fmt.Errorf("row %d: map with %d keys but %d values", r, k, v)
		}
	}
	keys, err := d.decodeValues(*t.Elem, data, keyLoc)
	if err != nil {
		valLoc.release()
		return nil, fmt.Errorf("map key: %w", err)
	}
	defer keys.Release()
	vals, err := d.decodeValues(*t.Value, data, valLoc)
	if err != nil {
		return nil, fmt.Errorf("map value: %w", err)
	}
	defer vals.Release()
	entryType := at.(*arrow.ListType).Elem()
	entries := array.NewData(entryType, int(offsets[n]), []*memory.Buffer{nil},
		[]arrow.ArrayData{keys.Data(), vals.Data()}, 0, 0)
	defer entries.Release()
	return d.list(at, loc, offBuf, entries), nil
}

// release frees a locator's validity bitmap when it is not handed to decodeValues.
func (l *locator) release() {
	if l.valid != nil {
		l.valid.Release()
		l.valid = nil
	}
}
