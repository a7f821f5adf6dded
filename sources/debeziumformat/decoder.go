// Package debeziumformat decodes records of Flink's debezium-json format
// (DebeziumJsonDeserializationSchema) into rows with their RowKinds. Each record is a Debezium
// envelope, a JSON object with the fields before, after and op, which Flink reads with its json
// format's tree deserializer (inside the record's "payload" with 'debezium-json.schema-include');
// op "c" or "r" gives the after row as an insert (+I), "u" the
// before row (-U) and the after row (+U), "d" the before row as a delete (-D), and a record
// without a value gives nothing.
//
// The envelope is decoded by sources/jsonformat, which takes the records whose values are certain
// and leaves the others to Flink's deserializer. This decoder leaves to Flink, too, every
// envelope Flink rejects or skips under 'debezium-json.ignore-parse-errors': an unknown or
// missing op, an update or delete without its before row, a create without its after row.
package debeziumformat

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/sources/jsonformat"
)

// The envelope's fields, in the order Flink's deserializer declares them.
const (
	beforeField = iota
	afterField
	opField
)

// Options are the debezium-json format's decoding options that the decoder takes.
type Options struct {
	// ISOTimestamps is 'debezium-json.timestamp-format.standard' = 'ISO-8601' (else 'SQL').
	ISOTimestamps bool
	// SchemaInclude is 'debezium-json.schema-include': the envelope is the record's "payload"
	// field (Kafka Connect's JSON converter with schemas enabled), its "schema" skipped.
	SchemaInclude bool
}

// Decoder decodes records of one row type into rows with their RowKinds, in the schema's last
// column (catalog.RowKindColumn). It is not safe for concurrent use.
type Decoder struct {
	env *jsonformat.Decoder
	// at is the envelope's path in the decoded record: nothing, or the payload field; op,
	// before and after are its fields' paths.
	at                            []int
	opPath, beforePath, afterPath []int
	names                         []string
	schema                        *arrow.Schema
	// Per row since the last Finish: its envelope row, whether it is the after row, its kind.
	envRows []int32
	after   []bool
	kinds   []int8
	// perRecord is the number of rows of each record since the last Finish (for DropLast).
	perRecord []int
}

// NewDecoder returns a decoder of records into rows of the named fields. The fields' types are
// those sources/jsonformat decodes.
func NewDecoder(fieldNames []string, fieldTypes []catalog.Type, opts Options) (*Decoder, error) {
	if len(fieldNames) != len(fieldTypes) {
		return nil, fmt.Errorf("debezium-json decoder: %d names for %d types", len(fieldNames), len(fieldTypes))
	}
	fields := make([]catalog.Field, len(fieldNames))
	for i := range fieldNames {
		if fieldTypes[i].Kind == catalog.Row {
			return nil, fmt.Errorf("debezium-json decoder: field %s of type %s is decoded by Flink", fieldNames[i], fieldTypes[i])
		}
		fields[i] = catalog.Field{Name: fieldNames[i], Type: fieldTypes[i]}
	}
	// before and after are nullable whatever the table's row type says: Flink's tree
	// deserializer gives NULL for a missing or null one.
	row := catalog.Type{Kind: catalog.Row, Fields: fields, Nullable: true}
	names, types := []string{"before", "after", "op"}, []catalog.Type{row, row, catalog.StringType(true)}
	var at []int
	if opts.SchemaInclude {
		payload := catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{
			{Name: names[0], Type: types[0]}, {Name: names[1], Type: types[1]}, {Name: names[2], Type: types[2]}}}
		names, types, at = []string{"payload"}, []catalog.Type{payload}, []int{0}
	}
	env, err := jsonformat.NewDecoder(names, types, jsonformat.Options{ISOTimestamps: opts.ISOTimestamps, Tree: true})
	if err != nil {
		return nil, fmt.Errorf("debezium-json decoder: %w", err)
	}
	schema, err := catalog.ArrowSchema(fieldNames, fieldTypes)
	if err != nil {
		return nil, fmt.Errorf("debezium-json decoder: %w", err)
	}
	all := append(schema.Fields(), arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	path := func(field int) []int { return append(append([]int(nil), at...), field) }
	return &Decoder{env: env, at: at, opPath: path(opField), beforePath: path(beforeField), afterPath: path(afterField),
		names: fieldNames, schema: arrow.NewSchema(all, nil)}, nil
}

