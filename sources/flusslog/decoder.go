package flusslog

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
)

// Decoder decodes the rows of log batches written in one table schema into Arrow batches of
// Sluice's layout for the table's columns (in the order the batches hold them). It is not safe
// for concurrent use.
type Decoder struct {
	names []string
	types []catalog.Type
	// schema is the IPC schema message of Fluss's Arrow types for the columns, which the
	// batches' messages leave out.
	schema []byte
	// out is the schema of the decoded batches: Sluice's types, then the RowKinds for a
	// changelog.
	out       *arrow.Schema
	changelog bool
}

// NewDecoder returns the decoder of log batches of the named columns; changelog says the table
// has a primary key, whose batches carry change types (the decoded batches end with the rows'
// RowKinds, catalog.RowKindColumn). An error says which column's type is not decoded natively.
func NewDecoder(names []string, types []catalog.Type, changelog bool) (*Decoder, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("fluss log decoder: %d names for %d types", len(names), len(types))
	}
	fluss := make([]arrow.Field, len(types))
	out := make([]arrow.Field, len(types), len(types)+1)
	for i, t := range types {
		ft, err := flussArrowType(t)
		if err != nil {
			return nil, fmt.Errorf("fluss log decoder: column %s: %w", names[i], err)
		}
		st, err := catalog.ArrowType(t)
		if err != nil {
			return nil, fmt.Errorf("fluss log decoder: column %s: %w", names[i], err)
		}
		fluss[i] = arrow.Field{Name: names[i], Type: ft, Nullable: true}
		out[i] = arrow.Field{Name: names[i], Type: st, Nullable: t.Nullable}
	}
	if changelog {
		out = append(out, arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	}
	meta, err := schemaMessage(arrow.NewSchema(fluss, nil))
	if err != nil {
		return nil, fmt.Errorf("fluss log decoder: %w", err)
	}
	return &Decoder{names: names, types: types, schema: meta, out: arrow.NewSchema(out, nil), changelog: changelog}, nil
}

// Schema is the schema of the decoded batches.
func (d *Decoder) Schema() *arrow.Schema { return d.out }

// flussArrowType is the Arrow type Fluss writes a column of type t in (Fluss's ArrowUtils) when
// Sluice's layout of t has the same buffers, or seconds where Sluice has milliseconds (TIME(0),
// TIMESTAMP(0)); other types are not decoded natively yet.
func flussArrowType(t catalog.Type) (arrow.DataType, error) {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
		catalog.Decimal, catalog.Date:
		return catalog.ArrowType(t)
	case catalog.VarChar:
		return arrow.BinaryTypes.String, nil
	case catalog.VarBinary:
		return arrow.BinaryTypes.Binary, nil
	case catalog.Time:
		switch {
		case t.Precision == 0:
			return arrow.FixedWidthTypes.Time32s, nil // scaled to milliseconds
		case t.Precision <= 3:
			return arrow.FixedWidthTypes.Time32ms, nil
		}
	case catalog.Timestamp, catalog.TimestampLTZ:
		// Both without a time zone: the column's type says which it is.
		switch {
		case t.Precision == 0:
			return &arrow.TimestampType{Unit: arrow.Second}, nil // scaled to milliseconds
		case t.Precision <= 3:
			return &arrow.TimestampType{Unit: arrow.Millisecond}, nil
		case t.Precision >= 4 && t.Precision <= 6:
			return &arrow.TimestampType{Unit: arrow.Microsecond}, nil
		}
	}
	return nil, fmt.Errorf("type %s is not decoded natively yet", t)
}

// schemaMessage is the encapsulated IPC schema message of s, which a stream starts with.
func schemaMessage(s *arrow.Schema) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s))
	if err := w.Close(); err != nil {
		return nil, err
	}
	// The writer ends the stream (continuation marker, zero length); the batch's message is to
	// follow the schema instead.
	out, ok := bytes.CutSuffix(buf.Bytes(), []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	if !ok {
		return nil, errors.New("the IPC writer's stream does not end as expected")
	}
	return out, nil
}

