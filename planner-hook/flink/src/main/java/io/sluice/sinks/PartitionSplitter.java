package io.sluice.sinks;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Prepares the native batches of a filesystem sink in Go before Flink's file writer: checks
 * the table's NOT NULL columns as Flink's ConstraintEnforcer does ('table.exec.sink.not-null-enforcer':
 * ERROR fails, DROP drops the rows) and splits a partitioned table's rows by partition. Each
 * emitted batch holds one partition's rows without the partition columns and carries the
 * partition's path, which is its bucket (as Flink's sink names it; "" without partitions).
 */
final class PartitionSplitter extends RichFlatMapFunction<NativeBatch, NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final byte[] sinkJson;
    private transient long handle;

    /** @param sinkJson the island JSON of the sink node (row type, partition keys, options) */
    PartitionSplitter(byte[] sinkJson) {
        this.sinkJson = sinkJson;
    }

    @Override
    public void open(OpenContext openContext) {
        NativeLib.ensureLoaded();
        handle = NativeLib.parquetPartitionerOpen(sinkJson);
    }

    @Override
    public void flatMap(NativeBatch batch, Collector<NativeBatch> out) {
        ByteBuffer parts;
        try {
            parts = ByteBuffer.wrap(NativeLib.parquetPartition(handle, batch.handle()));
        } finally {
            if (batch.owned()) {
                batch.release();
            }
        }
        // The part batches stay this operator's: emitted unowned (a chained writer reads them
        // during collect, a network edge copies them there) and released here, also when
        // emitting fails.
        try {
            while (parts.hasRemaining()) {
                long part = parts.getLong();
                int rows = parts.getInt();
                byte[] path = new byte[parts.getInt()];
                parts.get(path);
                try {
                    out.collect(new NativeBatch(part, rows, false, new String(path, StandardCharsets.UTF_8)));
                } finally {
                    NativeLib.close(part);
                }
            }
        } finally {
            while (parts.hasRemaining()) {
                long part = parts.getLong();
                parts.getInt();
                parts.position(parts.position() + parts.getInt());
                NativeLib.close(part);
            }
        }
    }

    @Override
    public void close() {
        if (handle != 0) {
            NativeLib.close(handle);
            handle = 0;
        }
    }
}
