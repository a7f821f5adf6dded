package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

// FetchLayout is how a Kafka table's produced row is made of a record: the value's fields, the
// key's fields when the table has a key format, then the metadata columns (Flink's
// DynamicKafkaDeserializationSchema: physical fields, then metadata, in that order).
type FetchLayout struct {
	// Value is the value format.
	Value kafkavalue.Format
	// ValueFields are the positions of the value's fields in the physical row (nil: all of
	// them, in order).
	ValueFields []int
	// Key is the key format (nil without one), KeyNames the key's field names (without
	// 'key.fields-prefix') and KeyFields their positions in the physical row. A field in both
	// ('value.fields-include' = 'ALL') takes the value's.
	Key       *kafkavalue.Format
	KeyNames  []string
	KeyFields []int
	// Metadata are the keys of the metadata columns, the row's last columns.
	Metadata []string
	// Upsert is set for an upsert-kafka table (Flink's upsert mode): a record with a value
	// makes inserts, one without (a tombstone) a delete of its key's row with NULL in the
	// value's other fields; the rows end with their RowKinds (catalog.RowKindColumn).
	Upsert bool
}

// ValueFetch turns the records of one Kafka partition fetch into one batch of rows in record
// order, laid out by a FetchLayout. The records the formats' native decoders take are decoded
// in Go; at a record they leave to Flink, Decode stops, the caller decodes that record with
// Flink's own deserializer (key, value and metadata) and hands its rows (BinaryRowData, any
// number) to AppendRows, then goes on with Decode from the next record.
type ValueFetch struct {
	layout FetchLayout
	dec    kafkavalue.Decoder
	key    kafkavalue.Decoder
	rows   *binaryrow.Decoder
	schema *arrow.Schema
	mem    memory.Allocator
	parts  []arrow.RecordBatch
	// keys are the fetch's record keys (keyStarts[r] to keyStarts[r+1]), with a key format.
	keys      []byte
	keyStarts []int32
	// meta is the fetch's record metadata, and records the record of each row decoded in Go
	// since the last part, when the table reads metadata columns.
	meta    *recordMeta
	records []int32
	// Upsert mode: tombstones marks the fetch's records without a value (SetTombstones); kinds
	// are the RowKinds of the rows decoded in Go since the last part, and valueRows each row's
	// row in the value decoder's batch (-1 for a tombstone's), kept while the part has a
	// tombstone.
	tombstones []byte
	kinds      []int8
	valueRows  []int32
	deletes    int
}

// NewValueFetch returns a fetch decoder of records into rows of the named fields, laid out by l.
func NewValueFetch(l FetchLayout, names []string, types []catalog.Type, mem memory.Allocator) (*ValueFetch, error) {
	physical := len(names) - len(l.Metadata)
	if physical < 0 || len(types) != len(names) {
		return nil, fmt.Errorf("value fetch: %d metadata columns of %d columns", len(l.Metadata), len(names))
	}
	if l.ValueFields == nil {
		l.ValueFields = make([]int, physical)
		for i := range l.ValueFields {
			l.ValueFields[i] = i
		}
	}
	covered := make([]bool, physical)
	pick := func(fields []int) ([]string, []catalog.Type, error) {
		var ns []string
		var ts []catalog.Type
		for _, p := range fields {
			if p < 0 || p >= physical {
				return nil, nil, fmt.Errorf("value fetch: field position %d of %d", p, physical)
			}
			covered[p] = true
			ns, ts = append(ns, names[p]), append(ts, types[p])
		}
		return ns, ts, nil
	}
	valueNames, valueTypes, err := pick(l.ValueFields)
	if err != nil {
		return nil, err
	}
	dec, err := kafkavalue.NewDecoder(l.Value, valueNames, valueTypes)
	if err != nil {
		return nil, err
	}
	f := &ValueFetch{layout: l, dec: dec, mem: mem}
	if l.Key != nil {
		_, keyTypes, err := pick(l.KeyFields)
		if err != nil {
			return nil, err
		}
		if len(l.KeyNames) != len(l.KeyFields) {
			return nil, fmt.Errorf("value fetch: %d key names for %d key fields", len(l.KeyNames), len(l.KeyFields))
		}
		if f.key, err = kafkavalue.NewDecoder(*l.Key, l.KeyNames, keyTypes); err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
	}
	for p, c := range covered {
		if !c {
			return nil, fmt.Errorf("value fetch: field %s is neither the key's nor the value's", names[p])
		}
	}
	if f.rows, err = binaryrow.NewDecoder(names, types, mem); err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	if f.schema, err = catalog.ArrowSchema(names, types); err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	switch {
	case l.Value.Changelog():
		// The rows carry their RowKinds in a last column, the value decoder's own.
		if l.Key != nil || len(l.Metadata) > 0 || l.Upsert {
			return nil, fmt.Errorf("value fetch: key fields, metadata columns or upserts beside the %s format's changes", l.Value.Name)
		}
		f.schema = dec.Schema()
	case l.Upsert:
		if l.Key == nil {
			return nil, fmt.Errorf("value fetch: upserts without a key format")
		}
		f.schema = arrow.NewSchema(append(f.schema.Fields(), arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8}), nil)
	}
	if len(l.Metadata) > 0 {
		f.meta = &recordMeta{keys: l.Metadata}
	}
	return f, nil
}

