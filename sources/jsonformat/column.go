package jsonformat

import (
	"encoding/base64"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// column gathers one field's decoded values in plain slices (a record that turns out to be left
// to Flink is taken back by truncating them), made into an Arrow array by Finish.
type column struct {
	t     catalog.Type
	valid []bool
	// ints holds BOOLEAN (0, 1), the integer types, DATE (epoch day), TIME (millisecond of the
	// day) and timestamps (epoch millisecond, with nanos the nanosecond of that millisecond).
	ints  []int64
	nanos []int32
	// floats holds FLOAT (rounded to float32 already) and DOUBLE.
	floats []float64
	decs   []decimal128.Num
	// bytes and ends hold strings and binary values.
	bytes []byte
	ends  []int
	// row holds a ROW column's fields (valid is the ROW's own validity).
	row *fieldSet
}

func (c *column) appendNull() {
	c.valid = append(c.valid, false)
	switch c.t.Kind {
	case catalog.Row:
		for i := range c.row.cols {
			c.row.cols[i].appendNull()
		}
	case catalog.Float, catalog.Double:
		c.floats = append(c.floats, 0)
	case catalog.Decimal:
		c.decs = append(c.decs, decimal128.Num{})
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		c.ends = append(c.ends, len(c.bytes))
	case catalog.Timestamp, catalog.TimestampLTZ:
		c.ints, c.nanos = append(c.ints, 0), append(c.nanos, 0)
	default:
		c.ints = append(c.ints, 0)
	}
}

func (c *column) appendInt(v int64) {
	c.valid, c.ints = append(c.valid, true), append(c.ints, v)
}

func (c *column) appendFloat(v float64) {
	c.valid, c.floats = append(c.valid, true), append(c.floats, v)
}

func (c *column) appendDecimal(v decimal128.Num) {
	c.valid, c.decs = append(c.valid, true), append(c.decs, v)
}

func (c *column) appendBytes(b []byte) {
	c.bytes = append(c.bytes, b...)
	c.valid, c.ends = append(c.valid, true), append(c.ends, len(c.bytes))
}

func (c *column) appendTimestamp(t timestamp) {
	ms, nanos := t.epochMillis()
	c.valid, c.ints, c.nanos = append(c.valid, true), append(c.ints, ms), append(c.nanos, nanos)
}

// appendBase64 decodes a BINARY value as Jackson's default Base64 variant (MIME-NO-LINEFEEDS:
// standard alphabet, padding required, trailing bits not checked) does for the texts it reads
// the same way as Go's StdEncoding: no whitespace, one padded run.
func (c *column) appendBase64(text []byte) error {
	for _, b := range text {
		if b <= ' ' {
			return errUnsure // Jackson skips whitespace only between quanta, Go anywhere
		}
	}
	n := len(c.bytes)
	c.bytes = append(c.bytes, make([]byte, base64.StdEncoding.DecodedLen(len(text)))...)
	m, err := base64.StdEncoding.Decode(c.bytes[n:], text)
	if err != nil {
		c.bytes = c.bytes[:n]
		return errUnsure
	}
	c.bytes = c.bytes[:n+m]
	c.valid, c.ends = append(c.valid, true), append(c.ends, len(c.bytes))
	return nil
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
	if len(c.valid) <= n {
		return
	}
	c.valid = c.valid[:n]
	switch c.t.Kind {
	case catalog.Row: // fields done above
	case catalog.Float, catalog.Double:
		c.floats = c.floats[:n]
	case catalog.Decimal:
		c.decs = c.decs[:n]
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		c.ends = c.ends[:n]
		end := 0
		if n > 0 {
			end = c.ends[n-1]
		}
		c.bytes = c.bytes[:end]
	case catalog.Timestamp, catalog.TimestampLTZ:
		c.ints, c.nanos = c.ints[:n], c.nanos[:n]
	default:
		c.ints = c.ints[:n]
	}
}

func (c *column) reset() {
	c.valid, c.ints, c.nanos, c.floats, c.decs = c.valid[:0], c.ints[:0], c.nanos[:0], c.floats[:0], c.decs[:0]
	c.bytes, c.ends = c.bytes[:0], c.ends[:0]
	if c.row != nil {
		for i := range c.row.cols {
			c.row.cols[i].reset()
		}
	}
}

// array makes the column's values an Arrow array of type dt.
func (c *column) array(mem memory.Allocator, dt arrow.DataType) (arrow.Array, error) {
	n := len(c.valid)
	if c.t.Kind == catalog.Row {
		return c.structArray(mem, dt.(*arrow.StructType))
	}
	switch b := array.NewBuilder(mem, dt).(type) {
	case *array.BooleanBuilder:
		defer b.Release()
		b.Reserve(n)
		for i, v := range c.ints {
			b.UnsafeAppend(v != 0)
			if !c.valid[i] {
				b.SetNull(i)
			}
		}
		return b.NewArray(), nil
	case *array.Int8Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) int8 { return int8(v) }), nil
	case *array.Int16Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) int16 { return int16(v) }), nil
	case *array.Int32Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) int32 { return int32(v) }), nil
	case *array.Int64Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) int64 { return v }), nil
	case *array.Date32Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) arrow.Date32 { return arrow.Date32(v) }), nil
	case *array.Time32Builder:
		defer b.Release()
		return appendInts(b, c.ints, c.valid, func(v int64) arrow.Time32 { return arrow.Time32(v) }), nil
	case *array.TimestampBuilder:
		defer b.Release()
		micros := dt.(*arrow.TimestampType).Unit == arrow.Microsecond
		b.Reserve(n)
		for i, ms := range c.ints {
			v := arrow.Timestamp(ms)
			if micros {
				// Whole microseconds: Flink's TimestampData at precisions 4 to 6 (the row
				// edges read the same from it).
				v = arrow.Timestamp(ms*1000 + int64(c.nanos[i]/1000))
			}
			b.UnsafeAppend(v)
			if !c.valid[i] {
				b.SetNull(i)
			}
		}
		return b.NewArray(), nil
	case *array.StructBuilder: // TIMESTAMP(7..9): millisecond and nanosecond of it
		defer b.Release()
		ms, nanos := b.FieldBuilder(0).(*array.Int64Builder), b.FieldBuilder(1).(*array.Int32Builder)
		for i := range n {
			if !c.valid[i] {
				b.AppendNull() // and to the fields
				continue
			}
			b.Append(true)
			ms.Append(c.ints[i])
			nanos.Append(c.nanos[i])
		}
		return b.NewArray(), nil
	case *array.Float32Builder:
		defer b.Release()
		b.Reserve(n)
		for i, v := range c.floats {
			b.UnsafeAppend(float32(v))
			if !c.valid[i] {
				b.SetNull(i)
			}
		}
		return b.NewArray(), nil
	case *array.Float64Builder:
		defer b.Release()
		b.AppendValues(c.floats, c.valid)
		return b.NewArray(), nil
	case *array.Decimal128Builder:
		defer b.Release()
		b.AppendValues(c.decs, c.valid)
		return b.NewArray(), nil
	case *array.StringBuilder:
		defer b.Release()
		c.appendVarBytes(b.BinaryBuilder)
		return b.NewArray(), nil
	case *array.BinaryBuilder:
		defer b.Release()
		c.appendVarBytes(b)
		return b.NewArray(), nil
	case array.Builder:
		b.Release()
	}
	return nil, fmt.Errorf("json decoder: no column of Arrow type %s", dt)
}

// structArray makes a ROW column's values an Arrow struct array of type dt.
func (c *column) structArray(mem memory.Allocator, dt *arrow.StructType) (arrow.Array, error) {
	n := len(c.valid)
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
	for i, v := range c.valid {
		bitutil.SetBitTo(valid.Bytes(), i, v)
		if !v {
			nulls++
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{valid}, children, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// appendVarBytes appends the column's strings or binary values to b (a string builder's too).
func (c *column) appendVarBytes(b *array.BinaryBuilder) {
	b.Reserve(len(c.valid))
	b.ReserveData(len(c.bytes))
	start := 0
	for i, end := range c.ends {
		if c.valid[i] {
			b.Append(c.bytes[start:end])
		} else {
			b.AppendNull()
		}
		start = end
	}
}

// appendInts appends the values converted to the builder's type and returns the array.
func appendInts[T any, B interface {
	Reserve(int)
	UnsafeAppend(T)
	SetNull(int)
	NewArray() arrow.Array
}](b B, vals []int64, valid []bool, conv func(int64) T) arrow.Array {
	b.Reserve(len(vals))
	for i, v := range vals {
		b.UnsafeAppend(conv(v))
		if !valid[i] {
			b.SetNull(i)
		}
	}
	return b.NewArray()
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
