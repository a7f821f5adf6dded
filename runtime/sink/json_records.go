package sink

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/jsonformat"
)

// JSONRecords encodes rows of rowType (LogicalType#asSerializableString of a ROW), given as
// BinaryRowData (row r is rows[offsets[r]:offsets[r+1]]), as records of Flink's json format: what
// a Kafka sink's native encoding produces, in the form the differential tests compare with
// Flink's own serializer. The result is, little-endian: the number of records u32, their ends
// (records + 1 offsets, from 0) u32, and their bytes.
func JSONRecords(rowType string, opts jsonformat.Options, rows []byte, offsets []int32) ([]byte, error) {
	names, types, err := plan.ParseRowFields(rowType)
	if err != nil {
		return nil, fmt.Errorf("json records: %w", err)
	}
	enc, err := jsonformat.NewEncoder(names, types, opts)
	if err != nil {
		return nil, err
	}
	dec, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("json records: %w", err)
	}
	b, err := dec.Decode(rows, offsets)
	if err != nil {
		return nil, fmt.Errorf("json records: %w", err)
	}
	defer b.Release()
	return encodeRecords(enc, b)
}

// encodeRecords encodes the rows of a batch as records: little-endian, the number of records
// u32, their ends (records + 1 offsets, from 0) u32, and their bytes.
func encodeRecords(enc *jsonformat.Encoder, b arrow.RecordBatch) ([]byte, error) {
	n := int(b.NumRows())
	var body []byte
	var err error
	ends := make([]uint32, 0, n+1)
	ends = append(ends, 0)
	for r := range n {
		if body, err = enc.AppendRecord(body, b, r); err != nil {
			return nil, fmt.Errorf("json records: row %d: %w", r, err)
		}
		ends = append(ends, uint32(len(body)))
	}
	out := make([]byte, 0, 4*(n+2)+len(body))
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	for _, e := range ends {
		out = binary.LittleEndian.AppendUint32(out, e)
	}
	return append(out, body...), nil
}
