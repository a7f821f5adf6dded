package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    private transient RowDataSerializer inputSerializer;
    private transient ByteBuffer inData;
    private transient ByteBuffer inOffsets;
    private transient ByteBuffer outData;
    private transient ByteBuffer outOffsets;
    private transient long[] timestamps;
    private transient boolean[] hasTimestamp;
    private transient int rows;
    private transient StreamRecord<RowData> reuse;
    private transient long batches;
    private transient BinaryRowData outRow;
    private transient MemorySegment outSegment;
    private transient ByteBuffer outSegmentBuffer;

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
        inputSerializer = new RowDataSerializer(inputType);
        inData = direct(64 * 1024);
        inOffsets = direct((batchRows + 1) * 4);
        outData = direct(64 * 1024);
        outOffsets = direct((2 * batchRows + 2) * 4);
        timestamps = new long[batchRows];
        hasTimestamp = new boolean[batchRows];
        reuse = new StreamRecord<>(null);
        outRow = new BinaryRowData(outputType.getFieldCount());
    }

    private static ByteBuffer direct(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        BinaryRowData row = inputSerializer.toBinaryRow(element.getValue());
        int size = row.getSizeInBytes();
        int pos = inData.position();
        if (inData.remaining() < size) {
            ByteBuffer bigger = direct(Math.max(inData.capacity() * 2, pos + size));
            inData.flip();
            bigger.put(inData);
            inData = bigger;
        }
        MemorySegment[] segs = row.getSegments();
        if (segs.length == 1) {
            segs[0].get(row.getOffset(), inData, size);
        } else {
            inData.put(org.apache.flink.table.data.binary.BinarySegmentUtils.copyToBytes(segs, row.getOffset(), size));
        }
        inOffsets.putInt(rows * 4, pos);
        timestamps[rows] = element.getTimestamp();
        hasTimestamp[rows] = element.hasTimestamp();
        rows++;
        if (rows >= batchRows) {
            flush();
        } else if (rows == 1 && maxDelayMillis > 0) {
            // Bound the latency of a partly filled batch. A timer that fires after its batch was
            // flushed only flushes the next batch early.
            ProcessingTimeService time = getProcessingTimeService();
            time.registerTimer(time.getCurrentProcessingTime() + maxDelayMillis, t -> flush());
        }
    }

    /** Sends the buffered rows through the native pipeline and emits the result. */
    private void flush() {
        if (rows == 0) {
            return;
        }
        inOffsets.putInt(rows * 4, inData.position());
        BATCHES_PROCESSED.incrementAndGet();
        batches++;
        if (debugPanicAfterBatches > 0
                && batches == debugPanicAfterBatches
                && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
            NativeLib.debugPanic();
        }
        long result = NativeLib.process(handle, inData, inOffsets, rows, outData, outOffsets);
        if (result < 0) {
            outData = direct((int) Math.max(-result, outData.capacity() * 2L));
            result = NativeLib.drain(handle, outData, outOffsets);
        }
        int outRows = (int) result;
        if (outRows > 0) {
            // One segment over the output buffer and one row object, reused for every row and
            // batch, as Flink's own operators reuse their output rows: downstream operators copy
            // or serialize what they keep (CopyingChainingOutput, network serializers).
            if (outSegment == null || outSegmentBuffer != outData) {
                outSegment = MemorySegmentFactory.wrapOffHeapMemory(outData);
                outSegmentBuffer = outData;
            }
            for (int i = 0; i < outRows; i++) {
                int start = outOffsets.getInt(i * 4);
                int end = outOffsets.getInt((i + 1) * 4);
                int source = outOffsets.getInt((outRows + 1 + i) * 4);
                outRow.pointTo(outSegment, start, end - start);
                if (hasTimestamp[source]) {
                    reuse.replace(outRow, timestamps[source]);
                } else {
                    reuse.replace(outRow);
                    reuse.eraseTimestamp();
                }
                output.collect(reuse);
            }
        }
        rows = 0;
        inData.clear();
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
