package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

// ValueFetch turns the record values of one Kafka partition fetch into one batch of rows in
// record order. The records the value format's native decoder takes are decoded in Go; at a record it leaves to
// Flink, Decode stops, the caller decodes that record with Flink's own deserializer and hands its
// rows (BinaryRowData, any number) to AppendRows, then goes on with Decode from the next record.
type ValueFetch struct {
	dec   kafkavalue.Decoder
	rows  *binaryrow.Decoder
	mem   memory.Allocator
	parts []arrow.RecordBatch
}

// NewValueFetch returns a fetch decoder of a value format's records into rows of the named fields.
func NewValueFetch(format kafkavalue.Format, names []string, types []catalog.Type, mem memory.Allocator) (*ValueFetch, error) {
	dec, err := kafkavalue.NewDecoder(format, names, types)
	if err != nil {
		return nil, err
	}
	rows, err := binaryrow.NewDecoder(names, types, mem)
	if err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	return &ValueFetch{dec: dec, rows: rows, mem: mem}, nil
}

// Decode decodes records values[starts[r]:starts[r+1]] from record from on, and returns the
// first record it leaves to Flink's deserializer (the number of records when none).
func (f *ValueFetch) Decode(values []byte, starts []int32, from int) (int, error) {
	n := len(starts) - 1
	for r := from; r < n; r++ {
		if starts[r] > starts[r+1] || int(starts[r+1]) > len(values) {
			return 0, fmt.Errorf("value fetch: record %d at [%d, %d) of %d bytes", r, starts[r], starts[r+1], len(values))
		}
		if _, ok := f.dec.Add(values[starts[r]:starts[r+1]]); !ok {
			return r, f.cut()
		}
	}
	return n, nil
}

// AppendRows appends the rows Flink's deserializer made of the record Decode stopped at (row i
// is data[offsets[i]:offsets[i+1]]).
func (f *ValueFetch) AppendRows(data []byte, offsets []int32) error {
	if len(offsets) < 2 {
		return nil
	}
	b, err := f.rows.Decode(data, offsets)
	if err != nil {
		return fmt.Errorf("value fetch: Flink's rows: %w", err)
	}
	defer b.Release()
	// The decoder's batch ends with the rows' RowKinds, all inserts here.
	schema := f.dec.Schema()
	f.parts = append(f.parts, array.NewRecordBatch(schema, b.Columns()[:schema.NumFields()], b.NumRows()))
	return nil
}

// cut closes the rows decoded natively so far into a part.
func (f *ValueFetch) cut() error {
	if f.dec.Rows() == 0 {
		return nil
	}
	b, err := f.dec.Finish(f.mem)
	if err != nil {
		return err
	}
	f.parts = append(f.parts, b)
	return nil
}

// Finish returns the fetch's rows as one batch, in record order, and starts a new fetch.
func (f *ValueFetch) Finish() (arrow.RecordBatch, error) {
	if err := f.cut(); err != nil {
		return nil, err
	}
	parts := f.parts
	f.parts = nil
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	schema := f.dec.Schema()
	switch len(parts) {
	case 0:
		return f.dec.Finish(f.mem) // an empty batch
	case 1:
		parts[0].Retain()
		return parts[0], nil
	}
	out := make([]arrow.Array, schema.NumFields())
	rows := int64(0)
	for _, p := range parts {
		rows += p.NumRows()
	}
	for c := range out {
		pieces := make([]arrow.Array, len(parts))
		for i, p := range parts {
			pieces[i] = p.Column(c)
		}
		a, err := array.Concatenate(pieces, f.mem)
		if err != nil {
			for _, done := range out[:c] {
				done.Release()
			}
			return nil, fmt.Errorf("value fetch: column %s: %w", schema.Field(c).Name, err)
		}
		out[c] = a
	}
	b := array.NewRecordBatch(schema, out, rows)
	for _, a := range out {
		a.Release()
	}
	return b, nil
}
