package io.sluice.sinks.kafka;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The records Go encoded of a batch's rows ({@code NativeLib#kafkaEncode},
 * {@code NativeLib#valueRecords}), little-endian: the record count, the flags of the sections
 * after the values (1: keys, 2: timestamps), the count + 1 value ends (from 0; the top bit set
 * for a record without a value) and the values' bytes; then, with keys, the count + 1 key ends
 * and the keys' bytes; then, with timestamps, a long per record (Long.MIN_VALUE: none).
 */
public final class RecordValues {
    /** The top bit of an end: its record has no value (Kafka's null value). */
    private static final int NULL_VALUE = 1 << 31;
    private static final int KEYS = 1;
    private static final int TIMESTAMPS = 2;

    private RecordValues() {}

    /** The number of records. */
    public static int count(byte[] encoded) {
        return head(encoded).getInt(0);
    }

    /** Record r's value, or null for a record without one. */
    public static byte[] value(byte[] encoded, int r) {
        return slice(encoded, 8, r);
    }

    /** Whether the records have keys. */
    public static boolean hasKeys(byte[] encoded) {
        return (head(encoded).getInt(4) & KEYS) != 0;
    }

    /** Record r's key, or null for a record without one. */
    public static byte[] key(byte[] encoded, int r) {
        return slice(encoded, end(encoded, 8), r);
    }

    /** Whether the records have timestamps of their own. */
    public static boolean hasTimestamps(byte[] encoded) {
        return (head(encoded).getInt(4) & TIMESTAMPS) != 0;
    }

    /** Record r's timestamp, or null for none (the producer's). */
    public static Long timestamp(byte[] encoded, int r) {
        int at = end(encoded, 8);
        if (hasKeys(encoded)) {
            at = end(encoded, at);
        }
        long ts = head(encoded).getLong(at + 8 * r);
        return ts == Long.MIN_VALUE ? null : ts;
    }

    private static ByteBuffer head(byte[] encoded) {
        return ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Where the section of ends at {@code at} and the bytes after them ends. */
    private static int end(byte[] encoded, int at) {
        ByteBuffer head = head(encoded);
        int n = head.getInt(0);
        return at + 4 * (n + 1) + (head.getInt(at + 4 * n) & ~NULL_VALUE);
    }

    /** Entry r of the section of ends at {@code at} and the bytes after them. */
    private static byte[] slice(byte[] encoded, int at, int r) {
        ByteBuffer head = head(encoded);
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
