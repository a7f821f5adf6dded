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

// ValueFetch turns the records of one Kafka partition fetch into one batch of rows in record
// order: the fields of their values, then the metadata columns the table reads. The records the
// value format's native decoder takes are decoded in Go; at a record it leaves to Flink, Decode
// stops, the caller decodes that record with Flink's own deserializer (metadata columns
// included) and hands its rows (BinaryRowData, any number) to AppendRows, then goes on with
// Decode from the next record.
type ValueFetch struct {
	dec    kafkavalue.Decoder
	rows   *binaryrow.Decoder
	schema *arrow.Schema
	mem    memory.Allocator
	parts  []arrow.RecordBatch
	// meta is the fetch's record metadata, and records the record of each row decoded in Go
	// since the last part, when the table reads metadata columns.
	meta    *recordMeta
	records []int32
}

// NewValueFetch returns a fetch decoder of a value format's records into rows of the named
// fields, whose last len(metadata) are the metadata columns of those keys (Flink's order:
// value fields, then metadata).
func NewValueFetch(format kafkavalue.Format, names []string, types []catalog.Type, metadata []string, mem memory.Allocator) (*ValueFetch, error) {
	value := len(names) - len(metadata)
	if value < 0 || len(types) != len(names) {
		return nil, fmt.Errorf("value fetch: %d metadata columns of %d columns", len(metadata), len(names))
	}
	dec, err := kafkavalue.NewDecoder(format, names[:value], types[:value])
	if err != nil {
		return nil, err
	}
	rows, err := binaryrow.NewDecoder(names, types, mem)
	if err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	f := &ValueFetch{dec: dec, rows: rows, schema: schema, mem: mem}
	if len(metadata) > 0 {
		f.meta = &recordMeta{keys: metadata}
	}
	return f, nil
}

// ReadsMetadata says whether the fetch's rows have metadata columns, for which the caller hands
// each fetch's record metadata to SetRecords before decoding it.
func (f *ValueFetch) ReadsMetadata() bool { return f.meta != nil }

// SetRecords sets the record metadata of the fetch to decode: its topic and partition, and
// RecordMetaSize bytes per record (read in place until Finish).
func (f *ValueFetch) SetRecords(topic string, partition int32, meta []byte) {
	if f.meta != nil {
		f.meta.topic, f.meta.partition, f.meta.meta = topic, partition, meta
	}
}

// Decode decodes records values[starts[r]:starts[r+1]] from record from on, and returns the
// first record it leaves to Flink's deserializer (the number of records when none).
func (f *ValueFetch) Decode(values []byte, starts []int32, from int) (int, error) {
	n := len(starts) - 1
	for r := from; r < n; r++ {
		if starts[r] > starts[r+1] || int(starts[r+1]) > len(values) {
			return 0, fmt.Errorf("value fetch: record %d at [%d, %d) of %d bytes", r, starts[r], starts[r+1], len(values))
		}
		rows, ok := f.dec.Add(values[starts[r]:starts[r+1]])
		if !ok {
			return r, f.cut()
		}
		if f.meta != nil && rows > 0 {
			f.records = append(f.records, int32(r)) // the decoders add a row per record at most
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
	f.parts = append(f.parts, array.NewRecordBatch(f.schema, b.Columns()[:f.schema.NumFields()], b.NumRows()))
	return nil
}

// cut closes the rows decoded natively so far into a part, with their metadata columns.
func (f *ValueFetch) cut() error {
	if f.dec.Rows() == 0 {
		return nil
	}
	b, err := f.dec.Finish(f.mem)
	if err != nil {
		return err
	}
	if f.meta == nil {
		f.parts = append(f.parts, b)
		return nil
	}
	defer b.Release()
	records := f.records
	f.records = f.records[:0]
	if len(records) != int(b.NumRows()) {
		return fmt.Errorf("value fetch: %d rows of %d records", b.NumRows(), len(records))
	}
	meta, err := f.meta.columns(f.mem, records)
	if err != nil {
		return err
	}
	cols := append(append([]arrow.Array(nil), b.Columns()...), meta...)
	f.parts = append(f.parts, array.NewRecordBatch(f.schema, cols, b.NumRows()))
	for _, c := range meta {
		c.Release()
	}
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
	schema := f.schema
	switch len(parts) {
	case 0:
		return f.empty()
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

// empty is a batch of no rows of the fetch's schema.
func (f *ValueFetch) empty() (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, f.schema.NumFields())
	for i := range cols {
		cols[i] = array.MakeArrayOfNull(f.mem, f.schema.Field(i).Type, 0)
	}
	b := array.NewRecordBatch(f.schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return b, nil
}
