package io.sluice.sinks.kafka;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Flink's KafkaSink fed with native batches: Go encodes each batch's rows into record values in
 * one call, and the stock writer writes them one by one. The writer, its transactions, state and
 * committables, the committer and the post-commit topology are the KafkaSink's own (its
 * savepoint state has stock Flink's format).
 */
final class BatchKafkaSink
        implements TwoPhaseCommittingStatefulSink<NativeBatch, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {
    private static final long serialVersionUID = 1L;

    /** Records encoded natively in this JVM (tests assert native writing by it). */
    static final AtomicLong RECORDS = new AtomicLong();

    private final KafkaSink<EncodedRecord> sink;
    private final byte[] sinkJson;

    BatchKafkaSink(KafkaSink<EncodedRecord> sink, byte[] sinkJson) {
        this.sink = sink;
        this.sinkJson = sinkJson;
    }

    @Override
    public PrecommittingStatefulSinkWriter<NativeBatch, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return new Writer(sink.createWriter(context), sinkJson);
    }

    @Override
    public PrecommittingStatefulSinkWriter<NativeBatch, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return new Writer(sink.restoreWriter(context, recoveredState), sinkJson);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return sink.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        sink.addPostCommitTopology(committables);
    }

    /** The stock writer, fed one record at a time from each batch's encoding. */
    private static final class Writer
            implements PrecommittingStatefulSinkWriter<NativeBatch, KafkaWriterState, KafkaCommittable> {
        private final PrecommittingStatefulSinkWriter<EncodedRecord, KafkaWriterState, KafkaCommittable> inner;
        private final long encoder;

        Writer(PrecommittingStatefulSinkWriter<EncodedRecord, KafkaWriterState, KafkaCommittable> inner, byte[] sinkJson) {
            this.inner = inner;
            NativeLib.ensureLoaded();
            this.encoder = NativeLib.kafkaEncoderOpen(sinkJson);
        }

        @Override
        public void write(NativeBatch batch, SinkWriter.Context context) throws IOException, InterruptedException {
            try {
                byte[] encoded = NativeLib.kafkaEncode(encoder, batch.handle());
                int n = RecordValues.count(encoded);
                boolean keyed = RecordValues.hasKeys(encoded);
                boolean timed = RecordValues.hasTimestamps(encoded);
                for (int r = 0; r < n; r++) {
                    inner.write(new EncodedRecord(keyed ? RecordValues.key(encoded, r) : null, RecordValues.value(encoded, r),
                            timed ? RecordValues.timestamp(encoded, r) : null), context);
                }
                RECORDS.addAndGet(n);
            } finally {
                if (batch.owned()) {
                    batch.release();
                }
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            inner.flush(endOfInput);
        }

        @Override
        public void writeWatermark(Watermark watermark) throws IOException, InterruptedException {
            inner.writeWatermark(watermark);
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) throws IOException {
            return inner.snapshotState(checkpointId);
        }

        @Override
        public Collection<KafkaCommittable> prepareCommit() throws IOException, InterruptedException {
            return inner.prepareCommit();
        }

        @Override
        public void close() throws Exception {
            try {
                inner.close();
            } finally {
                NativeLib.close(encoder);
            }
        }
    }
}
