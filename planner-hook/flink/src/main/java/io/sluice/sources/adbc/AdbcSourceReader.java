package io.sluice.sources.adbc;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the splits assigned to one subtask with Go, one split at a time: native batches for the
 * chain above, or Flink's rows (BinaryRowData encoded in Go) when the job runs on Flink. A
 * checkpoint records the rows of the current split emitted so far.
 */
public final class AdbcSourceReader<T> implements SourceReader<T, AdbcSplit> {
    /** Splits restored at a position inside them in this JVM (tests use it to prove restores). */
    public static final AtomicLong SPLITS_RESTORED_MID_WAY = new AtomicLong();

    private final SourceReaderContext context;
    private final byte[] scanJson;
    /** Rows: the arity of the rows emitted; -1: native batches. */
    private final int arity;
    private final Queue<AdbcSplit> splits = new ArrayDeque<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreSplits;
    private boolean requested;
    private AdbcSplit current;
    private long reader; // 0 when no split is open
    private long emitted;

    AdbcSourceReader(SourceReaderContext context, byte[] scanJson, int arity) {
        this.context = context;
        this.scanJson = scanJson;
        this.arity = arity;
        NativeLib.ensureLoaded();
    }

    @Override
    public void start() {
        if (splits.isEmpty()) {
            request();
        }
    }

    private void request() {
        if (!requested && !noMoreSplits) {
            requested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public InputStatus pollNext(ReaderOutput<T> output) {
        while (true) {
            if (reader == 0) {
                current = splits.poll();
                if (current == null) {
                    if (noMoreSplits) {
                        return InputStatus.END_OF_INPUT;
                    }
                    request();
                    if (available.isDone()) {
                        available = new CompletableFuture<>();
                    }
                    return InputStatus.NOTHING_AVAILABLE;
                }
                emitted = current.emitted();
                if (emitted > 0) {
                    SPLITS_RESTORED_MID_WAY.incrementAndGet();
                }
                reader = NativeLib.adbcSplitOpen(scanJson, current.index(), emitted);
            }
            if (arity < 0) {
                long batch = NativeLib.splitNext(reader);
                if (batch != 0) {
                    NativeBatch b = new NativeBatch(batch, NativeLib.batchRows(batch), false);
                    emitted += b.rows();
                    try {
                        output.collect((T) b);
                    } finally {
                        b.release();
                    }
                    return InputStatus.MORE_AVAILABLE;
                }
            } else {
                byte[] rows = NativeLib.adbcSplitRows(reader);
                if (rows != null) {
                    emitRows(rows, (ReaderOutput<RowData>) output);
                    return InputStatus.MORE_AVAILABLE;
                }
            }
            finishSplit();
        }
    }

    /** Emits the rows of one encoded batch (see {@link NativeLib#adbcSplitRows}). */
    private void emitRows(byte[] rows, ReaderOutput<RowData> output) {
        ByteBuffer head = ByteBuffer.wrap(rows).order(ByteOrder.LITTLE_ENDIAN);
        int n = head.getInt(0);
        int base = 4 * (n + 2);
        MemorySegment segment = MemorySegmentFactory.wrap(rows);
        for (int i = 0; i < n; i++) {
            int start = head.getInt(4 * (i + 1));
            int end = head.getInt(4 * (i + 2));
            BinaryRowData row = new BinaryRowData(arity);
            row.pointTo(segment, base + start, end - start);
            output.collect(row);
            emitted++;
        }
    }

    private void finishSplit() {
        NativeLib.close(reader);
        reader = 0;
        current = null;
        if (splits.isEmpty()) {
            request();
        }
    }

    @Override
    public List<AdbcSplit> snapshotState(long checkpointId) {
        List<AdbcSplit> out = new ArrayList<>(splits.size() + 1);
        if (current != null) {
            out.add(new AdbcSplit(current.index(), emitted));
        }
        out.addAll(splits);
        return out;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<AdbcSplit> added) {
        splits.addAll(added);
        requested = false;
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() {
        if (reader != 0) {
            NativeLib.close(reader);
            reader = 0;
        }
    }
}