// Schema is the schema of the decoded batches: the fields, then their RowKinds.
func (d *Decoder) Schema() *arrow.Schema { return d.schema }

// Rows is the number of rows decoded since the last Finish.
func (d *Decoder) Rows() int { return len(d.kinds) }

// Add decodes one record and reports how many rows it added: none for a record without a value
// (Flink skips it), one for a create, read or delete, two for an update. ok is false for a
// record left to Flink's deserializer, which added nothing.
func (d *Decoder) Add(value []byte) (rows int, ok bool) {
	if len(value) == 0 {
		return 0, true
	}
	if _, ok := d.env.Add(value); !ok {
		return 0, false
	}
	e := int32(d.env.Rows() - 1)
	start := len(d.kinds)
	op, hasOp := d.env.Last(d.opPath...)
	_, hasBefore := d.env.Last(d.beforePath...)
	_, hasAfter := d.env.Last(d.afterPath...)
	switch {
	case hasOp && (string(op) == "c" || string(op) == "r") && hasAfter:
		d.add(e, true, changelog.Insert)
	case hasOp && string(op) == "u" && hasBefore && hasAfter:
		d.add(e, false, changelog.UpdateBefore)
		d.add(e, true, changelog.UpdateAfter)
	case hasOp && string(op) == "d" && hasBefore:
		d.add(e, false, changelog.Delete)
	default:
		// Flink fails the record, or skips it under ignore-parse-errors.
		d.env.DropLast()
		return 0, false
	}
	n := len(d.kinds) - start
	d.perRecord = append(d.perRecord, n)
	return n, true
}

func (d *Decoder) add(envRow int32, after bool, kind int8) {
	d.envRows, d.after, d.kinds = append(d.envRows, envRow), append(d.after, after), append(d.kinds, kind)
}

// DropLast takes back the rows of the last record decoded.
func (d *Decoder) DropLast() {
	if len(d.perRecord) == 0 {
		return
	}
	n := len(d.kinds) - d.perRecord[len(d.perRecord)-1]
	d.perRecord = d.perRecord[:len(d.perRecord)-1]
	d.envRows, d.after, d.kinds = d.envRows[:n], d.after[:n], d.kinds[:n]
	d.env.DropLast()
}

// Finish returns the rows decoded since the last Finish as a batch, and starts a new one.
func (d *Decoder) Finish(mem memory.Allocator) (arrow.RecordBatch, error) {
	env, err := d.env.Finish(mem)
	if err != nil {
		return nil, fmt.Errorf("debezium-json decoder: %w", err)
	}
	defer env.Release()
	n := int32(env.NumRows())
	// Row r of the output is field values of the before rows (index envRow) or of the after
	// rows (index n + envRow).
	sel := make([]int32, len(d.kinds))
	for r, e := range d.envRows {
		sel[r] = e
		if d.after[r] {
			sel[r] += n
		}
	}
	envelope := func(field int) *array.Struct {
		if d.at != nil {
			return env.Column(0).(*array.Struct).Field(field).(*array.Struct)
		}
		return env.Column(field).(*array.Struct)
	}
	before, after := envelope(beforeField), envelope(afterField)
	cols := make([]arrow.Array, 0, len(d.names)+1)
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i := range d.names {
		taken, err := column.TakeEither(before.Field(i), after.Field(i), sel, mem)
		if err != nil {
			return nil, fmt.Errorf("debezium-json decoder: field %s: %w", d.names[i], err)
		}
		cols = append(cols, taken)
	}
	kinds := array.NewInt8Builder(mem)
	kinds.AppendValues(d.kinds, nil)
	cols = append(cols, kinds.NewArray())
	kinds.Release()
	rows := len(d.kinds)
	d.envRows, d.after, d.kinds, d.perRecord = d.envRows[:0], d.after[:0], d.kinds[:0], d.perRecord[:0]
	return array.NewRecordBatch(d.schema, cols, int64(rows)), nil
}
