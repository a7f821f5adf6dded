package io.sluice.runtime;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The row edge in: buffers records as BinaryRowData bytes in direct memory (row i spans
 * {@code data[offsets[i] .. offsets[i+1])}) with their record timestamps, until a native
 * operator (or a native sink's writer) hands the batch to Go in one JNI call.
 */
public final class InputBatch {
    private final RowDataSerializer serializer;
    /** Writes rows of all-fixed-width types straight into the buffer, or null. */
    private final FixedRowWriter fixedWriter;
    private final int capacity;
    private ByteBuffer data;
    private final ByteBuffer offsets;
    private final long[] timestamps;
    private final boolean[] hasTimestamp;
    private int rows;

    /** A batch of up to {@code capacity} rows of {@code type}. */
    public InputBatch(RowType type, int capacity) {
        this.serializer = new RowDataSerializer(type);
        this.fixedWriter = FixedRowWriter.of(type);
        this.capacity = capacity;
        this.data = direct(64 * 1024);
        this.offsets = direct((capacity + 1) * 4);
        this.timestamps = new long[capacity];
        this.hasTimestamp = new boolean[capacity];
    }

    static ByteBuffer direct(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /** Appends a record; returns true when the batch is full. */
    boolean add(StreamRecord<RowData> element) {
        int pos = append(element.getValue());
        timestamps[rows] = element.getTimestamp();
        hasTimestamp[rows] = element.hasTimestamp();
        return added(pos);
    }

    /** Appends a row without a record timestamp; returns true when the batch is full. */
    public boolean add(RowData value) {
        int pos = append(value);
        hasTimestamp[rows] = false;
        return added(pos);
    }

    /** Writes a row's bytes at the end of the buffer and returns where they start. */
    private int append(RowData value) {
        if (fixedWriter != null && !(value instanceof BinaryRowData)) {
            int pos = data.position();
            int size = fixedWriter.size();
            if (data.remaining() < size) {
                grow(pos + size);
            }
            fixedWriter.write(value, data, pos);
            data.position(pos + size);
            return pos;
        }
        BinaryRowData row = serializer.toBinaryRow(value);
        int size = row.getSizeInBytes();
        int pos = data.position();
        if (data.remaining() < size) {
            grow(pos + size);
        }
        MemorySegment[] segs = row.getSegments();
        if (segs.length == 1) {
            segs[0].get(row.getOffset(), data, size);
        } else {
            data.put(BinarySegmentUtils.copyToBytes(segs, row.getOffset(), size));
        }
        return pos;
    }

    private boolean added(int pos) {
        offsets.putInt(rows * 4, pos);
        rows++;
        return rows >= capacity;
    }

    private void grow(int needed) {
        ByteBuffer bigger = direct(Math.max(data.capacity() * 2, needed));
        data.flip();
        bigger.put(data);
        data = bigger;
    }

    /** The number of buffered rows. */
    public int rows() {
        return rows;
    }

    /** Closes the batch for reading: writes the end offset of the last row. */
    public void seal() {
        offsets.putInt(rows * 4, data.position());
    }

    /** The rows' bytes. */
    public ByteBuffer data() {
        return data;
    }

    /** The rows' start offsets, and after {@link #seal()} the end of the last. */
    public ByteBuffer offsets() {
        return offsets;
    }

    /** Row i's bytes start at this offset of {@link #data()}. */
    int start(int i) {
        return offsets.getInt(i * 4);
    }

    int end(int i) {
        return offsets.getInt((i + 1) * 4);
    }

    boolean hasTimestamp(int i) {
        return hasTimestamp[i];
    }

    long timestamp(int i) {
        return timestamps[i];
    }

    /** Empties the batch. */
    public void clear() {
        rows = 0;
        data.clear();
    }
}
