package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.io.network.api.writer.ResultPartitionWriter;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.graph.NonChainedOutput;
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

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Flink operator of a native chain: the island nodes between two exchanges (or edges), run
 * in Go one batch at a time (one JNI call per batch for the whole chain).
 *
 * <p>Row edge in: records are buffered as BinaryRowData bytes and flushed on size ({@code
 * sluice.batch.rows}), after {@code sluice.batch.max-delay}, before a watermark, before a
 * checkpoint barrier and at the end of input. Row edge out: the chain's output rows, wrapped
 * without per-field work, interleaved with the watermarks the chain emits.
 *
 * <p>A chain that starts with a watermark assigner emits watermarks as Flink's
 * WatermarkAssignerOperator does (on jumps larger than the auto watermark interval, inside Go,
 * between the rows that cause them; periodically on processing time; idleness here). A chain
 * that starts with a keyed window aggregation keeps its state in Go, written into Flink's
 * checkpoints as raw keyed state (one blob per key group) and restored from them, with its
 * event time in union list state, as Flink's WindowAggOperator.
 */
public class NativeChainOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput,
                org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Batches processed natively in this JVM, per exec-node type (tests use it to prove native execution). */
    public static final Map<String, AtomicLong> BATCHES = new ConcurrentHashMap<>();

    /** Batches sent through columnar exchanges in this JVM (tests use it to prove the exchange). */
    public static final AtomicLong EXCHANGE_BATCHES = new AtomicLong();

    /** Native pipelines opened in this JVM (tests use it to observe restarts). */
    public static final AtomicLong PIPELINES_OPENED = new AtomicLong();

    /** Key groups restored with state in this JVM (tests use it to prove restores happened). */
    public static final AtomicLong KEY_GROUPS_RESTORED = new AtomicLong();
    /** Failures injected by the debug options (sluice.debug.fail-attempts) in this JVM so far. */
    public static final AtomicLong FAILURES_INJECTED = new AtomicLong();

    /** Batches processed natively so far by chains holding a node of the given exec-node type. */
    public static long batches(String nodeType) {
        AtomicLong n = BATCHES.get(nodeType);
        return n == null ? 0 : n.get();
    }

    /** Batches processed natively so far by every chain. */
    public static long batches() {
        return batches("*");
    }

    private final byte[] islandJson;
    private final RowType inputType;
    private final RowType outputType;
    private final ChainShape shape;
    private final int batchRows;
    private final long maxDelayMillis;
    private final long nativeMemoryLimit;
    private final int debugFailAfterBatches;
    private final int debugFailAttempts;
    private final int debugBatchDelayMillis;
    // Failure injection in keyed chains, and in chains that read a native scan, waits for a
    // completed checkpoint taken after this attempt's first batch, so that the restart it causes
    // always restores something (keyed state, or a scan position inside a split): the first
    // checkpoint taken after a batch, and whether one has completed since.
    private transient long firstCheckpointWithBatches = -1;
    private transient boolean batchesCheckpointed;

    private transient long handle;
    private transient InputBatch in;
    private transient OutputRows out;
    private transient ByteBuffer markers;
    // Chains feeding a columnar exchange: the (channel | rows << 32, batch) pairs of a split.
    private transient ByteBuffer exchangeParts;
    private transient int exchangeChannels;
    // Processing-time windows: the arrival times of the buffered rows, as (first row, time)
    // runs, and the earliest processing-time timer registered for the chain.
    private transient ByteBuffer arrivalRuns;
    private transient int arrivalCount;
    private transient long lastArrival;
    private transient long registeredTimer;
    /** The mini-batch assigner's last watermark (ProcTimeMiniBatchAssignerOperator#currentWatermark). */
    private transient long miniBatchWatermark;
    private transient StreamRecord<RowData> reuse;
    private transient StreamRecord<RowData> batchRecord;
    /**
     * Whether a window table function in the chain erases record timestamps (as Flink's
     * WindowTableFunctionOperatorBase does): its rows do not carry a native batch's timestamp.
     */
    private transient boolean erasesTimestamps;
    private transient long batches;
    private transient AtomicLong[] counters;

    // Keyed chains: the event time kept in union list state.
    private transient ListState<Long> watermarkState;
    private transient long currentWatermark;
    private transient KeyGroupRange keyGroups;
    private transient volatile long lateRecordsDropped;
    private transient volatile long stateBytes;
    private transient volatile long stateKeys;
    private transient long lastMetricsRefresh;

    // Watermark-assigner chains: periodic emission and idleness, as WatermarkAssignerOperator.
    private transient long watermarkInterval;
    private transient long timerInterval;
    private transient long lastPeriodicEmit;
    private transient long timeSinceLastIdleCheck;
    private transient long processedElements;
    private transient long lastIdleCheckProcessedElements;
    private transient WatermarkStatus currentStatus;
    private transient PausableRelativeClock inputActivityClock;

    public NativeChainOperator(
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            ChainShape shape,
            int batchRows,
            long maxDelayMillis,
            long nativeMemoryLimit,
            int debugFailAfterBatches,
            int debugFailAttempts,
            int debugBatchDelayMillis) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("sluice.batch.rows must be at least 1, got " + batchRows);
        }
        this.islandJson = islandJson;
        this.debugBatchDelayMillis = debugBatchDelayMillis;
        this.inputType = inputType;
        this.outputType = outputType;
        this.shape = shape;
        this.batchRows = batchRows;
        this.maxDelayMillis = maxDelayMillis;
        this.nativeMemoryLimit = nativeMemoryLimit;
        this.debugFailAfterBatches = debugFailAfterBatches;
        this.debugFailAttempts = debugFailAttempts;
    }

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return shape.keyed();
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        currentWatermark = Long.MIN_VALUE;
        if (shape.keyed()) {
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
        }
        openNative();
        if (shape.keyed() && context.isRestored()) {
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
        ObjectNode plan = (ObjectNode) MAPPER.readTree(islandJson);
        ObjectNode options = plan.has("options") ? (ObjectNode) plan.get("options") : plan.putObject("options");
        if (shape.keyed()) {
            TaskInfo task = getRuntimeContext().getTaskInfo();
            int maxParallelism = task.getMaxNumberOfParallelSubtasks();
            keyGroups = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                    maxParallelism, task.getNumberOfParallelSubtasks(), task.getIndexOfThisSubtask());
            options.put("sluice.runtime.max-parallelism", String.valueOf(maxParallelism));
            options.put("sluice.runtime.key-group-start", String.valueOf(keyGroups.getStartKeyGroup()));
            options.put("sluice.runtime.key-group-end", String.valueOf(keyGroups.getEndKeyGroup()));
            // Whether keyed state holds objects (the heap backend) or serialized copies: Flink's
            // last-row deduplication on processing time behaves differently on the two.
            org.apache.flink.runtime.state.KeyedStateBackend<?> backend = getKeyedStateBackend();
            if (backend instanceof org.apache.flink.runtime.state.TestableKeyedStateBackend) {
                backend = ((org.apache.flink.runtime.state.TestableKeyedStateBackend<?>) backend).getDelegatedKeyedStateBackend(true);
            }
            options.put("sluice.runtime.heap-state",
                    String.valueOf(backend instanceof org.apache.flink.runtime.state.heap.HeapKeyedStateBackend));
            // Gauges run on other threads: they read values the task thread refreshes (see
            // refreshStateMetrics), never the native state itself.
            getMetricGroup().gauge("numLateRecordsDropped", () -> lateRecordsDropped);
            // Native state is invisible to the JVM: report its size (memory per key = bytes / keys).
            getMetricGroup().gauge("sluiceStateBytes", () -> stateBytes);
            getMetricGroup().gauge("sluiceStateKeys", () -> stateKeys);
        }
        if (shape.exchangeOutput()) {
            int[] target = exchangeTarget();
            exchangeChannels = target[0];
            options.put("sluice.runtime.exchange-parallelism", String.valueOf(target[0]));
            options.put("sluice.runtime.exchange-max-parallelism", String.valueOf(target[1]));
            exchangeParts = InputBatch.direct(16 * target[0]);
        }
        watermarkInterval = getExecutionConfig().getAutoWatermarkInterval();
        options.put("sluice.runtime.auto-watermark-interval", String.valueOf(watermarkInterval));
        handle = NativeLib.open(MAPPER.writeValueAsBytes(plan));
        PIPELINES_OPENED.incrementAndGet();
        in = new InputBatch(inputType, batchRows);
        out = new OutputRows(outputType.getFieldCount(), batchRows);
        markers = InputBatch.direct(16 * 64);
        reuse = new StreamRecord<>(null);
        counters = new AtomicLong[shape.nodeTypes().size() + 1];
        counters[0] = BATCHES.computeIfAbsent("*", k -> new AtomicLong());
        for (int i = 0; i < shape.nodeTypes().size(); i++) {
            counters[i + 1] = BATCHES.computeIfAbsent(shape.nodeTypes().get(i), k -> new AtomicLong());
        }
    }

    /**
     * The parallelism and maximum parallelism (key groups) of the consumer of this chain's
     * columnar exchange: those of the task's result partition for it when the task has one
     * (what Flink's partitioners are set up with), else the job graph's.
     */
    private int[] exchangeTarget() {
        ClassLoader cl = getUserCodeClassloader();
        NonChainedOutput mine = null;
        for (NonChainedOutput o : getOperatorConfig().getOperatorNonChainedOutputs(cl)) {
            if (o.getPartitioner() instanceof NativeBatchPartitioner) {
                mine = o;
            }
        }
        if (mine == null) {
            throw new IllegalStateException("native chain " + shape.nodeTypes() + " feeds a columnar exchange, but its "
                    + "task has no output with a " + NativeBatchPartitioner.class.getSimpleName());
        }
        int index = getContainingTask().getConfiguration().getVertexNonChainedOutputs(cl).indexOf(mine);
        if (index >= 0) {
            ResultPartitionWriter writer = getContainingTask().getEnvironment().getWriter(index);
            if (writer.getNumTargetKeyGroups() > 0) {
                return new int[] {writer.getNumberOfSubpartitions(), writer.getNumTargetKeyGroups()};
            }
        }
        return new int[] {mine.getConsumerParallelism(), mine.getConsumerMaxParallelism()};
    }

    /**
     * Native chains keep no Flink keyed state (their state is raw keyed state, written per key
     * group), so they need no current key: Flink's per-record key extraction is skipped (it
     * also could not read native batch records).
     */
    @Override
    @SuppressWarnings("rawtypes")
    public void setKeyContextElement1(StreamRecord record) {}

    @Override
    public void open() throws Exception {
        super.open();
        erasesTimestamps = shape.nodeTypes().contains("stream-exec-window-table-function_1");
        if (shape.procTime()) {
            arrivalRuns = InputBatch.direct(16 * 64);
            registeredTimer = Long.MAX_VALUE;
            scheduleWindowTimer(); // windows restored from a checkpoint
        }
        if (shape.miniBatchInterval() > 0) {
            // ProcTimeMiniBatchAssignerOperator#open.
            miniBatchWatermark = 0;
            long now = getProcessingTimeService().getCurrentProcessingTime();
            getProcessingTimeService().registerTimer(now + shape.miniBatchInterval(), this::onMiniBatchTimer);
        }
        if (shape.watermarkAssigner()) {
            currentStatus = WatermarkStatus.ACTIVE;
            lastIdleCheckProcessedElements = -1;
            inputActivityClock = new PausableRelativeClock(getProcessingTimeService().getClock());
            getContainingTask().getEnvironment().getMetricGroup().getIOMetricGroup()
                    .registerBackPressureListener(inputActivityClock);
            long now = getProcessingTimeService().getCurrentProcessingTime();
            lastPeriodicEmit = now;
            timeSinceLastIdleCheck = now;
            if (watermarkInterval > 0 || shape.idleTimeout() > 0) {
                timerInterval = timerInterval(watermarkInterval, shape.idleTimeout());
                getProcessingTimeService().registerTimer(now + timerInterval, this);
            }
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
        // A chain that starts with a native scan receives NativeBatch records through the same
        // (erased) input: its input transformation produces them.
        if (shape.watermarkAssigner()) {
            processedElements++;
            if (shape.idleTimeout() > 0 && currentStatus.equals(WatermarkStatus.IDLE)) {
                emitWatermarkStatus(WatermarkStatus.ACTIVE);
            }
        }
        if (shape.miniBatchInterval() > 0) {
            nextMiniBatch();
        }
        Object value = ((StreamRecord<?>) element).getValue();
        if (value instanceof NativeBatch batch) {
            processBatch(batch, element);
            return;
        }
        if (shape.procTime()) {
            // Flink assigns a processing-time window by the clock when the row arrives.
            long now = getProcessingTimeService().getCurrentProcessingTime();
            if (arrivalCount == 0 || now != lastArrival) {
                addArrival(in.rows(), now);
            }
        }
        if (in.add(element)) {
            flush();
        } else if (in.rows() == 1 && flushDelayMillis() > 0) {
            // Bound the latency of a partly filled batch. A timer that fires after its batch was
            // flushed only flushes the next batch early.
            ProcessingTimeService time = getProcessingTimeService();
            time.registerTimer(time.getCurrentProcessingTime() + flushDelayMillis(), t -> flush());
        }
    }

    /**
     * The mini-batch assigner's clock (ProcTimeMiniBatchAssignerOperator#processElement): when
     * processing time has entered a new interval, the rows before go through the chain, then
     * the interval's start goes out as a watermark, finishing the bundles after the assigner.
     */
    private void nextMiniBatch() {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long batch = now - now % shape.miniBatchInterval();
        if (batch > miniBatchWatermark) {
            flush();
            miniBatchWatermark = batch;
            emit(NativeLib.miniBatchWatermark(handle, batch, out.data(), out.offsets()), false);
        }
    }

    /** ProcTimeMiniBatchAssignerOperator#onProcessingTime: a watermark each interval, rows or not. */
    private void onMiniBatchTimer(long timestamp) {
        nextMiniBatch();
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long batch = now - now % shape.miniBatchInterval();
        getProcessingTimeService().registerTimer(batch + shape.miniBatchInterval(), this::onMiniBatchTimer);
    }

    /**
     * How long a partly filled batch may wait: sluice.batch.max-delay, except that a chain of
     * processing-time windows always flushes within the option's default (100 ms), because its
     * windows' timers exist only once their rows have reached Go.
     */
    private long flushDelayMillis() {
        return shape.procTime() && maxDelayMillis <= 0 ? 100 : maxDelayMillis;
    }

    /** Records that rows from firstRow of the buffer on arrived at time. */
    private void addArrival(int firstRow, long time) {
        if (arrivalRuns.capacity() < 16 * (arrivalCount + 1)) {
            ByteBuffer bigger = InputBatch.direct(2 * arrivalRuns.capacity());
            for (int i = 0; i < 2 * arrivalCount; i++) {
                bigger.putLong(8 * i, arrivalRuns.getLong(8 * i));
            }
            arrivalRuns = bigger;
        }
        arrivalRuns.putLong(16 * arrivalCount, firstRow);
        arrivalRuns.putLong(16 * arrivalCount + 8, time);
        arrivalCount++;
        lastArrival = time;
    }

    /** Hands the arrival times of the rows about to be processed to Go. */
    private void passArrivals() {
        NativeLib.arrivals(handle, arrivalRuns, arrivalCount);
        arrivalCount = 0;
    }

    /**
     * Registers a processing-time timer for the chain's next processing-time window, unless an
     * earlier one is registered (a timer that finds nothing due does nothing).
     */
    private void scheduleWindowTimer() {
        long next = NativeLib.nextProcessingTimer(handle);
        if (next < registeredTimer) {
            registeredTimer = next;
            getProcessingTimeService().registerTimer(next, this::onWindowTimer);
        }
    }

    /** Fires the processing-time windows due at time, as Flink's WindowAggOperator#onProcessingTime. */
    private void onWindowTimer(long time) throws Exception {
        if (time >= registeredTimer) {
            registeredTimer = Long.MAX_VALUE;
        }
        flush(); // rows that arrived before the timer belong to their windows
        emit(NativeLib.advanceProcessingTime(handle, time, out.data(), out.offsets()), false);
        scheduleWindowTimer();
    }

    /** Runs a native batch through the chain and emits the rows that come out. */
    private void processBatch(NativeBatch batch, StreamRecord<RowData> record) {
        if (!shape.batchInput()) {
            throw new IllegalStateException("native chain " + shape.nodeTypes() + " does not read native batches");
        }
        try {
            countBatch();
            batchRecord = record;
            if (shape.procTime()) {
                // The batch's rows arrive together.
                arrivalCount = 0;
                addArrival(0, getProcessingTimeService().getCurrentProcessingTime());
                passArrivals();
            }
            emit(NativeLib.processBatch(handle, batch.handle(), out.data(), out.offsets()), false);
            if (shape.procTime()) {
                scheduleWindowTimer();
            }
        } finally {
            batchRecord = null;
            if (batch.owned()) {
                batch.release();
            }
        }
    }

    /** Counts a batch and injects the failures the debug options ask for. */
    private void countBatch() {
        if (debugBatchDelayMillis > 0) {
            try {
                Thread.sleep(debugBatchDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (AtomicLong c : counters) {
            c.incrementAndGet();
        }
        batches++;
        int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        boolean waitForCheckpoint = shape.keyed() || shape.batchInput();
        boolean due = waitForCheckpoint
                ? batches >= debugFailAfterBatches && batchesCheckpointed
                : batches == debugFailAfterBatches;
        if (debugFailAfterBatches > 0 && due && attempt < Math.max(1, debugFailAttempts)) {
            FAILURES_INJECTED.incrementAndGet();
            if (attempt % 2 == 0) {
                NativeLib.debugPanic();
            }
            throw new IllegalStateException("sluice.debug.fail-attempts: injected failure in attempt " + attempt);
        }
    }

    /** Runs the buffered rows through the chain and emits what comes out. */
    private void flush() {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        in.seal();
        countBatch();
        if (shape.procTime()) {
            passArrivals();
        }
        emit(NativeLib.process(handle, in.data(), in.offsets(), rows, out.data(), out.offsets()), true);
        in.clear();
        if (shape.procTime()) {
            scheduleWindowTimer();
        }
    }

    /**
     * Emits the result of a native call: its rows, with the watermarks it produced between them.
     * Rows of a row-mapping chain keep their input rows' timestamps when fromInput.
     */
    private void emit(long result, boolean fromInput) {
        if (shape.batchOutput()) {
            emitBatches(result);
            return;
        }
        int rows = out.accept(handle, result);
        int count = out.markers();
        readMarkers(count);
        int next = 0;
        for (int i = 0; i <= rows; i++) {
            while (next < count && markers.getLong(16 * next) == i) {
                emitWatermark(markers.getLong(16 * next + 8));
                next++;
            }
            if (i == rows) {
                break;
            }
            if (fromInput && shape.rowMapping() && in.hasTimestamp(out.source(i))) {
                reuse.replace(out.row(i), in.timestamp(out.source(i)));
            } else if (batchRecord != null && batchRecord.hasTimestamp() && !erasesTimestamps) {
                // Rows of a native batch carry the batch record's timestamp, as the source's
                // rows would have carried it one by one.
                reuse.replace(out.row(i), batchRecord.getTimestamp());
            } else {
                reuse.replace(out.row(i));
                reuse.eraseTimestamp();
            }
            output.collect(reuse);
        }
    }

    /**
     * Emits the output of a native call of a chain that feeds a native sink: its rows as native
     * batches, cut at the watermarks between them. The batches are released once emitted (a
     * chained sink has consumed them, a network edge has serialized them).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void emitBatches(long result) {
        int rows = (int) result;
        int count = (int) (result >>> 32);
        readMarkers(count);
        int from = 0;
        for (int m = 0; m <= count; m++) {
            int to = m < count ? (int) markers.getLong(16 * m) : rows;
            if (to > from && shape.exchangeOutput()) {
                emitExchangeBatches(from, to);
                from = to;
            } else if (to > from) {
                NativeBatch batch = new NativeBatch(NativeLib.outputBatch(handle, from, to), to - from, false);
                try {
                    ((org.apache.flink.streaming.api.operators.Output) output).collect(new StreamRecord<>(batch));
                } finally {
                    batch.release();
                }
                from = to;
            }
            if (m < count) {
                emitWatermark(markers.getLong(16 * m + 8));
            }
        }
    }

    /**
     * Emits output rows [from, to) of the last native call to a columnar exchange: one batch per
     * target channel, each released once the network has serialized it.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void emitExchangeBatches(int from, int to) {
        int n = NativeLib.exchangeBatches(handle, from, to, exchangeParts);
        // Take every handle first, so that all are released even if an emit fails.
        NativeBatch[] parts = new NativeBatch[n];
        for (int i = 0; i < n; i++) {
            long channelAndRows = exchangeParts.getLong(16 * i);
            parts[i] = new NativeBatch(exchangeParts.getLong(16 * i + 8), (int) (channelAndRows >>> 32), false,
                    (int) channelAndRows, exchangeChannels);
        }
        try {
            for (NativeBatch part : parts) {
                ((org.apache.flink.streaming.api.operators.Output) output).collect(new StreamRecord<>(part));
            }
            EXCHANGE_BATCHES.addAndGet(n);
        } finally {
            for (NativeBatch part : parts) {
                part.release();
            }
        }
    }

    /** Reads the watermark markers of the last native call into {@link #markers}. */
    private void readMarkers(int count) {
        if (count > 0 && markers.capacity() < 16 * count) {
            markers = InputBatch.direct(16 * count);
        }
        if (count > 0) {
            NativeLib.markers(handle, markers);
        }
    }

    private void emitWatermark(long watermark) {
        currentWatermark = Math.max(currentWatermark, watermark);
        try {
            super.processWatermark(new Watermark(watermark));
        } catch (Exception e) {
            throw new IllegalStateException("cannot forward watermark " + watermark, e);
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        if (mark.getTimestamp() == Long.MAX_VALUE) {
            // The final watermark passes a mini-batch assigner, which emits nothing after it.
            miniBatchWatermark = Long.MAX_VALUE;
        }
        if (shape.watermarkAssigner() && mark.getTimestamp() == Long.MAX_VALUE
                && shape.idleTimeout() > 0 && currentStatus.equals(WatermarkStatus.IDLE)) {
            // As WatermarkAssignerOperator: the final watermark must not meet an idle output.
            emitWatermarkStatus(WatermarkStatus.ACTIVE);
        }
        emit(NativeLib.advanceWatermark(handle, mark.getTimestamp(), out.data(), out.offsets()), false);
        long now = System.nanoTime();
        if (now - lastMetricsRefresh > 5_000_000_000L) { // the size walks every key: not on every watermark
            lastMetricsRefresh = now;
            refreshStateMetrics();
        }
    }

    /** Reads the keyed state's metrics on the task thread, for the gauges. */
    private void refreshStateMetrics() {
        if (shape.keyed()) {
            lateRecordsDropped = NativeLib.lateRowsDropped(handle);
            stateBytes = NativeLib.stateSize(handle, false);
            stateKeys = NativeLib.stateSize(handle, true);
        }
    }

    @Override
    public void onProcessingTime(long timestamp) throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long inputActivityNow = inputActivityClock.relativeTimeMillis();
        if (watermarkInterval > 0 && lastPeriodicEmit + watermarkInterval <= now) {
            lastPeriodicEmit = now;
            flush();
            emit(NativeLib.emitPeriodicWatermark(handle, out.data(), out.offsets()), false);
        }
        if (processedElements != lastIdleCheckProcessedElements) {
            timeSinceLastIdleCheck = inputActivityNow;
            lastIdleCheckProcessedElements = processedElements;
        }
        if (shape.idleTimeout() > 0
                && currentStatus.equals(WatermarkStatus.ACTIVE)
                && timeSinceLastIdleCheck + shape.idleTimeout() <= inputActivityNow) {
            emitWatermarkStatus(WatermarkStatus.IDLE);
        }
        getProcessingTimeService().registerTimer(now + timerInterval, this);
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        flush();
        if (shape.watermarkAssigner()) {
            emitWatermarkStatus(status);
        } else {
            super.processWatermarkStatus(status);
        }
    }

    private void emitWatermarkStatus(WatermarkStatus status) {
        currentStatus = status;
        output.emitWatermarkStatus(status);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        emit(NativeLib.prepareCheckpoint(handle, out.data(), out.offsets()), false);
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (firstCheckpointWithBatches < 0 && batches > 0) {
            firstCheckpointWithBatches = context.getCheckpointId();
        }
        if (!shape.keyed()) {
            return;
        }
        watermarkState.update(Collections.singletonList(currentWatermark));
        refreshStateMetrics();
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
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (firstCheckpointWithBatches >= 0 && checkpointId >= firstCheckpointWithBatches) {
            batchesCheckpointed = true;
        }
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        if (shape.watermarkAssigner()) {
            processWatermark(Watermark.MAX_WATERMARK);
        }
        super.finish();
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
