package main

/*
#include <jni.h>
*/
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime/cgo"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/exec/exchange"
	"github.com/sluice-project/sluice/runtime/chain"
	"github.com/sluice-project/sluice/runtime/scan"
	"github.com/sluice-project/sluice/runtime/sink"
)

// Native batches and the split readers (Parquet files, Iceberg data files) that make them. A batch handle owns one
// reference to an arrow.RecordBatch; closing the handle releases it.

// splitReader is the native object behind a split reader handle.
type splitReader struct {
	r scan.SplitBatches
}

// Close closes the split's file.
func (s *splitReader) Close() error { return s.r.Close() }

//export Java_io_sluice_jni_NativeLib_parquetOpen
func Java_io_sluice_jni_NativeLib_parquetOpen(env *C.JNIEnv, _ C.jclass, scanJSON, path C.jbyteArray, offset, length, skip C.jlong, zoneOffset C.jint, zoneFixed C.jboolean) C.jlong {
	defer guard(env, "parquetOpen")
	sr, err := scan.OpenFileScan(goBytes(env, scanJSON), int64(zoneOffset), zoneFixed != 0)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	r, err := sr.OpenSplit(string(goBytes(env, path)), int64(offset), int64(length), int64(skip))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(&splitReader{r: r}))
}

//export Java_io_sluice_jni_NativeLib_icebergOpen
func Java_io_sluice_jni_NativeLib_icebergOpen(env *C.JNIEnv, _ C.jclass, scanJSON, path C.jbyteArray, start, length, skip C.jlong, deleted C.jbyteArray) C.jlong {
	defer guard(env, "icebergOpen")
	sr, err := scan.OpenIcebergScan(goBytes(env, scanJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	// The deleted positions: big-endian int64s.
	var positions []int64
	if deleted != 0 {
		raw := goBytes(env, deleted)
		positions = make([]int64, len(raw)/8)
		for i := range positions {
			positions[i] = int64(binary.BigEndian.Uint64(raw[8*i:]))
		}
	}
	r, err := sr.OpenFile(string(goBytes(env, path)), int64(start), int64(length), int64(skip), positions)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(&splitReader{r: r}))
}

//export Java_io_sluice_jni_NativeLib_splitNext
func Java_io_sluice_jni_NativeLib_splitNext(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "splitNext")
	s, err := handleOf[*splitReader](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, err := s.r.Next()
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if b == nil {
		return 0
	}
	return C.jlong(cgo.NewHandle(b))
}

//export Java_io_sluice_jni_NativeLib_batchRows
func Java_io_sluice_jni_NativeLib_batchRows(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jint {
	defer guard(env, "batchRows")
	b, err := handleOf[arrow.RecordBatch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jint(b.NumRows())
}

//export Java_io_sluice_jni_NativeLib_batchToIpc
func Java_io_sluice_jni_NativeLib_batchToIpc(env *C.JNIEnv, _ C.jclass, h C.jlong, lz4 C.jboolean) C.jbyteArray {
	defer guard(env, "batchToIpc")
	b, err := handleOf[arrow.RecordBatch](h)
	buf := ipcBuffers.Get().(*bytes.Buffer)
	defer ipcBuffers.Put(buf)
	buf.Reset()
	if err == nil {
		err = exchange.WriteBatch(buf, b, lz4 != 0)
	}
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, buf.Bytes()) // a copy: buf goes back to the pool
}

// ipcBuffers holds the buffers batchToIpc writes a batch's record into before copying it to a
// Java array: reused, so a batch costs no Go allocation that grows and is zeroed.
var ipcBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

//export Java_io_sluice_jni_NativeLib_batchFromIpc
func Java_io_sluice_jni_NativeLib_batchFromIpc(env *C.JNIEnv, _ C.jclass, data C.jbyteArray) C.jlong {
	defer guard(env, "batchFromIpc")
	b, err := exchange.DecodeBatch(goBytes(env, data))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(b))
}

//export Java_io_sluice_jni_NativeLib_processBatch
func Java_io_sluice_jni_NativeLib_processBatch(env *C.JNIEnv, _ C.jclass, h, batch C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "processBatch")
	return chainCall(env, h, outData, outOffsets, func(p *chain.Chain) error {
		b, err := handleOf[arrow.RecordBatch](batch)
		if err != nil {
			return err
		}
		return p.ProcessBatch(b)
	})
}

