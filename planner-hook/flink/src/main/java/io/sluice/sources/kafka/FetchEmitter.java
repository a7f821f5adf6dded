package io.sluice.sources.kafka;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Emits each {@link PartitionFetch} as one native batch: the record values go to Go in one call,
 * which decodes the records its decoder takes; a record it leaves to Flink is decoded by the
 * table's own deserializer (stock Flink's, errors and skipped records included) and its rows go
 * back to Go in between, so that the batch holds the rows in record order. The split's offset is
 * then the last record's plus one, as stock Flink's emitter leaves it after the same records.
 */
public final class FetchEmitter implements RecordEmitter<ConsumerRecord<byte[], byte[]>, NativeBatch, KafkaPartitionSplitState> {
    private static final AtomicLong NATIVE = new AtomicLong();
    private static final AtomicLong FLINK = new AtomicLong();

    private final long fetch;
    private final KafkaRecordDeserializationSchema<RowData> deserializer;
    private final RowDataSerializer rows;
    private final List<RowData> flinkRows = new ArrayList<>();
    /**
     * The values of the fetch being emitted and their starts, reused from fetch to fetch; Go reads
     * them in place, so they stay unchanged until the fetch is finished.
     */
    private ByteBuffer values;
    private ByteBuffer starts;
    /** Whether the table reads metadata columns, and the fetch's record metadata for them. */
    private final boolean readsMetadata;
    /** Whether the table has a key format, and the fetch's record keys and their starts. */
    private final boolean readsKeys;
    private ByteBuffer keys;
    private ByteBuffer keyStarts;
    /** Whether the table is an upsert-kafka one, and the fetch's marks of records without a value. */
    private final boolean readsTombstones;
    private ByteBuffer tombstones;
    private ByteBuffer meta;
    private String topic;
    private byte[] topicBytes;
    private final Collector<RowData> collector = new Collector<>() {
        @Override
        public void collect(RowData row) {
            if (row == null) {
                // The json format's parser path collects a null row for a null array element,
                // or under 'json.ignore-parse-errors' for a structurally broken record. Stock
                // Flink's next step throws on it (RowDataSerializer#copy into the chained
                // operator, or serialization to the network) inside the format's own try, which
                // then skips the rest of the record under 'json.ignore-parse-errors' or fails
                // the job. Throwing here lets the format do the same.
                throw new NullPointerException("the format collected a null row");
            }
            flinkRows.add(row);
        }

        @Override
        public void close() {}
    };

    FetchEmitter(byte[] scanJson, KafkaRecordDeserializationSchema<RowData> deserializer, RowType rowType) {
        NativeLib.ensureLoaded();
        this.fetch = NativeLib.kafkaFetchOpen(scanJson);
        int needs = NativeLib.kafkaFetchNeeds(fetch);
        this.readsMetadata = (needs & 1) != 0;
        this.readsKeys = (needs & 2) != 0;
        this.readsTombstones = (needs & 4) != 0;
        this.deserializer = deserializer;
        this.rows = new RowDataSerializer(rowType);
    }

    /** Records the native decoder decoded in this JVM (for tests and metrics). */
    public static long recordsDecodedNatively() {
        return NATIVE.get();
    }

    /** Records left to Flink's deserializer in this JVM (for tests and metrics). */
    public static long recordsDecodedByFlink() {
        return FLINK.get();
    }

