package scan

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/flusslog"
)

// FlussLogRows decodes the log batches of a Fluss bucket's fetch (records: the batches as the
// tablet server returns them) into rows of rowType (LogicalType#asSerializableString of a ROW:
// the table's columns in the batches' order), as BinaryRowData with their RowKinds (changelog:
// the table has a primary key): what the native Fluss scan decodes, in the form the differential
// tests compare with Fluss's own reader. The result is, little-endian: the number of batches
// u32, then per batch its base offset and the offset after it (i64 each) and its rows as
// appendBinaryRows lays them out.
func FlussLogRows(rowType string, changelog bool, records []byte) ([]byte, error) {
	names, types, err := plan.ParseRowFields(rowType)
	if err != nil {
		return nil, fmt.Errorf("fluss log rows: %w", err)
	}
	d, err := flusslog.NewDecoder(names, types, changelog)
	if err != nil {
		return nil, err
	}
	var batches [][]byte
	for at := 0; at < len(records); {
		b, size, ok, err := flusslog.Next(records[at:])
		if err != nil {
			return nil, err
		}
		if !ok {
			break // a partial batch at the fetch's end
		}
		at += size
		rows, err := d.Decode(&b, 0, int(b.RecordCount), memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		out := binary.LittleEndian.AppendUint64(nil, uint64(b.BaseOffset))
		out = binary.LittleEndian.AppendUint64(out, uint64(b.NextOffset()))
		out, err = appendBinaryRows(out, rows, types, "fluss log rows")
		rows.Release()
		if err != nil {
			return nil, err
		}
		batches = append(batches, out)
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(batches)))
	for _, b := range batches {
		out = append(out, b...)
	}
	return out, nil
}
