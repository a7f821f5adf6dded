package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The local phase of a two-phase window aggregation, in Go: rows are pre-aggregated per key and
 * slice in a buffer that flushes, as Flink's LocalSlicingWindowAggOperator does, when a
 * watermark reaches a trigger point and before each checkpoint barrier; the partial aggregates
 * (timestamps erased) go to Flink's hash exchange ahead of the watermark. No state.
 */
public class NativeLocalWindowAggOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final byte[] islandJson;
    private final RowType inputType;
    private final RowType outputType;
    private final int batchRows;
    private final long maxDelayMillis;
    private final long nativeMemoryLimit;

    private transient long handle;
    private transient InputBatch in;
    private transient OutputRows out;
    private transient StreamRecord<RowData> reuse;

    public NativeLocalWindowAggOperator(
            byte[] islandJson, RowType inputType, RowType outputType, int batchRows, long maxDelayMillis, long nativeMemoryLimit) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("sluice.batch.rows must be at least 1, got " + batchRows);
        }
        this.islandJson = islandJson;
        this.inputType = inputType;
        this.outputType = outputType;
        this.batchRows = batchRows;
        this.maxDelayMillis = maxDelayMillis;
        this.nativeMemoryLimit = nativeMemoryLimit;
    }

    @Override
    public void open() throws Exception {
        super.open();
        NativeLib.ensureLoaded();
        NativeLib.configureMemoryLimit(nativeMemoryLimit);
        handle = NativeLib.open(islandJson);
        in = new InputBatch(inputType, batchRows);
        out = new OutputRows(outputType.getFieldCount(), batchRows);
        reuse = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        if (in.add(element)) {
            flush();
        } else if (in.rows() == 1 && maxDelayMillis > 0) {
            ProcessingTimeService time = getProcessingTimeService();
            time.registerTimer(time.getCurrentProcessingTime() + maxDelayMillis, t -> flush());
        }
    }

    private void flush() {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        in.seal();
        NativeWindowAggOperator.BATCHES_PROCESSED.incrementAndGet();
        out.accept(handle, NativeLib.process(handle, in.data(), in.offsets(), rows, out.data(), out.offsets()));
        in.clear();
    }

    private void emit(long result) {
        int rows = out.accept(handle, result);
        for (int i = 0; i < rows; i++) {
            reuse.replace(out.row(i));
            reuse.eraseTimestamp();
            output.collect(reuse);
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        emit(NativeLib.advanceWatermark(handle, mark.getTimestamp(), out.data(), out.offsets()));
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        emit(NativeLib.prepareCheckpoint(handle, out.data(), out.offsets()));
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
