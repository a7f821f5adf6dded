package io.sluice.sinks.kafka;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The record values Go encoded of a batch's rows ({@code NativeLib#kafkaEncode},
 * {@code NativeLib#valueRecords}), little-endian: the record count, the count + 1 record ends
 * (from 0; the top bit set for a record without a value) and the records' bytes.
 */
public final class RecordValues {
    /** The top bit of an end: its record has no value (Kafka's null value). */
    private static final int NULL_VALUE = 1 << 31;

    private RecordValues() {}

    /** The number of records. */
    public static int count(byte[] encoded) {
        return ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    /** Record r's value, or null for a record without one. */
    public static byte[] value(byte[] encoded, int r) {
        ByteBuffer head = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
        int body = 4 * (head.getInt(0) + 2);
        int to = head.getInt(4 * (r + 2));
        if ((to & NULL_VALUE) != 0) {
            return null;
        }
        int from = head.getInt(4 * (r + 1)) & ~NULL_VALUE;
        return Arrays.copyOfRange(encoded, body + from, body + to);
    }
}
