package io.sluice.sinks.kafka;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The records Go encoded of a batch's rows ({@code NativeLib#kafkaEncode},
 * {@code NativeLib#valueRecords}), little-endian: the record count, the count + 1 value ends
 * (from 0; the top bit set for a record without a value) and the values' bytes; then, with a
 * key format, the count + 1 key ends and the keys' bytes.
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
        return slice(encoded, 4, r);
    }

    /** Whether the records have keys. */
    public static boolean hasKeys(byte[] encoded) {
        return encoded.length > keysAt(encoded);
    }

    /** Record r's key, or null for a record without one. */
    public static byte[] key(byte[] encoded, int r) {
        return slice(encoded, keysAt(encoded), r);
    }

    /** Where the keys' section starts: past the values' ends and bytes. */
    private static int keysAt(byte[] encoded) {
        ByteBuffer head = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
        int n = head.getInt(0);
        return 4 * (n + 2) + (head.getInt(4 * (n + 1)) & ~NULL_VALUE);
    }

    /** Entry r of the section of ends at {@code at} and the bytes after them. */
    private static byte[] slice(byte[] encoded, int at, int r) {
        ByteBuffer head = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
        int n = head.getInt(0);
        int body = at + 4 * (n + 1);
        int to = head.getInt(at + 4 * (r + 1));
        if ((to & NULL_VALUE) != 0) {
            return null;
        }
        int from = head.getInt(at + 4 * r) & ~NULL_VALUE;
        return Arrays.copyOfRange(encoded, body + from, body + to);
    }
}
