package exchange

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// EncodeBatch writes a batch as the network record of a native batch: an Arrow IPC stream of
// its schema and the one batch, with every body buffer compressed as an LZ4 frame when lz4 is
// set (Arrow's IPC body compression, which DecodeBatch detects).
func EncodeBatch(b arrow.RecordBatch, lz4 bool) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteBatch(&buf, b, lz4); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteBatch appends EncodeBatch's record to buf, which it first grows to the batch's buffer
// sizes (so a reused buf is written without reallocating, and a fresh one without doubling).
func WriteBatch(buf *bytes.Buffer, b arrow.RecordBatch, lz4 bool) error {
	size := 1024
	for _, c := range b.Columns() {
		size += dataSize(c.Data())
	}
	buf.Grow(size)
	opts := []ipc.Option{ipc.WithSchema(b.Schema())}
	if lz4 {
		opts = append(opts, ipc.WithLZ4())
	}
	w := ipc.NewWriter(buf, opts...)
	if err := w.Write(b); err != nil {
		return fmt.Errorf("batch to Arrow IPC: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("batch to Arrow IPC: %w", err)
	}
	return nil
}

// dataSize is the bytes of an array's buffers and its children's, plus 64 per buffer for the
// IPC body's 8-byte alignment and metadata.
func dataSize(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len() + 64
		}
	}
	for _, c := range d.Children() {
		n += dataSize(c)
	}
	return n
}

// DecodeBatch reads the one batch of an Arrow IPC stream (compressed or not). The batch owns
// its memory; the caller releases it.
func DecodeBatch(data []byte) (arrow.RecordBatch, error) {
	r, err := ipc.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("batch from Arrow IPC: %w", err)
	}
	defer r.Release()
	if !r.Next() {
		if r.Err() != nil {
			return nil, fmt.Errorf("batch from Arrow IPC: %w", r.Err())
		}
		return nil, fmt.Errorf("batch from Arrow IPC: the stream holds no batch")
	}
	b := r.RecordBatch()
	b.Retain()
	return b, nil
}
