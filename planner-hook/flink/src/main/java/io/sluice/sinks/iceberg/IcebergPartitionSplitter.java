package io.sluice.sinks.iceberg;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.PartFrames;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import org.apache.iceberg.PartitionSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The HASH distribution mode of a partitioned Iceberg table, natively: Go splits each native
 * batch by partition, and each part carries its partition's path as Iceberg's
 * {@code PartitionSpec#partitionToPath} names it, which is the key Flink's Iceberg sink shuffles
 * rows by (its {@code PartitionKeySelector}). Keyed by that path, the parts reach the writer
 * subtask the connector's rows of that partition reach.
 */
final class IcebergPartitionSplitter extends RichFlatMapFunction<NativeBatch, NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final PartitionSpec spec;
    private final byte[] sinkJson;
    private transient long handle;
    /** The paths of the partitions seen, by Go's partition number in its generation. */
    private transient Map<Integer, String> paths;
    private transient int generation;

    /**
     * @param spec the table's partition spec when the job was planned, which Go's split follows
     * @param sinkJson the island JSON of the sink node (row type, partition spec)
     */
    IcebergPartitionSplitter(PartitionSpec spec, byte[] sinkJson) {
        this.spec = spec;
        this.sinkJson = sinkJson;
    }

    @Override
    public void open(OpenContext openContext) {
        NativeLib.ensureLoaded();
        paths = new HashMap<>();
        handle = NativeLib.icebergSplitterOpen(sinkJson);
    }

    @Override
    public void flatMap(NativeBatch batch, Collector<NativeBatch> out) {
        PartFrames.split(batch, b -> NativeLib.icebergSplit(handle, b), (part, rows, tag) -> {
            int partition = tag.getInt();
            int gen = tag.getInt();
            if (gen != generation) {
                paths.clear(); // Go numbers its partitions anew
                generation = gen;
            }
            out.collect(new NativeBatch(part, rows, false, path(partition)));
        });
    }

    private String path(int partition) {
        return paths.computeIfAbsent(partition, p -> {
            try {
                return spec.partitionToPath(PartitionValues.of(spec, NativeLib.icebergSplitterPartition(handle, p)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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
