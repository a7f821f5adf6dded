package io.sluice.sources.fluss;

/**
 * The headers of Fluss log batches as the split reader reads them (the rows are Go's): where a
 * fetch's whole batches end, in log offsets. Little-endian, as Fluss's LogRecordBatchFormat: the
 * base offset at 0, the length (of what follows it) at 8, the magic at 12, and the last offset's
 * delta at 28 (magic 0) or 32 (magic 1).
 */
final class LogBatches {
    private LogBatches() {}

    /**
     * The log offset after the last whole batch of {@code records} (a fetch may end inside one),
     * or {@code from} when there is none.
     */
    static long nextOffset(byte[] records, long from) {
        long next = from;
        int at = 0;
        while (at + 13 <= records.length) {
            long base = readLong(records, at);
            long size = 12L + readInt(records, at + 8);
            int magic = records[at + 12];
            if (at + size > records.length) {
                break;
            }
            int delta = readInt(records, at + (magic == 0 ? 28 : 32));
            next = base + delta + 1;
            at += (int) size;
        }
        return next;
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static long readLong(byte[] b, int at) {
        return (readInt(b, at) & 0xffffffffL) | (long) readInt(b, at + 4) << 32;
    }
}
