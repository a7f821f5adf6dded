package sink

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/kafkavalue"
)

// ValueRecords encodes rows of rowType (LogicalType#asSerializableString of a ROW), given as
// BinaryRowData (row r is rows[offsets[r]:offsets[r+1]]; their RowKinds for a changelog format),
// as records of the value format a Kafka table's options name: what a
// Kafka sink's native encoding produces, in the form the differential tests compare with Flink's
// own serializer. The result is as encodeRecords gives it.
func ValueRecords(rowType string, options map[string]string, rows []byte, offsets []int32) ([]byte, error) {
	format, reasons := plan.KafkaValueEncoding("(records)", options)
	if len(reasons) > 0 {
		return nil, fmt.Errorf("%s records: not encoded natively: %s", format.Name, strings.Join(reasons, "; "))
	}
	names, types, err := plan.ParseRowFields(rowType)
	if err != nil {
		return nil, fmt.Errorf("%s records: %w", format.Name, err)
	}
	enc, err := kafkavalue.NewEncoder(format, names, types)
	if err != nil {
		return nil, err
	}
	dec, err := binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%s records: %w", format.Name, err)
	}
	b, err := dec.Decode(rows, offsets)
	if err != nil {
		return nil, fmt.Errorf("%s records: %w", format.Name, err)
	}
	defer b.Release()
	// The decoder's batch ends with the rows' RowKinds, which a changelog format writes.
	fields, kinds, split, err := changelog.Split(format.Name+" records", b, len(names))
	if err != nil {
		return nil, err
	}
	if split {
		defer fields.Release()
	}
	var out []byte
	if changes, ok := enc.(kafkavalue.ChangeEncoder); ok {
		out, err = encodeChanges(changes, fields, kinds)
	} else {
		out, err = encodeRecords(enc, fields)
	}
	if err != nil {
		return nil, fmt.Errorf("%s records: %w", format.Name, err)
	}
	return out, nil
}

// The sections an encoding has after its values (encodeRecords' flags).
const (
	encodedKeys       = 1
	encodedTimestamps = 2
)

// noTimestamp is a record timestamp of none (the producer's), in an encoding's timestamps.
const noTimestamp = math.MinInt64

// encodeRecords encodes the rows of a batch as records: little-endian, the number of records
// u32, the flags of the sections after the values u32 (0 here), the values' ends (records + 1
// offsets, from 0; recordends.NullValue set for a record without a value) u32, and their bytes.
func encodeRecords(enc kafkavalue.Encoder, b arrow.RecordBatch) ([]byte, error) {
	n := int(b.NumRows())
	ends := make([]uint32, 1, n+1)
	body, ends, err := enc.AppendRecords(nil, ends, b)
	if err != nil {
		return nil, err
	}
	return recordsOf(n, ends, body), nil
}

// recordsOf is the encoding of n records without sections after their values (encodeRecords'
// form): their ends (from 0) and bytes.
func recordsOf(n int, ends []uint32, body []byte) []byte {
	out := make([]byte, 0, 4*(n+3)+len(body))
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, 0)
	return appendSection(out, ends, body)
}

// appendSection appends records' ends and bytes.
func appendSection(out []byte, ends []uint32, body []byte) []byte {
	for _, e := range ends {
		out = binary.LittleEndian.AppendUint32(out, e)
	}
	return append(out, body...)
}
