package io.sluice.sinks.adbc;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;

/**
 * The ADBC table sink as a Flink two-phase sink: each subtask's {@link AdbcSinkWriter} hands its
 * rows to a Go writer, which ingests them in bulk; at a checkpoint, an exactly-once writer
 * prepares the transaction holding the checkpoint's rows (or returns the stage table holding
 * them), which {@link AdbcCommitter} commits (moves into the table) once the checkpoint
 * completes. {@code IN} is {@code RowData} (a job on Flink) or
 * {@code NativeBatch} (fed by a native chain).
 */
public final class AdbcSink<IN> implements Sink<IN>, SupportsCommitter<byte[]>, SupportsWriterState<IN, byte[]> {
    private static final long serialVersionUID = 1L;

    /** Writers opened in this JVM, and those of them that restored a checkpoint (tests read these). */
    public static final java.util.concurrent.atomic.AtomicLong WRITERS_OPENED = new java.util.concurrent.atomic.AtomicLong(),
            WRITERS_RESTORED = new java.util.concurrent.atomic.AtomicLong();

    private final byte[] sinkJson;
    /**
     * Names the sink's stage tables: made when the job is planned, so it is the same in every
     * attempt of the job (failover) and different for every other sink and job (also for two
     * sinks chained into one task, and for a job restored from a savepoint).
     */
    private final String sinkId = java.util.UUID.randomUUID().toString();
    /** The row type of the rows the writer receives, or null when it receives native batches. */
    private final RowType rowType;
    private final long flushIntervalMillis;

    private AdbcSink(byte[] sinkJson, RowType rowType, Duration flushInterval) {
        this.sinkJson = sinkJson;
        this.rowType = rowType;
        this.flushIntervalMillis = flushInterval.toMillis();
    }

    /** A sink fed with Flink's rows of {@code rowType}; {@code description}: the table's. */
    static <T> AdbcSink<T> forRows(byte[] description, RowType rowType, Duration flushInterval) {
        return new AdbcSink<>(description, rowType, flushInterval);
    }

    /** A sink fed with native batches; {@code sinkJson}: the island JSON of the sink node. */
    static <T> AdbcSink<T> forBatches(byte[] sinkJson, Duration flushInterval) {
        return new AdbcSink<>(sinkJson, null, flushInterval);
    }

    @Override
    public AdbcSinkWriter<IN> createWriter(WriterInitContext context) {
        NativeLib.ensureLoaded();
        long writer = NativeLib.adbcWriterOpen(
                sinkJson,
                sinkId.getBytes(StandardCharsets.UTF_8),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.getRestoredCheckpointId().orElse(0));
        WRITERS_OPENED.incrementAndGet();
        if (context.getRestoredCheckpointId().isPresent()) {
            WRITERS_RESTORED.incrementAndGet();
        }
        return new AdbcSinkWriter<>(writer, rowType, flushIntervalMillis, context.getProcessingTimeService());
    }

    /** The writer keeps no state of its own (its rows are in stage tables or committed). */
    @Override
    public StatefulSinkWriter<IN, byte[]> restoreWriter(WriterInitContext context, Collection<byte[]> states) {
        return createWriter(context);
    }

    @Override
    public SimpleVersionedSerializer<byte[]> getWriterStateSerializer() {
        return new CommittableSerializer();
    }

    @Override
    public Committer<byte[]> createCommitter(CommitterInitContext context) {
        return new AdbcCommitter(sinkJson);
    }

    @Override
    public SimpleVersionedSerializer<byte[]> getCommittableSerializer() {
        return new CommittableSerializer();
    }

    /** Committables are Go's JSON bytes (the writer's state is empty). */
    static final class CommittableSerializer implements SimpleVersionedSerializer<byte[]> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(byte[] committable) {
            return committable;
        }

        @Override
        public byte[] deserialize(int version, byte[] serialized) throws java.io.IOException {
            if (version != 1) {
                throw new java.io.IOException("adbc sink: unknown committable version " + version);
            }
            return serialized;
        }
    }
}