// Decode decodes rows [from, to) of a batch (to at most its RecordCount): the rows of a log
// fetch that start at an offset inside the batch leave out the ones before it.
func (d *Decoder) Decode(b *Batch, from, to int, mem memory.Allocator) (arrow.RecordBatch, error) {
	if from < 0 || to < from || to > int(b.RecordCount) {
		return nil, fmt.Errorf("fluss log batch at offset %d: rows [%d, %d) of %d", b.BaseOffset, from, to, b.RecordCount)
	}
	if d.changelog == b.AppendOnly && b.RecordCount > 0 {
		return nil, fmt.Errorf("fluss log batch at offset %d: append-only %v in a table with changes %v", b.BaseOffset, b.AppendOnly, d.changelog)
	}
	if to == from {
		return d.empty(mem), nil
	}
	r, err := ipc.NewReader(io.MultiReader(bytes.NewReader(d.schema), bytes.NewReader(b.Arrow)), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("fluss log batch at offset %d: %w", b.BaseOffset, err)
	}
	defer r.Release()
	if !r.Next() {
		err := r.Err()
		if err == nil || errors.Is(err, io.EOF) {
			err = errors.New("no Arrow record batch")
		}
		return nil, fmt.Errorf("fluss log batch at offset %d: %w", b.BaseOffset, err)
	}
	rec := r.RecordBatch()
	if rec.NumRows() != int64(b.RecordCount) {
		return nil, fmt.Errorf("fluss log batch at offset %d: %d Arrow rows of %d records", b.BaseOffset, rec.NumRows(), b.RecordCount)
	}
	cols := make([]arrow.Array, 0, d.out.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i := range d.types {
		c := rec.Column(i)
		if d.types[i].Precision == 0 && (d.types[i].Kind == catalog.Time || d.types[i].Kind == catalog.Timestamp || d.types[i].Kind == catalog.TimestampLTZ) {
			cols = append(cols, secondsToMillis(c, d.out.Field(i).Type, from, to, mem))
			continue
		}
		if err := readableByFluss(c, d.types[i], from, to); err != nil {
			return nil, fmt.Errorf("fluss log batch at offset %d: column %s: %w", b.BaseOffset, d.names[i], err)
		}
		cols = append(cols, retyped(c, d.out.Field(i).Type, from, to))
	}
	if d.changelog {
		kb := array.NewInt8Builder(mem)
		kb.Reserve(to - from)
		for _, ct := range b.ChangeTypes[from:to] {
			k, err := rowKind(ct)
			if err != nil {
				kb.Release()
				return nil, fmt.Errorf("fluss log batch at offset %d: %w", b.BaseOffset, err)
			}
			kb.UnsafeAppend(k)
		}
		cols = append(cols, kb.NewArray())
		kb.Release()
	}
	return array.NewRecordBatch(d.out, cols, int64(to-from)), nil
}

// retyped is rows [from, to) of a column in Sluice's type t, whose buffers are the same as the
// Fluss type's (the time zone of a TIMESTAMP_LTZ, say).
func retyped(c arrow.Array, t arrow.DataType, from, to int) arrow.Array {
	data := c.Data()
	same := array.NewData(t, data.Len(), data.Buffers(), data.Children(), data.NullN(), data.Offset())
	defer same.Release()
	sliced := array.NewSliceData(same, int64(from), int64(to))
	defer sliced.Release()
	return array.MakeFromData(sliced)
}

// readableByFluss fails where Fluss's own reader fails: a TIMESTAMP or TIMESTAMP_LTZ of
// precision 4 to 6 before 1970 with a fraction of a millisecond, whose microseconds Fluss's
// Arrow vectors split with truncating division into a negative nanosecond part, which its
// TimestampLtz (and Flink's TimestampData) refuse.
func readableByFluss(c arrow.Array, t catalog.Type, from, to int) error {
	if (t.Kind != catalog.Timestamp && t.Kind != catalog.TimestampLTZ) || t.Precision < 4 {
		return nil
	}
	values := c.(*array.Timestamp).Values()
	for r := from; r < to; r++ {
		if v := values[r]; v < 0 && v%1000 != 0 && c.IsValid(r) {
			return fmt.Errorf("row %d: %d microseconds before 1970 with a fraction of a millisecond, which Fluss's reader fails on (a negative nanosecond of the millisecond)", r, int64(v))
		}
	}
	return nil
}

// secondsToMillis is rows [from, to) of a column of seconds (Time32 or Timestamp) as t's
// milliseconds, NULLs kept.
func secondsToMillis(c arrow.Array, t arrow.DataType, from, to int, mem memory.Allocator) arrow.Array {
	n := to - from
	data := c.Data()
	var valid *memory.Buffer
	if c.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(data.Buffers()[0].Bytes(), data.Offset()+from, n, valid.Bytes(), 0)
		defer valid.Release()
	}
	values := memory.NewResizableBuffer(mem)
	defer values.Release()
	switch c.DataType().ID() {
	case arrow.TIME32:
		values.Resize(4 * n)
		in, out := arrow.Int32Traits.CastFromBytes(data.Buffers()[1].Bytes())[data.Offset()+from:], arrow.Int32Traits.CastFromBytes(values.Bytes())
		for i := range out {
			out[i] = in[i] * 1000
		}
	default:
		values.Resize(8 * n)
		in, out := arrow.Int64Traits.CastFromBytes(data.Buffers()[1].Bytes())[data.Offset()+from:], arrow.Int64Traits.CastFromBytes(values.Bytes())
		for i := range out {
			out[i] = in[i] * 1000
		}
	}
	nulls := array.UnknownNullCount
	if valid == nil {
		nulls = 0
	}
	out := array.NewData(t, n, []*memory.Buffer{valid, values}, nil, nulls, 0)
	defer out.Release()
	return array.MakeFromData(out)
}

// rowKind maps a Fluss change type to Flink's RowKind, as Fluss's connector does: appends and
// inserts +I, update before -U, update after +U, delete -D.
func rowKind(ct byte) (int8, error) {
	switch ct {
	case 0, 1:
		return changelog.Insert, nil
	case 2:
		return changelog.UpdateBefore, nil
	case 3:
		return changelog.UpdateAfter, nil
	case 4:
		return changelog.Delete, nil
	}
	return 0, fmt.Errorf("change type %d", ct)
}

// empty is a batch of no rows of the decoder's schema.
func (d *Decoder) empty(mem memory.Allocator) arrow.RecordBatch {
	cols := make([]arrow.Array, d.out.NumFields())
	for i := range cols {
		cols[i] = array.MakeArrayOfNull(mem, d.out.Field(i).Type, 0)
	}
	b := array.NewRecordBatch(d.out, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return b
}
