package io.sluice.sources.fluss;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * The headers of Fluss log batches as the split reader reads them (the rows are Go's): where a
 * fetch's whole batches end, in log offsets. Little-endian, as Fluss's LogRecordBatchFormat: the
 * base offset at 0, the length (of what follows it) at 8, the magic at 12; with magic 0 the
 * schema id at 25, the last offset's delta at 28 and the record count at 44; with magic 1 at 29,
 * 32 and 48.
 */
final class LogBatches {
    private LogBatches() {}

    /**
     * The log offset after the last whole batch of {@code records} (a fetch may end inside one),
     * or {@code from} when there is none. A batch with rows of another schema than {@code schemaId}
     * fails, as Fluss 0.8's reader fails on it; so does a damaged header. where names the fetch.
     */
    static long nextOffset(byte[] records, long from, int schemaId, Supplier<String> where) throws IOException {
        long next = from;
        int at = 0;
        while (at + 13 <= records.length) {
            long base = readLong(records, at);
            int magic = records[at + 12];
            if (magic != 0 && magic != 1) {
                throw new IOException(where.get() + ": a log batch at offset " + base + " of magic " + magic + " (0 and 1 are read)");
            }
            int header = magic == 0 ? 48 : 52;
            long size = 12L + readInt(records, at + 8);
            if (size < header) {
                throw new IOException(where.get() + ": a log batch at offset " + base + " of " + size + " bytes");
            }
            if (at + size > records.length) {
                break;
            }
            int schema = readShort(records, at + (magic == 0 ? 25 : 29));
            int rows = readInt(records, at + (magic == 0 ? 44 : 48));
            if (schema != schemaId && rows > 0) {
                throw new IOException(where.get() + ": a log batch at offset " + base + " written in schema " + schema
                        + ", the table's is " + schemaId + " (Fluss's reader fails on it too)");
            }
            next = base + readInt(records, at + (magic == 0 ? 28 : 32)) + 1;
            at += (int) size;
        }
        return next;
    }

    private static int readShort(byte[] b, int at) {
        return (short) ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8);
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static long readLong(byte[] b, int at) {
        return (readInt(b, at) & 0xffffffffL) | (long) readInt(b, at + 4) << 32;
    }
}
