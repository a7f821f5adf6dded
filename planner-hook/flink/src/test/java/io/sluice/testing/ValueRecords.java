package io.sluice.testing;

import io.sluice.jni.NativeLib;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The native encoding of rows into a Kafka table's records ({@link NativeLib#valueRecords}), for
 * the format differential tests: the rows are handed over as BinaryRowData (their RowKinds in
 * their headers), the result read with {@code io.sluice.sinks.kafka.RecordValues}.
 */
public final class ValueRecords {
    private ValueRecords() {}

    /** Encodes rows of a row type under a table's options ("k=v" lines). */
    public static byte[] encode(String rowType, String options, List<? extends RowData> rows, RowDataSerializer serializer) {
        return encode(rowType.getBytes(StandardCharsets.UTF_8), options.getBytes(StandardCharsets.UTF_8), rows, serializer);
    }

    /** Encodes rows of a row type under a table's options, both as UTF-8 bytes. */
    public static byte[] encode(byte[] rowType, byte[] options, List<? extends RowData> rows, RowDataSerializer serializer) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteBuffer offsets = ByteBuffer.allocate(4 * (rows.size() + 1)).order(ByteOrder.LITTLE_ENDIAN);
        for (RowData row : rows) {
            offsets.putInt(data.size());
            BinaryRowData b = serializer.toBinaryRow(row);
            byte[] bytes = new byte[b.getSizeInBytes()];
            b.getSegments()[0].get(b.getOffset(), bytes, 0, bytes.length);
            data.writeBytes(bytes);
        }
        offsets.putInt(data.size());
        return NativeLib.valueRecords(rowType, options, data.toByteArray(), offsets.array());
    }
}
