package jsonformat

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/textvalue"
)

// column is one field's decoded values: a flat column, or a ROW column's validity beside its
// fields.
type column struct {
	textvalue.Column
	// row holds a ROW column's fields (the Column's validity is the ROW's own).
	row *fieldSet
}

func (c *column) appendNull() {
	c.AppendNull()
	if c.row != nil {
		for i := range c.row.cols {
			c.row.cols[i].appendNull()
		}
	}
}

// truncate takes back the values past the first n.
func (c *column) truncate(n int) {
	if c.row != nil {
		// A ROW's fields can be ahead of its own validity: they are appended while the
		// nested object is decoded, the validity once it is done.
		for i := range c.row.cols {
			c.row.cols[i].truncate(n)
		}
	}
	c.Truncate(n)
}

func (c *column) reset() {
	c.Reset()
	if c.row != nil {
		for i := range c.row.cols {
			c.row.cols[i].reset()
		}
	}
}

// array makes the column's values an Arrow array of type dt.
func (c *column) array(mem memory.Allocator, dt arrow.DataType) (arrow.Array, error) {
	if c.Type.Kind == catalog.Row {
		return c.structArray(mem, dt.(*arrow.StructType))
	}
	return c.Array(mem, dt)
}

// structArray makes a ROW column's values an Arrow struct array of type dt.
func (c *column) structArray(mem memory.Allocator, dt *arrow.StructType) (arrow.Array, error) {
	n := c.Len()
	children := make([]arrow.ArrayData, len(c.row.cols))
	defer func() {
		for _, ch := range children {
			if ch != nil {
				ch.Release()
			}
		}
	}()
	for i := range c.row.cols {
		a, err := c.row.cols[i].array(mem, dt.Field(i).Type)
		if err != nil {
			return nil, err
		}
		children[i] = a.Data()
		children[i].Retain()
		a.Release()
	}
	valid := memory.NewResizableBuffer(mem)
	defer valid.Release()
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	nulls := 0
	for i, v := range c.Valid() {
		bitutil.SetBitTo(valid.Bytes(), i, v)
		if !v {
			nulls++
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{valid}, children, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// Finish returns the rows decoded since the last Finish as a batch, and starts a new one.
func (d *Decoder) Finish(mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(d.root.cols))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i := range d.root.cols {
		a, err := d.root.cols[i].array(mem, d.schema.Field(i).Type)
		if err != nil {
			return nil, err
		}
		cols[i] = a
		d.root.cols[i].reset()
	}
	rows := d.rows
	d.rows = 0
	return array.NewRecordBatch(d.schema, cols, int64(rows)), nil
}
