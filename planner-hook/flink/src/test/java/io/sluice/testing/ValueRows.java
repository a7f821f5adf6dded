package io.sluice.testing;

import io.sluice.jni.NativeLib;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * What the native decoding of a Kafka table's records gives ({@link NativeLib#valueRows}), for
 * the format differential tests: per record its status (the rows it added, -1 for a record left
 * to Flink's deserializer) and the rows as BinaryRowData bytes, RowKinds in their headers.
 */
public record ValueRows(int[] status, int[] offsets, byte[] data, int base) {

    /** Decodes records of a row type under a table's options ("k=v" lines). */
    public static ValueRows decode(String rowType, String options, List<byte[]> records) {
        return decode(rowType.getBytes(StandardCharsets.UTF_8), options.getBytes(StandardCharsets.UTF_8), records);
    }

    /** Decodes records of a row type under a table's options, both as UTF-8 bytes. */
    public static ValueRows decode(byte[] rowType, byte[] options, List<byte[]> records) {
        ByteArrayOutputStream values = new ByteArrayOutputStream();
        ByteBuffer starts = ByteBuffer.allocate(4 * (records.size() + 1)).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] rec : records) {
            starts.putInt(values.size());
            values.writeBytes(rec);
        }
        starts.putInt(values.size());
        ByteBuffer out = ByteBuffer.wrap(NativeLib.valueRows(rowType, options, values.toByteArray(), starts.array()))
                .order(ByteOrder.LITTLE_ENDIAN);
        int[] status = new int[out.getInt()];
        if (status.length != records.size()) {
            throw new IllegalStateException(status.length + " statuses for " + records.size() + " records");
        }
        for (int r = 0; r < status.length; r++) {
            status[r] = out.getInt();
        }
        int[] offsets = new int[out.getInt() + 1];
        for (int k = 0; k < offsets.length; k++) {
            offsets[k] = out.getInt();
        }
        return new ValueRows(status, offsets, out.array(), out.position());
    }

    /** The number of rows decoded natively. */
    public int rows() {
        return offsets.length - 1;
    }

    /** The bytes of natively decoded row k. */
    public byte[] row(int k) {
        return Arrays.copyOfRange(data, base + offsets[k], base + offsets[k + 1]);
    }
}