//export Java_io_sluice_jni_NativeLib_outputBatch
func Java_io_sluice_jni_NativeLib_outputBatch(env *C.JNIEnv, _ C.jclass, h C.jlong, from, to C.jint) C.jlong {
	defer guard(env, "outputBatch")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, err := p.OutputBatch(int(from), int(to))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(b))
}

//export Java_io_sluice_jni_NativeLib_exchangeBatches
func Java_io_sluice_jni_NativeLib_exchangeBatches(env *C.JNIEnv, _ C.jclass, h C.jlong, from, to C.jint, out C.jobject) C.jint {
	defer guard(env, "exchangeBatches")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	// Room for a pair per channel, checked before any batch handle is made.
	longs, err := pairBuffer(env, out, p.Channels(), "exchange batches")
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	parts, err := p.Partition(int(from), int(to))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	// (channel | rows << 32, batch handle) pairs; Java releases each batch once emitted.
	for i, part := range parts {
		longs[2*i] = int64(part.Channel) | part.Batch.NumRows()<<32
		longs[2*i+1] = int64(cgo.NewHandle(part.Batch))
	}
	return C.jint(len(parts))
}

//export Java_io_sluice_jni_NativeLib_parquetWriterOpen
func Java_io_sluice_jni_NativeLib_parquetWriterOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray, zoneOffset C.jint, zoneFixed C.jboolean) C.jlong {
	defer guard(env, "parquetWriterOpen")
	w, err := sink.OpenFileWriter(goBytes(env, sinkJSON), int64(zoneOffset), zoneFixed != 0)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(w))
}

//export Java_io_sluice_jni_NativeLib_parquetPartitionerOpen
func Java_io_sluice_jni_NativeLib_parquetPartitionerOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray) C.jlong {
	defer guard(env, "parquetPartitionerOpen")
	return openFromJSON(env, sinkJSON, sink.OpenFilePartitioner)
}

//export Java_io_sluice_jni_NativeLib_parquetPartition
func Java_io_sluice_jni_NativeLib_parquetPartition(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) C.jbyteArray {
	defer guard(env, "parquetPartition")
	return splitBatch(env, h, batch, func(p *sink.FilePartitioner, b arrow.RecordBatch) ([]arrow.RecordBatch, [][]byte, error) {
		parts, err := p.Split(b)
		batches, tags := make([]arrow.RecordBatch, len(parts)), make([][]byte, len(parts))
		for i, part := range parts {
			batches[i], tags[i] = part.Batch, []byte(part.Path)
		}
		return batches, tags, err
	})
}

//export Java_io_sluice_jni_NativeLib_icebergSplitterOpen
func Java_io_sluice_jni_NativeLib_icebergSplitterOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray) C.jlong {
	defer guard(env, "icebergSplitterOpen")
	return openFromJSON(env, sinkJSON, sink.OpenIcebergSplitter)
}

//export Java_io_sluice_jni_NativeLib_icebergSplit
func Java_io_sluice_jni_NativeLib_icebergSplit(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) C.jbyteArray {
	defer guard(env, "icebergSplit")
	return splitBatch(env, h, batch, func(s *sink.IcebergSplitter, b arrow.RecordBatch) ([]arrow.RecordBatch, [][]byte, error) {
		parts, err := s.Split(b)
		batches, tags := make([]arrow.RecordBatch, len(parts)), make([][]byte, len(parts))
		for i, part := range parts {
			tag := binary.BigEndian.AppendUint32(nil, uint32(part.Partition))
			batches[i], tags[i] = part.Batch, binary.BigEndian.AppendUint32(tag, uint32(s.Generation()))
		}
		return batches, tags, err
	})
}