// ReadsMetadata says whether the fetch's rows have metadata columns, for which the caller hands
// each fetch's record metadata to SetRecords before decoding it.
func (f *ValueFetch) ReadsMetadata() bool { return f.meta != nil }

// ReadsKeys says whether the fetch's rows have key fields, for which the caller hands each
// fetch's record keys to SetKeys before decoding it.
func (f *ValueFetch) ReadsKeys() bool { return f.key != nil }

// SetRecords sets the record metadata of the fetch to decode: its topic and partition, and
// RecordMetaSize bytes per record (read in place until Finish).
func (f *ValueFetch) SetRecords(topic string, partition int32, meta []byte) {
	if f.meta != nil {
		f.meta.topic, f.meta.partition, f.meta.meta = topic, partition, meta
	}
}

// SetKeys sets the record keys of the fetch to decode: record r's is keys[starts[r]:starts[r+1]]
// (read in place until Finish; a record without a key has an empty one).
func (f *ValueFetch) SetKeys(keys []byte, starts []int32) {
	f.keys, f.keyStarts = keys, starts
}

// ReadsTombstones says whether the fetch tells records without a value from records with an
// empty one (upsert mode), for which the caller hands each fetch's marks to SetTombstones before
// decoding it.
func (f *ValueFetch) ReadsTombstones() bool { return f.layout.Upsert }

// SetTombstones marks the records of the fetch to decode that have no value (a null value in
// Kafka's record, a tombstone): marks[r] is 1 for such a record r, else 0 (read in place until
// Finish).
func (f *ValueFetch) SetTombstones(marks []byte) { f.tombstones = marks }

