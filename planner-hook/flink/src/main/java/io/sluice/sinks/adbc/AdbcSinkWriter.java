package io.sluice.sinks.adbc;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.InputBatch;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collection;
import java.util.List;

/**
 * A subtask's writer of an ADBC sink: native batches go to the Go writer as they come; rows are
 * gathered as BinaryRowData bytes and handed over a batch at a time. The buffer is flushed every
 * {@code sink.buffer-flush.interval}, before each checkpoint and at the end of the input.
 */
final class AdbcSinkWriter<IN> implements CommittingSinkWriter<IN, byte[]>, StatefulSinkWriter<IN, byte[]> {
    private static final int ROWS_PER_CALL = 8192;

    private long writer;
    private final InputBatch rows;
    private final long flushIntervalMillis;
    private final ProcessingTimeService time;

    AdbcSinkWriter(long writer, RowType rowType, long flushIntervalMillis, ProcessingTimeService time) {
        this.writer = writer;
        this.rows = rowType == null ? null : new InputBatch(rowType, ROWS_PER_CALL);
        this.flushIntervalMillis = flushIntervalMillis;
        this.time = time;
        if (flushIntervalMillis > 0) {
            time.registerTimer(time.getCurrentProcessingTime() + flushIntervalMillis, this::onTimer);
        }
    }

    @Override
    public void write(IN element, Context context) {
        if (element instanceof NativeBatch) {
            NativeBatch batch = (NativeBatch) element;
            try {
                NativeLib.adbcWriterWrite(writer, batch.handle());
                AdbcNativeSink.BATCHES.incrementAndGet();
            } finally {
                if (batch.owned()) {
                    batch.release();
                }
            }
        } else if (rows.add((RowData) element)) {
            handRows();
        }
    }

    /** Hands the gathered rows to Go. */
    private void handRows() {
        if (rows == null || rows.rows() == 0) {
            return;
        }
        rows.seal();
        NativeLib.adbcWriterWriteRows(writer, rows.data(), rows.offsets(), rows.rows());
        rows.clear();
    }

    private void onTimer(long now) {
        if (writer == 0) {
            return;
        }
        handRows();
        NativeLib.adbcWriterFlush(writer);
        time.registerTimer(now + flushIntervalMillis, this::onTimer);
    }

    @Override
    public void flush(boolean endOfInput) {
        handRows();
        if (endOfInput) {
            NativeLib.adbcWriterFlush(writer);
        }
    }

    @Override
    public Collection<byte[]> prepareCommit() {
        handRows();
        byte[] committable = NativeLib.adbcWriterPrepareCommit(writer);
        return committable.length == 0 ? List.of() : List.of(committable);
    }

    /** No state: tells Go the checkpoint's id, after which its transactions or stage tables are named. */
    @Override
    public List<byte[]> snapshotState(long checkpointId) {
        NativeLib.adbcWriterSnapshotted(writer, checkpointId);
        return List.of();
    }

    @Override
    public void close() {
        if (writer != 0) {
            long w = writer;
            writer = 0;
            NativeLib.close(w);
        }
    }
}