//export Java_io_sluice_jni_NativeLib_icebergSplitterPartition
func Java_io_sluice_jni_NativeLib_icebergSplitterPartition(env *C.JNIEnv, _ C.jclass, h C.jlong, partition C.jint) C.jbyteArray {
	defer guard(env, "icebergSplitterPartition")
	s, err := handleOf[*sink.IcebergSplitter](h)
	if err == nil {
		var out []byte
		if out, err = s.PartitionJSON(int32(partition)); err == nil {
			return javaBytes(env, out)
		}
	}
	throw(env, err.Error())
	return 0
}

// splitBatch splits the batch behind handle batch with the splitter behind h and returns the
// parts as frames, big-endian: the part's batch handle (int64), its rows (int32), its tag's
// length (int32) and the tag (a partition's path, or its number). Java owns the part batches
// from here on.
func splitBatch[S any](env *C.JNIEnv, h, batch C.jlong, split func(S, arrow.RecordBatch) ([]arrow.RecordBatch, [][]byte, error)) C.jbyteArray {
	s, err := handleOf[S](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, err := handleOf[arrow.RecordBatch](batch)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	parts, tags, err := split(s, b)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	var out []byte
	handles := make([]cgo.Handle, len(parts))
	for i, part := range parts {
		handles[i] = cgo.NewHandle(part)
		out = binary.BigEndian.AppendUint64(out, uint64(handles[i]))
		out = binary.BigEndian.AppendUint32(out, uint32(part.NumRows()))
		out = binary.BigEndian.AppendUint32(out, uint32(len(tags[i])))
		out = append(out, tags[i]...)
	}
	res := javaBytes(env, out)
	if res == 0 && len(parts) > 0 {
		// The frames did not reach Java (its exception is pending): nobody else will free them.
		for i, h := range handles {
			h.Delete()
			parts[i].Release()
		}
	}
	return res
}

//export Java_io_sluice_jni_NativeLib_icebergWriterOpen
func Java_io_sluice_jni_NativeLib_icebergWriterOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray) C.jlong {
	defer guard(env, "icebergWriterOpen")
	return openFromJSON(env, sinkJSON, sink.OpenIcebergWriter)
}

// openFromJSON opens a native object from the island JSON of a node and returns its handle
// (0 after throwing the error).
func openFromJSON[T any](env *C.JNIEnv, data C.jbyteArray, open func([]byte) (T, error)) C.jlong {
	v, err := open(goBytes(env, data))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(v))
}

//export Java_io_sluice_jni_NativeLib_icebergWriterWrite
func Java_io_sluice_jni_NativeLib_icebergWriterWrite(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) C.jbyteArray {
	defer guard(env, "icebergWriterWrite")
	return writeBatch[*sink.IcebergWriter](env, h, batch)
}

