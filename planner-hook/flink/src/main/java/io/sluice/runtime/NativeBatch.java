package io.sluice.runtime;

import io.sluice.jni.NativeLib;

/**
 * A record that is a whole Arrow batch held in Go: what native sources emit and native chains
 * consume, so that columnar data crosses no Java rows. The batch is immutable; {@link #owned}
 * says whether the consumer releases it after processing (a batch deserialized from the network)
 * or its producer does (a native source releases its batch once it was emitted downstream).
 */
public final class NativeBatch {
    private long handle;
    private final int rows;
    private final boolean owned;
    private final int channel;
    private final int channels;
    private final String partition;
    private long watermark = Long.MIN_VALUE;

    /**
     * @param handle the Go handle of the batch
     * @param rows its row count
     * @param owned true when whoever processes the record must release the batch
     */
    public NativeBatch(long handle, int rows, boolean owned) {
        this(handle, rows, owned, -1, 0);
    }

    /**
     * A batch of a columnar hash exchange: all its rows belong to one target channel.
     *
     * @param channel the target channel of the rows
     * @param channels the number of channels the producer split its output for
     */
    public NativeBatch(long handle, int rows, boolean owned, int channel, int channels) {
        this(handle, rows, owned, channel, channels, null);
    }

    /**
     * A batch of a partitioned filesystem sink: all its rows belong to one partition.
     *
     * @param partition the partition's path relative to the table ("k=v/"), the bucket its rows
     *     are written to
     */
    public NativeBatch(long handle, int rows, boolean owned, String partition) {
        this(handle, rows, owned, -1, 0, partition);
    }

    private NativeBatch(long handle, int rows, boolean owned, int channel, int channels, String partition) {
        this.handle = handle;
        this.rows = rows;
        this.owned = owned;
        this.channel = channel;
        this.channels = channels;
        this.partition = partition;
    }

    /**
     * A source's batch (released by the source once emitted) with the watermark its rows give:
     * the maximum of the source's watermark expression over them.
     */
    public static NativeBatch ofSource(long handle, int rows, long watermark) {
        NativeBatch b = new NativeBatch(handle, rows, false);
        b.watermark = watermark;
        return b;
    }

    /**
     * The watermark a source's rows give (Long.MIN_VALUE when none does), for its watermark
     * generator.
     */
    public long watermark() {
        return watermark;
    }

    /** The partition of a partitioned sink's batch (null for other batches). */
    public String partition() {
        return partition;
    }

    /** The target channel of an exchange batch (-1 for other batches). */
    public int channel() {
        return channel;
    }

    /** The number of channels an exchange batch was split for (0 for other batches). */
    public int channels() {
        return channels;
    }

    /** The Go handle of the batch (0 once released). */
    public long handle() {
        return handle;
    }

    /** The number of rows in the batch. */
    public int rows() {
        return rows;
    }

    /** True when the consumer of this record releases the batch. */
    public boolean owned() {
        return owned;
    }

    /** Releases the Go batch; later calls do nothing. */
    public void release() {
        if (handle != 0) {
            NativeLib.close(handle);
            handle = 0;
        }
    }

    @Override
    public String toString() {
        return "NativeBatch(" + rows + " rows)";
    }
}