// Decode decodes records values[starts[r]:starts[r+1]] from record from on, and returns the
// first record it leaves to Flink's deserializer (the number of records when none).
func (f *ValueFetch) Decode(values []byte, starts []int32, from int) (int, error) {
	n := len(starts) - 1
	if f.key != nil && len(f.keyStarts) != len(starts) {
		return 0, fmt.Errorf("value fetch: %d keys for %d records", len(f.keyStarts)-1, n)
	}
	if f.layout.Upsert && len(f.tombstones) != n {
		return 0, fmt.Errorf("value fetch: %d tombstone marks for %d records", len(f.tombstones), n)
	}
	for r := from; r < n; r++ {
		if starts[r] > starts[r+1] || int(starts[r+1]) > len(values) {
			return 0, fmt.Errorf("value fetch: record %d at [%d, %d) of %d bytes", r, starts[r], starts[r+1], len(values))
		}
		if f.key == nil {
			rows, ok := f.dec.Add(values[starts[r]:starts[r+1]])
			if !ok {
				return r, f.cut()
			}
			if f.meta != nil && rows > 0 {
				for range rows { // each row's record (a changelog format may make two of one)
					f.records = append(f.records, int32(r))
				}
			}
			continue
		}
		ks, ke := f.keyStarts[r], f.keyStarts[r+1]
		if ks > ke || int(ke) > len(f.keys) {
			return 0, fmt.Errorf("value fetch: key %d at [%d, %d) of %d bytes", r, ks, ke, len(f.keys))
		}
		k, ok := f.key.Add(f.keys[ks:ke])
		if !ok {
			return r, f.cut()
		}
		if f.layout.Upsert && f.tombstones[r] != 0 {
			// Flink deletes the key's row, the value's fields NULL (none without a key row).
			if k > 0 {
				f.deletes++
				f.kinds = append(f.kinds, changelog.Delete)
				f.valueRows = append(f.valueRows, -1)
				if f.meta != nil {
					f.records = append(f.records, int32(r))
				}
			}
			continue
		}
		rows, ok := f.dec.Add(values[starts[r]:starts[r+1]])
		if !ok {
			if k > 0 {
				f.key.DropLast()
			}
			return r, f.cut()
		}
		// Flink emits a row per key row and value row: none when either has none (a json key
		// or value that is empty), yet it decodes both, so their errors are Flink's above.
		switch {
		case k > 0 && rows > 0:
			if f.meta != nil {
				f.records = append(f.records, int32(r))
			}
			if f.layout.Upsert {
				f.kinds = append(f.kinds, changelog.Insert)
				f.valueRows = append(f.valueRows, int32(f.dec.Rows()-1))
			}
		case k > 0:
			f.key.DropLast()
		case rows > 0:
			f.dec.DropLast()
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
	// The decoder's batch ends with the rows' RowKinds: a changelog format's schema keeps them,
	// the others' rows are all inserts.
	f.parts = append(f.parts, array.NewRecordBatch(f.schema, b.Columns()[:f.schema.NumFields()], b.NumRows()))
	return nil
}

// cut closes the rows decoded natively so far into a part: the key's and the value's fields in
// their places, then the metadata columns, then (upsert mode) the RowKinds.
func (f *ValueFetch) cut() error {
	if f.dec.Rows() == 0 && len(f.kinds) == 0 {
		return nil
	}
	if f.key == nil && f.meta == nil {
		b, err := f.dec.Finish(f.mem)
		if err != nil {
			return err
		}
		f.parts = append(f.parts, b)
		return nil
	}
	cols := make([]arrow.Array, f.schema.NumFields())
	var owned []arrow.Array
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
		for _, a := range owned {
			a.Release()
		}
	}()
	if f.key != nil {
		kb, err := f.key.Finish(f.mem)
		if err != nil {
			return fmt.Errorf("key: %w", err)
		}
		batches = append(batches, kb)
		for i, p := range f.layout.KeyFields {
			cols[p] = kb.Column(i)
		}
	}
	vb, err := f.dec.Finish(f.mem)
	if err != nil {
		return fmt.Errorf("value: %w", err)
	}
	batches = append(batches, vb)
	rows := vb.NumRows()
	if f.layout.Upsert {
		rows = int64(len(f.kinds))
		if n := batches[0].NumRows(); n != rows {
			return fmt.Errorf("value fetch: %d key rows for %d rows", n, rows)
		}
		b := array.NewInt8Builder(f.mem)
		b.AppendValues(f.kinds, nil)
		kinds := b.NewArray()
		b.Release()
		owned = append(owned, kinds)
		cols[len(cols)-1] = kinds
	}
	for i, p := range f.layout.ValueFields {
		c := vb.Column(i)
		if f.deletes > 0 {
			// The tombstones' rows take NULL, or the key's field where the value has the key's.
			if c, err = f.withDeletes(c, cols[p]); err != nil {
				return fmt.Errorf("value fetch: column %s: %w", f.schema.Field(p).Name, err)
			}
			owned = append(owned, c)
		}
		cols[p] = c
	}
	f.kinds, f.valueRows, f.deletes = f.kinds[:0], f.valueRows[:0], 0
	if f.meta != nil {
		records := f.records
		f.records = f.records[:0]
		if len(records) != int(rows) {
			return fmt.Errorf("value fetch: %d rows of %d records", rows, len(records))
		}
		meta, err := f.meta.columns(f.mem, records)
		if err != nil {
			return err
		}
		owned = append(owned, meta...)
		end := len(cols)
		if f.layout.Upsert {
			end-- // the RowKinds come last
		}
		copy(cols[end-len(meta):end], meta)
	}
	f.parts = append(f.parts, array.NewRecordBatch(f.schema, cols, rows))
	return nil
}

// withDeletes lays out a value column over the part's rows in upsert mode: row i is the value's
// row valueRows[i], or for a tombstone NULL (key nil) or the key's row i.
func (f *ValueFetch) withDeletes(value, key arrow.Array) (arrow.Array, error) {
	if key == nil {
		return column.TakeOrNull(value, f.valueRows, f.mem)
	}
	sel := make([]int32, len(f.valueRows))
	for i, r := range f.valueRows {
		if r < 0 {
			r = int32(value.Len() + i)
		}
		sel[i] = r
	}
	return column.TakeEither(value, key, sel, f.mem)
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
	if len(parts) == 0 {
		return emptyBatch(f.schema, f.mem), nil
	}
	b, err := concatBatches(f.schema, parts, f.mem)
	if err != nil {
		return nil, fmt.Errorf("value fetch: %w", err)
	}
	return b, nil
}

// concatBatches makes one batch of schema of parts (at least one; they stay the caller's).
func concatBatches(schema *arrow.Schema, parts []arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	if len(parts) == 1 {
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
		a, err := array.Concatenate(pieces, mem)
		if err != nil {
			for _, done := range out[:c] {
				done.Release()
			}
			return nil, fmt.Errorf("column %s: %w", schema.Field(c).Name, err)
		}
		out[c] = a
	}
	b := array.NewRecordBatch(schema, out, rows)
	for _, a := range out {
		a.Release()
	}
	return b, nil
}

// emptyBatch is a batch of no rows of schema.
func emptyBatch(schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for i := range cols {
		cols[i] = array.MakeArrayOfNull(mem, schema.Field(i).Type, 0)
	}
	b := array.NewRecordBatch(schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return b
}
