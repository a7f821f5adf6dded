package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

import java.nio.ByteBuffer;

/**
 * The row edge out: direct buffers that Go fills with BinaryRowData bytes, and one row object
 * pointed at each output row in turn, as Flink's own operators reuse their output rows
 * (downstream operators copy or serialize what they keep).
 */
final class OutputRows {
    private ByteBuffer data;
    private ByteBuffer offsets;
    private final BinaryRowData row;
    private MemorySegment segment;
    private ByteBuffer segmentBuffer;
    private int rows;
    private int markers;

    OutputRows(int arity, int batchRows) {
        this.data = InputBatch.direct(64 * 1024);
        this.offsets = InputBatch.direct((2 * batchRows + 2) * 4);
        this.row = new BinaryRowData(arity);
    }

    ByteBuffer data() {
        return data;
    }

    ByteBuffer offsets() {
        return offsets;
    }

    /**
     * Takes the result of a native call that wrote rows: the row count (with the number of
     * watermarks in the high 32 bits), or -1 when a buffer was too small, in which case the
     * pending output is drained into larger ones. Returns the row count.
     */
    int accept(long handle, long result) {
        if (result < 0) {
            long shape = NativeLib.outputShape(handle);
            int needRows = (int) (shape >>> 32);
            int needBytes = (int) shape;
            if (data.capacity() < needBytes) {
                data = InputBatch.direct((int) Math.max(needBytes, Math.min(Integer.MAX_VALUE, data.capacity() * 2L)));
            }
            if (offsets.capacity() < (2 * needRows + 2) * 4) {
                offsets = InputBatch.direct((2 * needRows + 2) * 4);
            }
            result = NativeLib.drain(handle, data, offsets);
        }
        rows = (int) result;
        markers = (int) (result >>> 32);
        if (rows > 0) {
            wrap(data);
        }
        return rows;
    }

    /** The number of watermarks the last accepted call produced. */
    int markers() {
        return markers;
    }

    /** Points the reused row at output row i and returns it. */
    BinaryRowData row(int i) {
        int start = offsets.getInt(i * 4);
        int end = offsets.getInt((i + 1) * 4);
        row.pointTo(segment, start, end - start);
        return row;
    }

    /** Makes rows point into {@code buffer} (an input batch that passes through unchanged). */
    void wrap(ByteBuffer buffer) {
        if (segment == null || segmentBuffer != buffer) {
            segment = MemorySegmentFactory.wrapOffHeapMemory(buffer);
            segmentBuffer = buffer;
        }
    }

    /** Points the reused row at bytes [start, end) of the wrapped buffer and returns it. */
    BinaryRowData rowAt(int start, int end) {
        row.pointTo(segment, start, end - start);
        return row;
    }

    /** The input row that output row i came from (for operators that keep a selection). */
    int source(int i) {
        return offsets.getInt((rows + 1 + i) * 4);
    }
}
