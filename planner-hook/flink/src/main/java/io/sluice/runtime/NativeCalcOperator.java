package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Row edge in and out of a native Calc pipeline. Input rows are buffered as BinaryRowData bytes
 * and handed to Go one batch at a time (one JNI call per batch); output rows are BinaryRowData
 * bytes written by Go and wrapped without per-field work. Each output row keeps the record
 * timestamp of the input row it came from, as Flink's Calc does.
 *
 * <p>A batch is flushed when it holds {@code sluice.batch.rows} rows, when its first row has
 * waited {@code sluice.batch.max-delay}, before a watermark is forwarded, before a checkpoint
 * barrier and at the end of input.
 */
public class NativeCalcOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** Batches processed natively in this JVM, by every instance (tests use it to prove native execution). */
    public static final AtomicLong BATCHES_PROCESSED = new AtomicLong();

    /** Native pipelines opened in this JVM (tests use it to observe restarts). */
    public static final AtomicLong PIPELINES_OPENED = new AtomicLong();

    private final byte[] islandJson;
    private final RowType inputType;
    private final RowType outputType;
    private final int batchRows;
    private final long maxDelayMillis;
    private final long nativeMemoryLimit;
    private final int debugPanicAfterBatches;

    private transient long handle;
    private transient InputBatch in;
    private transient OutputRows out;
    private transient StreamRecord<RowData> reuse;
    private transient long batches;

    public NativeCalcOperator(
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            int batchRows,
            long maxDelayMillis,
            long nativeMemoryLimit,
            int debugPanicAfterBatches) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("sluice.batch.rows must be at least 1, got " + batchRows);
        }
        this.islandJson = islandJson;
        this.inputType = inputType;
        this.outputType = outputType;
        this.batchRows = batchRows;
        this.maxDelayMillis = maxDelayMillis;
        this.nativeMemoryLimit = nativeMemoryLimit;
        this.debugPanicAfterBatches = debugPanicAfterBatches;
    }

    @Override
    public void open() throws Exception {
        super.open();
        NativeLib.ensureLoaded();
        NativeLib.configureMemoryLimit(nativeMemoryLimit);
        handle = NativeLib.open(islandJson);
        PIPELINES_OPENED.incrementAndGet();
        in = new InputBatch(inputType, batchRows);
        out = new OutputRows(outputType.getFieldCount(), batchRows);
        reuse = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        if (in.add(element)) {
            flush();
        } else if (in.rows() == 1 && maxDelayMillis > 0) {
            // Bound the latency of a partly filled batch. A timer that fires after its batch was
            // flushed only flushes the next batch early.
            ProcessingTimeService time = getProcessingTimeService();
            time.registerTimer(time.getCurrentProcessingTime() + maxDelayMillis, t -> flush());
        }
    }

    /** Sends the buffered rows through the native pipeline and emits the result. */
    private void flush() {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        in.seal();
        BATCHES_PROCESSED.incrementAndGet();
        batches++;
        if (debugPanicAfterBatches > 0
                && batches == debugPanicAfterBatches
                && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
            NativeLib.debugPanic();
        }
        int outRows = out.accept(handle, NativeLib.process(handle, in.data(), in.offsets(), rows, out.data(), out.offsets()));
        for (int i = 0; i < outRows; i++) {
            int source = out.source(i);
            if (in.hasTimestamp(source)) {
                reuse.replace(out.row(i), in.timestamp(source));
            } else {
                reuse.replace(out.row(i));
                reuse.eraseTimestamp();
            }
            output.collect(reuse);
        }
        in.clear();
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        if (handle != 0) {
            NativeLib.close(handle);
            handle = 0;
        }
        super.close();
    }
}
