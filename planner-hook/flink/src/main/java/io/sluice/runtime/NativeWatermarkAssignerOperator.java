package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.util.PausableRelativeClock;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.nio.ByteBuffer;

/**
 * A watermark assigner whose watermark expression runs in Go, a batch at a time. Everything
 * else is Flink's WatermarkAssignerOperator: rows pass unchanged and in order, each row's
 * watermark raises the current one, a watermark is emitted as soon as it is more than the auto
 * watermark interval ahead of the last one and periodically on processing time, idleness is
 * detected the same way, and a null rowtime fails the job with Flink's message.
 *
 * <p>Rows wait in the batch at most {@code sluice.batch.max-delay}; their watermarks count only
 * once they are emitted, so batching delays watermarks but never makes a row late.
 */
public class NativeWatermarkAssignerOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput,
                org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;

    private final byte[] islandJson;
    private final RowType inputType;
    private final int batchRows;
    private final long maxDelayMillis;
    private final long idleTimeout;
    private final long nativeMemoryLimit;

    private transient long handle;
    private transient InputBatch in;
    private transient OutputRows rowsOut;
    private transient ByteBuffer marks;
    private transient StreamRecord<RowData> reuse;
    private transient long lastWatermark;
    private transient long watermarkInterval;
    private transient long timerInterval;
    private transient long currentWatermark;
    private transient long lastWatermarkPeriodicEmitTime;
    private transient long timeSinceLastIdleCheck;
    private transient WatermarkStatus currentStatus;
    private transient long processedElements;
    private transient long lastIdleCheckProcessedElements;
    private transient PausableRelativeClock inputActivityClock;

    public NativeWatermarkAssignerOperator(
            byte[] islandJson, RowType inputType, int batchRows, long maxDelayMillis, long idleTimeout, long nativeMemoryLimit) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("sluice.batch.rows must be at least 1, got " + batchRows);
        }
        this.islandJson = islandJson;
        this.inputType = inputType;
        this.batchRows = batchRows;
        this.maxDelayMillis = maxDelayMillis;
        this.idleTimeout = idleTimeout;
        this.nativeMemoryLimit = nativeMemoryLimit;
    }

    @Override
    public void open() throws Exception {
        super.open();
        NativeLib.ensureLoaded();
        NativeLib.configureMemoryLimit(nativeMemoryLimit);
        handle = NativeLib.open(islandJson);
        in = new InputBatch(inputType, batchRows);
        rowsOut = new OutputRows(inputType.getFieldCount(), 1);
        marks = InputBatch.direct(batchRows * 8);
        reuse = new StreamRecord<>(null);
        currentStatus = WatermarkStatus.ACTIVE;
        lastIdleCheckProcessedElements = -1;

        inputActivityClock = new PausableRelativeClock(getProcessingTimeService().getClock());
        getContainingTask().getEnvironment().getMetricGroup().getIOMetricGroup()
                .registerBackPressureListener(inputActivityClock);
        currentWatermark = 0;
        watermarkInterval = getExecutionConfig().getAutoWatermarkInterval();
        long now = getProcessingTimeService().getCurrentProcessingTime();
        lastWatermarkPeriodicEmitTime = now;
        timeSinceLastIdleCheck = now;
        if (watermarkInterval > 0 || idleTimeout > 0) {
            timerInterval = timerInterval(watermarkInterval, idleTimeout);
            getProcessingTimeService().registerTimer(now + timerInterval, this);
        }
    }

    /** Flink's WatermarkAssignerOperator#calculateProcessingTimeTimerInterval. */
    static long timerInterval(long watermarkInterval, long idleTimeout) {
        if (watermarkInterval <= 0) {
            return idleTimeout;
        }
        if (idleTimeout <= 0) {
            return watermarkInterval;
        }
        long smaller = Math.min(watermarkInterval, idleTimeout);
        long larger = Math.max(watermarkInterval, idleTimeout);
        return Math.max(smaller * 5 < larger ? smaller : smaller / 5, 1);
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

    /** Computes the batch's watermarks natively, then emits its rows as Flink's operator would. */
    private void flush() {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        in.seal();
        if (marks.capacity() < rows * 8) {
            marks = InputBatch.direct(rows * 8);
        }
        NativeLib.watermarks(handle, in.data(), in.offsets(), rows, marks);
        rowsOut.wrap(in.data());
        for (int i = 0; i < rows; i++) {
            processedElements++;
            if (idleTimeout > 0 && currentStatus.equals(WatermarkStatus.IDLE)) {
                emitWatermarkStatus(WatermarkStatus.ACTIVE);
            }
            long watermark = marks.getLong(i * 8);
            if (watermark != Long.MIN_VALUE) {
                currentWatermark = Math.max(currentWatermark, watermark);
            }
            if (in.hasTimestamp(i)) {
                reuse.replace(rowsOut.rowAt(in.start(i), in.end(i)), in.timestamp(i));
            } else {
                reuse.replace(rowsOut.rowAt(in.start(i), in.end(i)));
                reuse.eraseTimestamp();
            }
            output.collect(reuse);
            if (currentWatermark - lastWatermark > watermarkInterval) {
                advanceWatermark();
            }
        }
        in.clear();
    }

    private void advanceWatermark() {
        if (currentWatermark > lastWatermark) {
            lastWatermark = currentWatermark;
            output.emitWatermark(new Watermark(currentWatermark));
        }
    }

    @Override
    public void onProcessingTime(long timestamp) throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long inputActivityNow = inputActivityClock.relativeTimeMillis();
        if (watermarkInterval > 0 && lastWatermarkPeriodicEmitTime + watermarkInterval <= now) {
            lastWatermarkPeriodicEmitTime = now;
            advanceWatermark();
        }
        if (processedElements != lastIdleCheckProcessedElements) {
            timeSinceLastIdleCheck = inputActivityNow;
            lastIdleCheckProcessedElements = processedElements;
        }
        if (idleTimeout > 0
                && currentStatus.equals(WatermarkStatus.ACTIVE)
                && timeSinceLastIdleCheck + idleTimeout <= inputActivityNow) {
            emitWatermarkStatus(WatermarkStatus.IDLE);
        }
        getProcessingTimeService().registerTimer(now + timerInterval, this);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        if (mark.getTimestamp() == Long.MAX_VALUE && currentWatermark != Long.MAX_VALUE) {
            if (idleTimeout > 0 && currentStatus.equals(WatermarkStatus.IDLE)) {
                emitWatermarkStatus(WatermarkStatus.ACTIVE);
            }
            currentWatermark = Long.MAX_VALUE;
            output.emitWatermark(mark);
        }
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus watermarkStatus) throws Exception {
        flush();
        emitWatermarkStatus(watermarkStatus);
    }

    private void emitWatermarkStatus(WatermarkStatus status) {
        currentStatus = status;
        output.emitWatermarkStatus(status);
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
        processWatermark(Watermark.MAX_WATERMARK);
    }

    @Override
    public void close() throws Exception {
        if (inputActivityClock != null) {
            getContainingTask().getEnvironment().getMetricGroup().getIOMetricGroup()
                    .unregisterBackPressureListener(inputActivityClock);
        }
        if (handle != 0) {
            NativeLib.close(handle);
            handle = 0;
        }
        super.close();
    }
}
