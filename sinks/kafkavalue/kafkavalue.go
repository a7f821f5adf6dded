// Package kafkavalue picks the native encoder of a Kafka table's value or key format: the formats whose
// records Go writes byte for byte as Flink's format does (json, csv, raw, avro, and the changelog
// format debezium-json), behind one interface the native Kafka sink drives batch by batch.
package kafkavalue

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/avroformat"
	"github.com/sluice-project/sluice/sinks/csvformat"
	"github.com/sluice-project/sluice/sinks/debeziumformat"
	"github.com/sluice-project/sluice/sinks/jsonformat"
	"github.com/sluice-project/sluice/sinks/rawformat"
	"github.com/sluice-project/sluice/sinks/recordends"
)

// Format is a value format and its encoding options.
type Format struct {
	// Name is the format's identifier ('format' or 'value.format'): json, csv, raw, avro or
	// debezium-json.
	Name string
	// JSON are the json format's options (Name json or debezium-json).
	JSON jsonformat.Options
	// CSV are the csv format's options (Name csv).
	CSV csvformat.Options
	// Raw are the raw format's options (Name raw).
	Raw rawformat.Options
	// Avro are the avro format's options (Name avro).
	Avro avroformat.Options
}

// Encoder encodes rows as record values.
type Encoder interface {
	// AppendRecords appends the record values of b's rows to body, and each record's end in body
	// to ends (with recordends.NullValue set for a record without a value).
	AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error)
}

// ChangeEncoder is the Encoder of a changelog format, whose records say how the table changed:
// it also encodes rows with their RowKinds.
type ChangeEncoder interface {
	Encoder
	// AppendChanges appends the records of b's rows, of the RowKinds kinds (Flink's
	// RowKind#toByteValue), as AppendRecords appends those of inserts.
	AppendChanges(body []byte, ends []uint32, b arrow.RecordBatch, kinds []int8) ([]byte, []uint32, error)
}

// NewEncoder returns the encoder of rows of the named fields into a format's records; an error
// says why the format's records are not written natively for these fields.
func NewEncoder(f Format, names []string, types []catalog.Type) (Encoder, error) {
	switch f.Name {
	case "json":
		e, err := jsonformat.NewEncoder(names, types, f.JSON)
		if err != nil {
			return nil, err
		}
		return jsonRecords{e}, nil
	case "csv":
		return csvformat.NewEncoder(names, types, f.CSV)
	case "raw":
		return rawformat.NewEncoder(names, types, f.Raw)
	case "avro":
		return avroformat.NewEncoder(names, types, f.Avro)
	case "debezium-json":
		return debeziumformat.NewEncoder(names, types, f.JSON)
	}
	return nil, fmt.Errorf("the value format '%s' is not encoded natively yet (json, csv, raw, avro and debezium-json are)", f.Name)
}

// jsonRecords encodes a batch's rows with the json format's encoder, one record per row.
type jsonRecords struct{ enc *jsonformat.Encoder }

// AppendRecords appends a record per row of b, as Encoder's.
func (j jsonRecords) AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error) {
	var err error
	for r := range int(b.NumRows()) {
		if body, err = j.enc.AppendRecord(body, b, r); err != nil {
			return nil, nil, fmt.Errorf("row %d: %w", r, err)
		}
		if err := recordends.Check("json encoder", len(body)); err != nil {
			return nil, nil, err
		}
		ends = append(ends, uint32(len(body)))
	}
	return body, ends, nil
}
