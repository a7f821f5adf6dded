package io.sluice.sinks;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

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
        PartFrames.split(batch, b -> NativeLib.parquetPartition(handle, b), (part, rows, tag) -> {
            byte[] path = new byte[tag.remaining()];
            tag.get(path);
            out.collect(new NativeBatch(part, rows, false, new String(path, StandardCharsets.UTF_8)));
        });
    }

    @Override
    public void close() {
        if (handle != 0) {
            NativeLib.close(handle);
            handle = 0;
        }
    }
}
