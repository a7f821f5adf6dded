// Package flussbatch writes Fluss log batches for tests: the header (magic 0, as Fluss 0.8 and 0.9
// write it), the change types and an Arrow IPC RecordBatch message without its schema, laid out
// as Fluss's LogRecordBatchFormat lays them out.
package flussbatch

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Encode lays out a V0 log batch as Fluss writes one: the header, the change types (nil for
// an append-only batch) and the Arrow RecordBatch message of rec without its schema, its
// buffers ZSTD-compressed as Fluss's default.
func Encode(t testing.TB, base int64, rec arrow.RecordBatch, changeTypes []byte) []byte {
	t.Helper()
	var stream bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(rec.Schema()), ipc.WithZstd())
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The stream is the schema message, the batch's, then the end marker.
	msgs := ipc.NewMessageReader(bytes.NewReader(stream.Bytes()))
	defer msgs.Release()
	schema, err := msgs.Message()
	if err != nil {
		t.Fatal(err)
	}
	schemaLen := 8 + int(binary.LittleEndian.Uint32(stream.Bytes()[4:])) + int(schema.BodyLen())
	arrowMsg := stream.Bytes()[schemaLen : stream.Len()-8]
	n := int(rec.NumRows())
	out := make([]byte, 48)
	le := binary.LittleEndian
	le.PutUint64(out, uint64(base))
	out[12] = 0
	le.PutUint64(out[13:], 1_700_000_000_000)
	le.PutUint16(out[25:], 1)
	if changeTypes == nil {
		out[27] = 1
	}
	le.PutUint32(out[28:], uint32(n-1))
	le.PutUint64(out[32:], 7)
	le.PutUint32(out[44:], uint32(n))
	out = append(append(out, changeTypes...), arrowMsg...)
	le.PutUint32(out[8:], uint32(len(out)-12))
	return out
}
