package io.sluice.testing;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.util.Collector;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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

    /**
     * Checks every record decoded natively against Flink's own deserializer: Flink must take it,
     * and its rows (BinaryRowData, RowKinds included) must be the native rows byte for byte, in
     * order, none left over. Returns the number of records decoded natively.
     */
    public int assertFlinks(List<byte[]> records, DeserializationSchema<RowData> flink, RowDataSerializer serializer) {
        int natively = 0;
        int row = 0;
        for (int r = 0; r < status.length; r++) {
            if (status[r] < 0) {
                continue;
            }
            natively++;
            String text = new String(records.get(r), StandardCharsets.UTF_8);
            List<RowData> flinkRows = new ArrayList<>();
            try {
                flink.deserialize(records.get(r), new Collector<>() {
                    @Override
                    public void collect(RowData record) {
                        flinkRows.add(record);
                    }

                    @Override
                    public void close() {}
                });
            } catch (Exception e) {
                fail("decoded natively, but Flink fails on " + text + ": " + e);
            }
            int r0 = r;
            assertEquals(status[r0], flinkRows.size(), () -> "rows of " + text);
            for (RowData flinkRow : flinkRows) {
                assertTrue(flinkRow != null, () -> "Flink emitted a null row for " + text);
                BinaryRowData binary = serializer.toBinaryRow(flinkRow);
                byte[] want = new byte[binary.getSizeInBytes()];
                binary.getSegments()[0].get(binary.getOffset(), want, 0, want.length);
                assertArrayEquals(want, row(row), () -> "the row of " + text + ": Flink " + flinkRow);
                row++;
            }
        }
        assertEquals(rows(), row, "rows left over");
        return natively;
    }

    /** The bytes of natively decoded row k. */
    public byte[] row(int k) {
        return Arrays.copyOfRange(data, base + offsets[k], base + offsets[k + 1]);
    }
}