    @Override
    public void emitRecord(
            ConsumerRecord<byte[], byte[]> element, SourceOutput<NativeBatch> output, KafkaPartitionSplitState state)
            throws Exception {
        PartitionFetch f = (PartitionFetch) element;
        List<ConsumerRecord<byte[], byte[]>> records = f.records();
        long length = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            length += r.value() == null ? 0 : r.value().length;
        }
        if (length > Integer.MAX_VALUE) {
            throw fetchError(f, new IllegalArgumentException(length + " bytes of record values in one fetch"));
        }
        values = capacity(values, (int) length);
        starts = capacity(starts, 4 * (records.size() + 1));
        values.clear();
        starts.clear();
        starts.putInt(0);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() != null) {
                values.put(r.value());
            }
            starts.putInt(values.position());
        }
        int at = 0;
        long flink = 0;
        try {
            if (readsMetadata) {
                setRecordMetadata(f, records);
            }
            if (readsKeys) {
                setKeys(records);
            }
            if (readsTombstones) {
                setTombstones(records);
            }
            at = NativeLib.kafkaFetchDecode(fetch, values, values.position(), starts, records.size(), 0);
            while (at < records.size()) {
                ConsumerRecord<byte[], byte[]> r = records.get(at);
                flinkRows.clear();
                try {
                    deserializer.deserialize(r, collector);
                } catch (Exception e) {
                    // Stock Flink emits the rows of the records before this one (and the rows
                    // this one made before it failed), then fails.
                    FLINK.addAndGet(flink);
                    NATIVE.addAndGet(at - flink);
                    IOException failure = new IOException("Failed to deserialize consumer record due to", e);
                    try {
                        appendRows();
                        emit(output, state, r.offset(), f);
                    } catch (RuntimeException | IOException emitFailure) {
                        failure.addSuppressed(emitFailure);
                    }
                    throw failure;
                }
                appendRows();
                flink++;
                at = NativeLib.kafkaFetchDecode(fetch, null, 0, null, 0, at + 1);
            }
        } catch (RuntimeException e) {
            throw fetchError(f, e);
        }
        FLINK.addAndGet(flink);
        NATIVE.addAndGet(records.size() - flink);
        emit(output, state, f.nextOffset(), f);
    }

    /** Hands the fetch's record keys to Go, for the table's key fields. */
    private void setKeys(List<ConsumerRecord<byte[], byte[]>> records) {
        long length = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            length += r.key() == null ? 0 : r.key().length;
        }
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(length + " bytes of record keys in one fetch");
        }
        keys = capacity(keys, (int) length);
        keyStarts = capacity(keyStarts, 4 * (records.size() + 1));
        keys.clear();
        keyStarts.clear();
        keyStarts.putInt(0);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.key() != null) {
                keys.put(r.key());
            }
            keyStarts.putInt(keys.position());
        }
        NativeLib.kafkaFetchKeys(fetch, keys, keys.position(), keyStarts, records.size());
    }

    /** Hands the marks of the fetch's records without a value (an upsert table's deletes) to Go. */
    private void setTombstones(List<ConsumerRecord<byte[], byte[]>> records) {
        tombstones = capacity(tombstones, records.size());
        tombstones.clear();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            tombstones.put(r.value() == null ? (byte) 1 : (byte) 0);
        }
        NativeLib.kafkaFetchTombstones(fetch, tombstones, records.size());
    }

    /** Hands the fetch's record metadata to Go, for the table's metadata columns. */
    private void setRecordMetadata(PartitionFetch f, List<ConsumerRecord<byte[], byte[]>> records) {
        meta = capacity(meta, 24 * records.size());
        meta.clear();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            meta.putLong(r.offset());
            meta.putLong(r.timestamp());
            meta.putInt(r.leaderEpoch().orElse(Integer.MIN_VALUE));
            meta.putInt(r.timestampType().id);
        }
        if (!f.topic().equals(topic)) {
            topic = f.topic();
            topicBytes = topic.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        NativeLib.kafkaFetchRecords(fetch, topicBytes, f.partition(), meta, records.size());
    }

    /**
     * A direct buffer of at least the given capacity (little-endian): the given one when it is
     * large enough, else a new one of twice the capacity asked for.
     */
    private static ByteBuffer capacity(ByteBuffer buf, int bytes) {
        if (buf != null && buf.capacity() >= bytes) {
            return buf;
        }
        return ByteBuffer.allocateDirect((int) Math.max(4096, Math.min(Integer.MAX_VALUE - 8, 2L * bytes))).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** An error of the native decoding, naming the partition and the offsets of the fetch. */
    private static IOException fetchError(PartitionFetch f, Exception e) {
        List<ConsumerRecord<byte[], byte[]>> records = f.records();
        return new IOException(String.format("Kafka partition %s-%d, offsets %d to %d: %s", f.topic(), f.partition(),
                records.get(0).offset(), f.offset(), e.getMessage()), e);
    }

    /** Emits the rows decoded so far as one batch (none when empty) and moves the split's offset. */
    private void emit(SourceOutput<NativeBatch> output, KafkaPartitionSplitState state, long nextOffset, PartitionFetch f)
            throws IOException {
        long handle;
        try {
            handle = NativeLib.kafkaFetchFinish(fetch);
        } catch (RuntimeException e) {
            throw fetchError(f, e);
        }
        NativeBatch batch;
        try {
            batch = NativeBatch.ofSource(handle, NativeLib.batchRows(handle), NativeLib.kafkaFetchWatermark(fetch));
        } catch (RuntimeException e) {
            NativeLib.close(handle);
            throw fetchError(f, e);
        }
        try {
            // A fetch without rows emits nothing, as stock Flink emits nothing for its records
            // (no watermark event, no activity for idleness).
            if (batch.rows() > 0) {
                output.collect(batch);
            }
        } finally {
            batch.release();
        }
        state.setCurrentOffset(nextOffset);
    }

    /** Hands the rows Flink's deserializer made of one record to the native batch. */
    private void appendRows() {
        if (flinkRows.isEmpty()) {
            return;
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteBuffer offsets = ByteBuffer.allocate(4 * (flinkRows.size() + 1)).order(ByteOrder.LITTLE_ENDIAN);
        offsets.putInt(0);
        for (RowData row : flinkRows) {
            BinaryRowData b = rows.toBinaryRow(row);
            data.write(b.getSegments()[0].getArray(), b.getOffset(), b.getSizeInBytes());
            offsets.putInt(data.size());
        }
        NativeLib.kafkaFetchAppendRows(fetch, data.toByteArray(), offsets.array());
    }

    /** Closes the native decoder. */
    void close() {
        NativeLib.close(fetch);
    }
}
