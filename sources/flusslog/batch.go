// Package flusslog reads Fluss log batches, the bytes a Fluss tablet server's FetchLog answers
// with for a bucket (and its log segments hold): a header per batch, a change type per row for a
// primary-key table's changelog, and one Arrow IPC RecordBatch message without its schema. It
// decodes them into Arrow batches of Sluice's layout, the rows of a changelog with their RowKinds.
package flusslog

import (
	"encoding/binary"
	"fmt"
)

// The header layouts of Fluss's LogRecordBatchFormat (little-endian): magic V0, which Fluss 0.8
// and 0.9 write, and V1, which adds the leader epoch after the commit timestamp.
const (
	// logOverhead is the base offset and the length field: a batch is logOverhead + Length bytes.
	logOverhead = 12
	magicOffset = 12
	magicV0     = 0
	magicV1     = 1
	headerV0    = 48
	headerV1    = 52
	// appendOnlyFlag is the attributes bit of a batch whose rows are appends (a log table's).
	appendOnlyFlag = 1
)

// Batch is one log batch: its header's fields and where its rows are.
type Batch struct {
	// BaseOffset is the log offset of the batch's first row; row i has offset BaseOffset + i.
	BaseOffset int64
	// CommitTimestamp is the time the server committed the batch (epoch milliseconds).
	CommitTimestamp int64
	// SchemaID is the id of the table schema the batch was written in.
	SchemaID int16
	// AppendOnly marks a batch of appends (a log table's); otherwise ChangeTypes holds each row's
	// change type.
	AppendOnly bool
	// LastOffsetDelta is the offset of the batch's last row less BaseOffset (a batch without rows
	// still spans its offsets).
	LastOffsetDelta int32
	// RecordCount is the number of rows.
	RecordCount int32
	// ChangeTypes are the rows' Fluss change types (0 append, 1 insert, 2 update before, 3 update
	// after, 4 delete), nil for an append-only batch.
	ChangeTypes []byte
	// Arrow is the rows' Arrow IPC RecordBatch message (nil for a batch without rows).
	Arrow []byte
}

// NextOffset is the log offset after the batch's last one.
func (b *Batch) NextOffset() int64 { return b.BaseOffset + int64(b.LastOffsetDelta) + 1 }

// Next reads the batch at the start of buf and returns it with its size. ok is false when buf
// holds only part of a batch (a fetch may end inside one), which is no error.
func Next(buf []byte) (b Batch, size int, ok bool, err error) {
	if len(buf) < logOverhead+1 {
		return Batch{}, 0, false, nil
	}
	le := binary.LittleEndian
	length := int64(int32(le.Uint32(buf[8:])))
	magic := buf[magicOffset]
	header, fields := headerV0, 21 // fields: where the CRC starts
	switch magic {
	case magicV0:
	case magicV1:
		header, fields = headerV1, 25
	default:
		return Batch{}, 0, false, fmt.Errorf("fluss log batch at offset %d: magic %d (0 and 1 are read)", int64(le.Uint64(buf)), magic)
	}
	if length < int64(header-logOverhead) || length > int64(^uint32(0)>>1) {
		return Batch{}, 0, false, fmt.Errorf("fluss log batch at offset %d: length %d", int64(le.Uint64(buf)), length)
	}
	size = logOverhead + int(length)
	if len(buf) < size {
		return Batch{}, 0, false, nil
	}
	b.BaseOffset = int64(le.Uint64(buf))
	b.CommitTimestamp = int64(le.Uint64(buf[13:]))
	at := fields + 4 // after the CRC
	b.SchemaID = int16(le.Uint16(buf[at:]))
	b.AppendOnly = buf[at+2]&appendOnlyFlag != 0
	b.LastOffsetDelta = int32(le.Uint32(buf[at+3:]))
	b.RecordCount = int32(le.Uint32(buf[at+19:])) // after the writer id and the batch sequence
	if b.RecordCount < 0 || b.LastOffsetDelta < b.RecordCount-1 {
		return Batch{}, 0, false, fmt.Errorf("fluss log batch at offset %d: %d rows over %d offsets", b.BaseOffset, b.RecordCount, int64(b.LastOffsetDelta)+1)
	}
	rows := buf[header:size]
	if b.RecordCount == 0 {
		return b, size, true, nil
	}
	if !b.AppendOnly {
		if len(rows) < int(b.RecordCount) {
			return Batch{}, 0, false, fmt.Errorf("fluss log batch at offset %d: %d change types in %d bytes", b.BaseOffset, b.RecordCount, len(rows))
		}
		b.ChangeTypes, rows = rows[:b.RecordCount], rows[b.RecordCount:]
	}
	b.Arrow = rows
	return b, size, true, nil
}
