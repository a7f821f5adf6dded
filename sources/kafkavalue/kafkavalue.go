// Package kafkavalue picks the native decoder of a Kafka table's value or key format: the formats
// whose records Go decodes exactly as Flink's format does (json, csv, raw, avro, and the
// changelog format debezium-json, whose rows carry their RowKinds), behind one interface the
// native Kafka scan drives record by record.
package kafkavalue

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/avroformat"
	"github.com/sluice-project/sluice/sources/csvformat"
	"github.com/sluice-project/sluice/sources/debeziumformat"
	"github.com/sluice-project/sluice/sources/jsonformat"
	"github.com/sluice-project/sluice/sources/rawformat"
)

// Format is a value format and its decoding options.
type Format struct {
	// Name is the format's identifier ('format' or 'value.format'): json, csv, raw, avro or
	// debezium-json.
	Name string
	// JSON are the json format's options (Name json).
	JSON jsonformat.Options
	// CSV are the csv format's options (Name csv).
	CSV csvformat.Options
	// Raw are the raw format's options (Name raw).
	Raw rawformat.Options
	// Avro are the avro format's options (Name avro).
	Avro avroformat.Options
	// Debezium are the debezium-json format's options (Name debezium-json).
	Debezium debeziumformat.Options
}

// Changelog says whether the format's records are changes: its decoder's batches end with the
// rows' RowKinds (a catalog.RowKindColumn column).
func (f Format) Changelog() bool { return f.Name == "debezium-json" }

// Decoder decodes record values into rows. A record it leaves to Flink's deserializer (ok false)
// added nothing; the caller decodes it with Flink's and goes on with the next.
type Decoder interface {
	// Add decodes one record value and reports how many rows it added.
	Add(value []byte) (rows int, ok bool)
	// Rows is the number of rows decoded since the last Finish.
	Rows() int
	// DropLast takes back the rows of the last record decoded (one row in the formats that
	// make a row per record; both of a debezium-json update).
	DropLast()
	// Finish returns the rows decoded since the last Finish as a batch, and starts a new one.
	Finish(mem memory.Allocator) (arrow.RecordBatch, error)
	// Schema is the schema of the decoded batches.
	Schema() *arrow.Schema
}

// NewDecoder returns the decoder of a format's records into rows of the named fields; an error
// says why the format's records are not decoded natively for these fields.
func NewDecoder(f Format, names []string, types []catalog.Type) (Decoder, error) {
	switch f.Name {
	case "json":
		return jsonformat.NewDecoder(names, types, f.JSON)
	case "csv":
		return csvformat.NewDecoder(names, types, f.CSV)
	case "raw":
		return rawformat.NewDecoder(names, types, f.Raw)
	case "avro":
		return avroformat.NewDecoder(names, types, f.Avro)
	case "debezium-json":
		return debeziumformat.NewDecoder(names, types, f.Debezium)
	}
	return nil, fmt.Errorf("the value format '%s' is not decoded natively yet (json, csv, raw, avro and debezium-json are)", f.Name)
}
