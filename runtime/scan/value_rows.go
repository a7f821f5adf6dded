package scan

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

// ValueRows decodes records of the value format a Kafka table's options name (record r is
// values[starts[r]:starts[r+1]]) into rows of rowType (LogicalType#asSerializableString of a ROW), as BinaryRowData: what the
// Kafka source's native decoding produces, in the form the differential tests compare with
// Flink's own deserializer. The result is, little-endian: the number of records u32, per record
// its status i32 (the rows it added; -1 for a record left to Flink's deserializer), the number
// of rows u32, their offsets (rows + 1) u32 and their bytes (with their RowKinds, for a
// changelog format).
func ValueRows(rowType string, options map[string]string, values []byte, starts []int32) ([]byte, error) {
	format, reasons := plan.KafkaValueDecoding("(rows)", options)
	if len(reasons) > 0 {
		return nil, fmt.Errorf("%s rows: not decoded natively: %s", format.Name, strings.Join(reasons, "; "))
	}
	names, types, err := plan.ParseRowFields(rowType)
	if err != nil {
		return nil, fmt.Errorf("%s rows: %w", format.Name, err)
	}
	d, err := kafkavalue.NewDecoder(format, names, types)
	if err != nil {
		return nil, err
	}
	records := len(starts) - 1
	out := binary.LittleEndian.AppendUint32(nil, uint32(records))
	for r := range records {
		if starts[r] > starts[r+1] || int(starts[r+1]) > len(values) {
			return nil, fmt.Errorf("%s rows: record %d at [%d, %d) of %d bytes", format.Name, r, starts[r], starts[r+1], len(values))
		}
		rows, ok := d.Add(values[starts[r]:starts[r+1]])
		if !ok {
			rows = -1
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(int32(rows)))
	}
	b, err := d.Finish(memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	return appendBinaryRows(out, b, types, format.Name+" rows")
}

// appendBinaryRows appends the rows of a batch of the given field types (a changelog's RowKinds
// in a last column, catalog.RowKindColumn) to out as BinaryRowData, little-endian: the number of
// rows u32, their offsets (rows + 1) u32 and their bytes.
func appendBinaryRows(out []byte, b arrow.RecordBatch, types []catalog.Type, what string) ([]byte, error) {
	enc, err := binaryrow.NewEncoder(types)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	fields, kinds, split, err := changelog.Split(what, b, len(types))
	if err != nil {
		return nil, err
	}
	if split {
		defer fields.Release()
	}
	n := int(fields.NumRows())
	if kinds == nil {
		kinds = make([]int8, n)
	}
	offsets := make([]int32, n+1)
	if err := enc.Layout(fields.Columns(), n, offsets); err != nil {
		return nil, err
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	for _, o := range offsets {
		out = binary.LittleEndian.AppendUint32(out, uint32(o))
	}
	head := len(out)
	out = append(out, make([]byte, offsets[n])...)
	if err := enc.Encode(fields.Columns(), kinds, n, offsets, out[head:]); err != nil {
		return nil, err
	}
	return out, nil
}
