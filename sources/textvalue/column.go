// Package textvalue holds what Flink's text formats (json, csv) share once a field's text is
// read: the texts of values whose result does not depend on java.time's or Java's number
// parsing corner cases (dates, times and timestamps in Flink's TimeFormats, Java's integer,
// float and BigDecimal texts), and the columns that gather the decoded values in plain slices
// until they become Arrow arrays (which the avro decoder uses too).
package textvalue

import (
	"encoding/base64"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// Column gathers one field's decoded values in plain slices (a record that turns out to be left
// to Flink is taken back by truncating them), made into an Arrow array by Array. It holds the
// flat types; a format's nested columns keep their fields beside it.
type Column struct {
	// Type is the field's type.
	Type  catalog.Type
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
}

// AppendNull appends a NULL.
func (c *Column) AppendNull() {
	c.valid = append(c.valid, false)
	switch c.Type.Kind {
	case catalog.Row:
		// only the validity: the fields are the format's
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

// AppendInt appends a BOOLEAN (0, 1), an integer, a DATE (epoch day) or a TIME (millisecond of
// the day).
func (c *Column) AppendInt(v int64) {
	c.valid, c.ints = append(c.valid, true), append(c.ints, v)
}

// AppendFloat appends a FLOAT (rounded to float32 already) or a DOUBLE.
func (c *Column) AppendFloat(v float64) {
	c.valid, c.floats = append(c.valid, true), append(c.floats, v)
}

// AppendDecimal appends a DECIMAL of the column's scale.
func (c *Column) AppendDecimal(v decimal128.Num) {
	c.valid, c.decs = append(c.valid, true), append(c.decs, v)
}

// AppendBytes appends a string (UTF-8) or a binary value.
func (c *Column) AppendBytes(b []byte) {
	c.bytes = append(c.bytes, b...)
	c.valid, c.ends = append(c.valid, true), append(c.ends, len(c.bytes))
}

// AppendTimestamp appends a TIMESTAMP or TIMESTAMP_LTZ.
func (c *Column) AppendTimestamp(t Timestamp) {
	ms, nanos := t.EpochMillis()
	c.valid, c.ints, c.nanos = append(c.valid, true), append(c.ints, ms), append(c.nanos, nanos)
}

// AppendBase64 decodes a BINARY value as Jackson's default Base64 variant (MIME-NO-LINEFEEDS:
// standard alphabet, padding required, trailing bits not checked) does for the texts it reads
// the same way as Go's StdEncoding: no whitespace, one padded run.
// ok is false for a text left to Flink, which appended nothing.
func (c *Column) AppendBase64(text []byte) (ok bool) {
	for _, b := range text {
		if b <= ' ' {
			return false // Jackson skips whitespace only between quanta, Go anywhere
		}
	}
	n := len(c.bytes)
	c.bytes = append(c.bytes, make([]byte, base64.StdEncoding.DecodedLen(len(text)))...)
	m, err := base64.StdEncoding.Decode(c.bytes[n:], text)
	if err != nil {
		c.bytes = c.bytes[:n]
		return false
	}
	c.bytes = c.bytes[:n+m]
	c.valid, c.ends = append(c.valid, true), append(c.ends, len(c.bytes))
	return true
}

// AppendValidity appends only a validity (for a ROW, whose fields the format keeps).
func (c *Column) AppendValidity(valid bool) { c.valid = append(c.valid, valid) }

// Len is the number of values.
func (c *Column) Len() int { return len(c.valid) }

// Valid is the values' validity.
func (c *Column) Valid() []bool { return c.valid }

// Last returns whether the last value is valid and, for a string or binary column, its bytes
// (they stay the column's).
func (c *Column) Last() (text []byte, valid bool) {
	n := len(c.valid)
	if n == 0 || !c.valid[n-1] {
		return nil, false
	}
	switch c.Type.Kind {
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		start := 0
		if n > 1 {
			start = c.ends[n-2]
		}
		return c.bytes[start:c.ends[n-1]], true
	}
	return nil, true
}

// Truncate takes back the values past the first n.
func (c *Column) Truncate(n int) {
	if len(c.valid) <= n {
		return
	}
	c.valid = c.valid[:n]
	switch c.Type.Kind {
	case catalog.Row: // the format's fields
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

// Reset drops every value.
func (c *Column) Reset() {
	c.valid, c.ints, c.nanos, c.floats, c.decs = c.valid[:0], c.ints[:0], c.nanos[:0], c.floats[:0], c.decs[:0]
	c.bytes, c.ends = c.bytes[:0], c.ends[:0]
}

// Array makes the column's values an Arrow array of type dt (of a flat type).
func (c *Column) Array(mem memory.Allocator, dt arrow.DataType) (arrow.Array, error) {
	n := len(c.valid)
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
	return nil, fmt.Errorf("text column: no column of Arrow type %s", dt)
}

// appendVarBytes appends the column's strings or binary values to b (a string builder's too).
func (c *Column) appendVarBytes(b *array.BinaryBuilder) {
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
