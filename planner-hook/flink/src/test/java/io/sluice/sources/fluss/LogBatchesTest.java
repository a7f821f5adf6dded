package io.sluice.sources.fluss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The split reader's walk over a fetch's log batch headers. */
class LogBatchesTest {
    /** A batch of magic 0 or 1 with the given header fields and body length. */
    static byte[] batch(int magic, long base, int lastOffsetDelta, int rows, int schemaId, int body) {
        int header = magic == 0 ? 48 : 52;
        ByteBuffer b = ByteBuffer.allocate(header + body).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, base).putInt(8, header + body - 12).put(12, (byte) magic);
        int fields = magic == 0 ? 25 : 29;
        b.putShort(fields, (short) schemaId).putInt(fields + 3, lastOffsetDelta).putInt(fields + 19, rows);
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer out = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            out.put(p);
        }
        return out.array();
    }

    @Test
    void nextOffsetIsAfterTheLastWholeBatch() throws IOException {
        byte[] first = batch(0, 10, 2, 3, 1, 40);
        byte[] second = batch(1, 13, 4, 0, 7, 0); // no rows: another schema does not matter
        byte[] partial = batch(0, 18, 0, 1, 1, 20);
        byte[] fetch = concat(first, second, java.util.Arrays.copyOf(partial, partial.length - 5));
        assertEquals(18, LogBatches.nextOffset(fetch, 11, 1, () -> "t"));
        assertEquals(11, LogBatches.nextOffset(java.util.Arrays.copyOf(first, 30), 11, 1, () -> "t"), "a partial batch only");
        assertEquals(-2, LogBatches.nextOffset(new byte[0], -2, 1, () -> "t"));
    }

    @Test
    void damagedHeadersAndOtherSchemasFail() {
        byte[] magic = batch(0, 10, 0, 1, 1, 8);
        magic[12] = 5;
        byte[] length = batch(0, 10, 0, 1, 1, 8);
        ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).putInt(8, -12);
        for (byte[] bad : new byte[][] {magic, length, batch(0, 10, 0, 1, 2, 8)}) {
            IOException e = assertThrows(IOException.class, () -> LogBatches.nextOffset(bad, 10, 1, () -> "table t, bucket 0"));
            assertTrue(e.getMessage().startsWith("table t, bucket 0: a log batch at offset 10"), e.getMessage());
        }
    }
}