// writeBatch adds a native batch to a file writer (a Parquet part file or an Iceberg writer)
// and returns the bytes it produced.
func writeBatch[W interface {
	Write(arrow.RecordBatch) ([]byte, error)
}](env *C.JNIEnv, h, batch C.jlong) C.jbyteArray {
	w, err := handleOf[W](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, err := handleOf[arrow.RecordBatch](batch)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	out, err := w.Write(b)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

// icebergPartitionCall runs one per-partition call of an Iceberg writer and returns its bytes.
func icebergPartitionCall(env *C.JNIEnv, h C.jlong, f func(*sink.IcebergWriter) ([]byte, error)) C.jbyteArray {
	w, err := handleOf[*sink.IcebergWriter](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	out, err := f(w)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

//export Java_io_sluice_jni_NativeLib_icebergWriterFinish
func Java_io_sluice_jni_NativeLib_icebergWriterFinish(env *C.JNIEnv, _ C.jclass, h C.jlong, partition C.jint) C.jbyteArray {
	defer guard(env, "icebergWriterFinish")
	return icebergPartitionCall(env, h, func(w *sink.IcebergWriter) ([]byte, error) { return w.Finish(int32(partition)) })
}

//export Java_io_sluice_jni_NativeLib_icebergWriterFloatMetrics
func Java_io_sluice_jni_NativeLib_icebergWriterFloatMetrics(env *C.JNIEnv, _ C.jclass, h C.jlong, partition C.jint) C.jbyteArray {
	defer guard(env, "icebergWriterFloatMetrics")
	return icebergPartitionCall(env, h, func(w *sink.IcebergWriter) ([]byte, error) { return w.FloatMetricsJSON(int32(partition)) })
}

//export Java_io_sluice_jni_NativeLib_icebergWriterPartition
func Java_io_sluice_jni_NativeLib_icebergWriterPartition(env *C.JNIEnv, _ C.jclass, h C.jlong, partition C.jint) C.jbyteArray {
	defer guard(env, "icebergWriterPartition")
	return icebergPartitionCall(env, h, func(w *sink.IcebergWriter) ([]byte, error) { return w.PartitionJSON(int32(partition)) })
}

//export Java_io_sluice_jni_NativeLib_parquetWriterWrite
func Java_io_sluice_jni_NativeLib_parquetWriterWrite(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) C.jbyteArray {
	defer guard(env, "parquetWriterWrite")
	return writeBatch[*sink.FileWriter](env, h, batch)
}

//export Java_io_sluice_jni_NativeLib_parquetWriterFinish
func Java_io_sluice_jni_NativeLib_parquetWriterFinish(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jbyteArray {
	defer guard(env, "parquetWriterFinish")
	w, err := handleOf[*sink.FileWriter](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	out, err := w.Finish()
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

// A value format's native decoding and encoding, for the differential tests against Flink's
// formats. options is a Kafka table's options as "key=value" lines.

//export Java_io_sluice_jni_NativeLib_valueRows
func Java_io_sluice_jni_NativeLib_valueRows(env *C.JNIEnv, _ C.jclass, rowType, options, values, starts C.jbyteArray) C.jbyteArray {
	defer guard(env, "valueRows")
	out, err := scan.ValueRows(string(goBytes(env, rowType)), optionLines(goBytes(env, options)),
		goBytes(env, values), int32s(goBytes(env, starts)))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

//export Java_io_sluice_jni_NativeLib_valueRecords
func Java_io_sluice_jni_NativeLib_valueRecords(env *C.JNIEnv, _ C.jclass, rowType, options, rows, offsets C.jbyteArray) C.jbyteArray {
	defer guard(env, "valueRecords")
	out, err := sink.ValueRecords(string(goBytes(env, rowType)), optionLines(goBytes(env, options)),
		goBytes(env, rows), int32s(goBytes(env, offsets)))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

// A Fluss bucket fetch's log batches decoded natively, for the differential tests against
// Fluss's own reader.

//export Java_io_sluice_jni_NativeLib_flussLogRows
func Java_io_sluice_jni_NativeLib_flussLogRows(env *C.JNIEnv, _ C.jclass, rowType C.jbyteArray, changelog C.jboolean, records C.jbyteArray) C.jbyteArray {
	defer guard(env, "flussLogRows")
	out, err := scan.FlussLogRows(string(goBytes(env, rowType)), changelog != 0, goBytes(env, records))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

// optionLines reads "key=value" lines (the first '=' ends the key).
func optionLines(b []byte) map[string]string {
	o := map[string]string{}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if k, v, ok := bytes.Cut(line, []byte("=")); ok {
			o[string(k)] = string(v)
		}
	}
	return o
}

// The native Kafka scan's decoding: the record values of one partition fetch go to Go in one
// call and come back as one batch; records the decoder leaves to Flink are decoded by the
// table's own deserializer in Java, whose rows come back in between.

// kafkaFetch is the native object behind a Kafka fetch decoder handle: the decoder, and the
// values of the fetch being decoded.
type kafkaFetch struct {
	f      *scan.KafkaFetch
	values []byte
	starts []int32
	mark   int64
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchOpen
func Java_io_sluice_jni_NativeLib_kafkaFetchOpen(env *C.JNIEnv, _ C.jclass, scanJSON C.jbyteArray) C.jlong {
	defer guard(env, "kafkaFetchOpen")
	f, err := scan.OpenKafkaFetch(goBytes(env, scanJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(&kafkaFetch{f: f}))
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchDecode
func Java_io_sluice_jni_NativeLib_kafkaFetchDecode(env *C.JNIEnv, _ C.jclass, h C.jlong, values C.jobject, length C.jint, starts C.jobject, records, from C.jint) C.jint {
	defer guard(env, "kafkaFetchDecode")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if values != 0 {
		// The buffers are read in place: the emitter leaves them unchanged until Finish, and
		// the decoder copies what it keeps.
		if k.values, k.starts, err = fetchBuffers(env, values, int(length), starts, int(records)); err != nil {
			throw(env, err.Error())
			return 0
		}
	}
	next, err := k.f.Decode(k.values, k.starts, int(from))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jint(next)
}

// fetchBuffers returns the first length bytes of the direct buffer values and the records+1
// int32s of the direct buffer starts, without a copy.
func fetchBuffers(env *C.JNIEnv, values C.jobject, length int, starts C.jobject, records int) ([]byte, []int32, error) {
	v, err := directBuffer(env, values)
	if err != nil {
		return nil, nil, fmt.Errorf("kafka fetch values: %w", err)
	}
	s, err := directBuffer(env, starts)
	if err != nil {
		return nil, nil, fmt.Errorf("kafka fetch starts: %w", err)
	}
	if length < 0 || length > len(v) || records < 0 || 4*(records+1) > len(s) {
		return nil, nil, fmt.Errorf("kafka fetch: %d bytes of %d, %d records with %d bytes of starts", length, len(v), records, len(s))
	}
	return v[:length], int32s(s[:4*(records+1)]), nil
}

// What a native Kafka scan needs besides the record values (kafkaFetchNeeds' bits).
const (
	fetchNeedsMetadata   = 1
	fetchNeedsKeys       = 2
	fetchNeedsTombstones = 4
)

//export Java_io_sluice_jni_NativeLib_kafkaFetchNeeds
func Java_io_sluice_jni_NativeLib_kafkaFetchNeeds(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jint {
	defer guard(env, "kafkaFetchNeeds")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	needs := 0
	if k.f.ReadsMetadata() {
		needs |= fetchNeedsMetadata
	}
	if k.f.ReadsKeys() {
		needs |= fetchNeedsKeys
	}
	if k.f.ReadsTombstones() {
		needs |= fetchNeedsTombstones
	}
	return C.jint(needs)
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchKeys
func Java_io_sluice_jni_NativeLib_kafkaFetchKeys(env *C.JNIEnv, _ C.jclass, h C.jlong, keys C.jobject, length C.jint, starts C.jobject, records C.jint) {
	defer guard(env, "kafkaFetchKeys")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	// Read in place until Finish, as the values are.
	b, s, err := fetchBuffers(env, keys, int(length), starts, int(records))
	if err != nil {
		throw(env, "keys: "+err.Error())
		return
	}
	k.f.SetKeys(b, s)
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchTombstones
func Java_io_sluice_jni_NativeLib_kafkaFetchTombstones(env *C.JNIEnv, _ C.jclass, h C.jlong, marks C.jobject, records C.jint) {
	defer guard(env, "kafkaFetchTombstones")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	m, err := directBuffer(env, marks)
	if err != nil {
		throw(env, fmt.Sprintf("kafka fetch tombstones: %v", err))
		return
	}
	if records < 0 || int(records) > len(m) {
		throw(env, fmt.Sprintf("kafka fetch tombstones: %d records in %d bytes", records, len(m)))
		return
	}
	// Read in place until Finish, as the values are.
	k.f.SetTombstones(m[:records])
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchRecords
func Java_io_sluice_jni_NativeLib_kafkaFetchRecords(env *C.JNIEnv, _ C.jclass, h C.jlong, topic C.jbyteArray, partition C.jint, meta C.jobject, records C.jint) {
	defer guard(env, "kafkaFetchRecords")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	m, err := directBuffer(env, meta)
	if err != nil {
		throw(env, fmt.Sprintf("kafka fetch metadata: %v", err))
		return
	}
	if records < 0 || int(records)*scan.RecordMetaSize > len(m) {
		throw(env, fmt.Sprintf("kafka fetch metadata: %d records in %d bytes", records, len(m)))
		return
	}
	// Read in place until Finish, as the values are.
	k.f.SetRecords(string(goBytes(env, topic)), int32(partition), m[:int(records)*scan.RecordMetaSize])
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchAppendRows
func Java_io_sluice_jni_NativeLib_kafkaFetchAppendRows(env *C.JNIEnv, _ C.jclass, h C.jlong, rows, offsets C.jbyteArray) {
	defer guard(env, "kafkaFetchAppendRows")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	offs := int32s(goBytes(env, offsets))
	if err := k.f.AppendRows(goBytes(env, rows), offs); err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchFinish
func Java_io_sluice_jni_NativeLib_kafkaFetchFinish(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "kafkaFetchFinish")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	k.values, k.starts = nil, nil
	b, mark, err := k.f.Finish()
	k.f.SetRecords("", 0, nil)
	k.f.SetKeys(nil, nil)
	k.f.SetTombstones(nil)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	k.mark = mark
	return C.jlong(cgo.NewHandle(b))
}

//export Java_io_sluice_jni_NativeLib_kafkaFetchWatermark
func Java_io_sluice_jni_NativeLib_kafkaFetchWatermark(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "kafkaFetchWatermark")
	k, err := handleOf[*kafkaFetch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(k.mark)
}

// The native Fluss scan's decoding: the log batches of one bucket's fetch go to Go in one call
// and come back as one batch.

//export Java_io_sluice_jni_NativeLib_flussFetchOpen
func Java_io_sluice_jni_NativeLib_flussFetchOpen(env *C.JNIEnv, _ C.jclass, scanJSON C.jbyteArray) C.jlong {
	defer guard(env, "flussFetchOpen")
	f, err := scan.OpenFlussFetch(goBytes(env, scanJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(f))
}

//export Java_io_sluice_jni_NativeLib_flussFetchDecode
func Java_io_sluice_jni_NativeLib_flussFetchDecode(env *C.JNIEnv, _ C.jclass, h C.jlong, records C.jbyteArray, from C.jlong) C.jlong {
	defer guard(env, "flussFetchDecode")
	f, err := handleOf[*scan.FlussFetch](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, _, err := f.Decode(goBytes(env, records), int64(from))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(b))
}

// The native Kafka sink's encoding: a batch of the chain becomes the record values Flink's
// KafkaSink writes.

//export Java_io_sluice_jni_NativeLib_kafkaEncoderOpen
func Java_io_sluice_jni_NativeLib_kafkaEncoderOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray) C.jlong {
	defer guard(env, "kafkaEncoderOpen")
	e, err := sink.OpenKafkaEncoder(goBytes(env, sinkJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(e))
}

//export Java_io_sluice_jni_NativeLib_kafkaEncode
func Java_io_sluice_jni_NativeLib_kafkaEncode(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) C.jbyteArray {
	defer guard(env, "kafkaEncode")
	e, err := handleOf[*sink.KafkaEncoder](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	b, err := handleOf[arrow.RecordBatch](batch)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	out, err := e.Encode(b)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}
