package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.InputStream;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A window aggregation that runs in Go. Rows arrive routed by Flink's hash exchange, are
 * buffered and aggregated natively a batch at a time; a watermark fires the windows it
 * completes, whose rows are emitted (record timestamps erased, as Flink's WindowAggOperator
 * does) before the watermark is forwarded.
 *
 * <p>State lives in Go, one blob per key group, written into Flink's checkpoints as raw keyed
 * state and restored from them, so Flink rescales it like its own. The operator's event time is
 * union list state restored as the minimum, as in Flink's operator.
 */
public class NativeWindowAggOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Batches aggregated natively in this JVM, by every instance (tests use it to prove native execution). */
    public static final AtomicLong BATCHES_PROCESSED = new AtomicLong();

    /** Native window pipelines opened in this JVM (tests use it to observe restarts). */
    public static final AtomicLong PIPELINES_OPENED = new AtomicLong();

    /** Key groups restored with state in this JVM (tests use it to prove restores happened). */
    public static final AtomicLong KEY_GROUPS_RESTORED = new AtomicLong();

    private final byte[] islandJson;
    private final RowType inputType;
    private final RowType outputType;
    private final int batchRows;
    private final long maxDelayMillis;
    private final long nativeMemoryLimit;
    private final int debugFailAfterBatches;
    private final int debugFailAttempts;

    private transient long handle;
    private transient long batches;
    private transient InputBatch in;
    private transient OutputRows out;
    private transient StreamRecord<RowData> reuse;
    private transient ListState<Long> watermarkState;
    private transient long currentWatermark;
    private transient KeyGroupRange keyGroups;

    public NativeWindowAggOperator(
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            int batchRows,
            long maxDelayMillis,
            long nativeMemoryLimit,
            int debugFailAfterBatches,
            int debugFailAttempts) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("sluice.batch.rows must be at least 1, got " + batchRows);
        }
        this.islandJson = islandJson;
        this.inputType = inputType;
        this.outputType = outputType;
        this.batchRows = batchRows;
        this.maxDelayMillis = maxDelayMillis;
        this.nativeMemoryLimit = nativeMemoryLimit;
        this.debugFailAfterBatches = debugFailAfterBatches;
        this.debugFailAttempts = debugFailAttempts;
    }

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        currentWatermark = Long.MIN_VALUE;
        watermarkState = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>("watermark", LongSerializer.INSTANCE));
        if (context.isRestored()) {
            long min = Long.MAX_VALUE;
            for (Long w : watermarkState.get()) {
                min = Math.min(min, w);
            }
            if (min != Long.MAX_VALUE) {
                currentWatermark = min;
            }
        }
        openNative();
        if (context.isRestored()) {
            for (KeyGroupStatePartitionStreamProvider p : context.getRawKeyedStateInputs()) {
                try (InputStream stream = p.getStream()) {
                    DataInputViewStreamWrapper view = new DataInputViewStreamWrapper(stream);
                    int length = view.readInt();
                    if (length > 0) {
                        byte[] blob = new byte[length];
                        view.readFully(blob);
                        NativeLib.restoreKeyGroup(handle, p.getKeyGroupId(), blob);
                        KEY_GROUPS_RESTORED.incrementAndGet();
                    }
                }
            }
            if (currentWatermark != Long.MIN_VALUE) {
                NativeLib.initializeWatermark(handle, currentWatermark);
            }
        }
    }

    private void openNative() throws Exception {
        NativeLib.ensureLoaded();
        NativeLib.configureMemoryLimit(nativeMemoryLimit);
        TaskInfo task = getRuntimeContext().getTaskInfo();
        int maxParallelism = task.getMaxNumberOfParallelSubtasks();
        keyGroups = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                maxParallelism, task.getNumberOfParallelSubtasks(), task.getIndexOfThisSubtask());
        ObjectNode plan = (ObjectNode) MAPPER.readTree(islandJson);
        ObjectNode options = plan.has("options") ? (ObjectNode) plan.get("options") : plan.putObject("options");
        options.put("sluice.runtime.max-parallelism", String.valueOf(maxParallelism));
        options.put("sluice.runtime.key-group-start", String.valueOf(keyGroups.getStartKeyGroup()));
        options.put("sluice.runtime.key-group-end", String.valueOf(keyGroups.getEndKeyGroup()));
        handle = NativeLib.open(MAPPER.writeValueAsBytes(plan));
        PIPELINES_OPENED.incrementAndGet();
        in = new InputBatch(inputType, batchRows);
        out = new OutputRows(outputType.getFieldCount(), batchRows);
        reuse = new StreamRecord<>(null);
        getMetricGroup().gauge("numLateRecordsDropped", () -> handle == 0 ? 0L : NativeLib.lateRowsDropped(handle));
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

    /** Aggregates the buffered rows natively. */
    private void flush() {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        in.seal();
        BATCHES_PROCESSED.incrementAndGet();
        batches++;
        int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        if (debugFailAfterBatches > 0 && batches == debugFailAfterBatches && attempt < debugFailAttempts) {
            if (attempt % 2 == 0) {
                NativeLib.debugPanic();
            }
            throw new IllegalStateException("sluice.debug.fail-attempts: injected failure in attempt " + attempt);
        }
        out.accept(handle, NativeLib.process(handle, in.data(), in.offsets(), rows, out.data(), out.offsets()));
        in.clear();
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        if (mark.getTimestamp() > currentWatermark) {
            currentWatermark = mark.getTimestamp();
            int rows = out.accept(handle, NativeLib.advanceWatermark(handle, currentWatermark, out.data(), out.offsets()));
            for (int i = 0; i < rows; i++) {
                reuse.replace(out.row(i));
                reuse.eraseTimestamp();
                output.collect(reuse);
            }
            super.processWatermark(mark);
        } else {
            super.processWatermark(new Watermark(currentWatermark));
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        out.accept(handle, NativeLib.prepareCheckpoint(handle, out.data(), out.offsets()));
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        watermarkState.update(Collections.singletonList(currentWatermark));
        KeyedStateCheckpointOutputStream stream = context.getRawKeyedOperatorStateOutput();
        DataOutputViewStreamWrapper view = new DataOutputViewStreamWrapper(stream);
        // Every key group of the range gets an entry (length 0 when it holds no state), so that
        // each restored stream starts at its own group.
        for (int kg = keyGroups.getStartKeyGroup(); kg <= keyGroups.getEndKeyGroup(); kg++) {
            byte[] blob = NativeLib.snapshotKeyGroup(handle, kg);
            stream.startNewKeyGroup(kg);
            if (blob == null) {
                view.writeInt(0);
            } else {
                view.writeInt(blob.length);
                view.write(blob);
            }
        }
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
