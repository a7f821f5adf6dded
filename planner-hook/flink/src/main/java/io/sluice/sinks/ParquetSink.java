package io.sluice.sinks;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.table.EmptyMetaStoreFactory;
import org.apache.flink.connector.file.table.FileSystemConnectorOptions;
import org.apache.flink.connector.file.table.stream.PartitionCommitInfo;
import org.apache.flink.connector.file.table.stream.StreamingSink;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.legacy.StreamingFileSink;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.ProviderContext;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A filesystem table in Parquet written natively: Flink's own streaming file writer (buckets,
 * rolling on checkpoints and by size or time, part files committed when checkpoints complete),
 * fed with the native batches of the chain below, whose Parquet bytes Go writes.
 */
public final class ParquetSink implements NativeSink {
    private final Map<String, String> tableOptions;
    private final ObjectIdentifier table;
    private final List<String> partitionKeys;
    private final boolean notNullColumns;

    /**
     * The sink of the filesystem table {@code table} with its options and partition keys;
     * {@code notNullColumns}: the table has NOT NULL columns, whose rows are checked.
     */
    public ParquetSink(Map<String, String> tableOptions, ObjectIdentifier table, List<String> partitionKeys,
            boolean notNullColumns) {
        this.tableOptions = tableOptions;
        this.table = table;
        this.partitionKeys = partitionKeys;
        this.notNullColumns = notNullColumns;
    }

    @Override
    public String operatorName() {
        return "sluice-parquet-sink";
    }

    @Override
    public Transformation<?> transformation(DataStream<NativeBatch> input, byte[] sinkJson, String uidPrefix) {
        Configuration options = Configuration.fromMap(tableOptions);
        Path path = new Path(tableOptions.get("path"));
        NativeBatchRollingPolicy rolling = new NativeBatchRollingPolicy(
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_FILE_SIZE).getBytes(),
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_ROLLOVER_INTERVAL).toMillis(),
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_INACTIVITY_INTERVAL).toMillis());
        DataStream<NativeBatch> rows = input;
        if (!partitionKeys.isEmpty() || notNullColumns) {
            // Chained to the chain before it: Go checks the NOT NULL columns (Flink's
            // ConstraintEnforcer) and splits each batch by partition.
            rows = input.flatMap(new PartitionSplitter(sinkJson), input.getType())
                    .name("sluice-partitioner")
                    .uid(uidPrefix + "-partitioner")
                    .setParallelism(input.getParallelism());
        }
        StreamingFileSink.BulkFormatBuilder<NativeBatch, String, ?> buckets = StreamingFileSink
                .forBulkFormat(path, new NativeParquetWriterFactory(sinkJson))
                .withBucketAssigner(new PartitionAssigner())
                .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part-" + UUID.randomUUID()).build())
                .withRollingPolicy(rolling);
        ProviderContext uids = name -> Optional.of(uidPrefix + "-" + name);
        // Partition commits (triggers, delays, policies) are Flink's, on the buckets' partitions.
        DataStream<PartitionCommitInfo> writer = StreamingSink.writer(
                uids, rows,
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_CHECK_INTERVAL).toMillis(),
                buckets, input.getParallelism(), partitionKeys, options, false);
        return StreamingSink.sink(
                        uids, writer, path, table, partitionKeys, new EmptyMetaStoreFactory(path), FileSystem::get, options)
                .getTransformation();
    }

    /**
     * The bucket of a batch: its partition's path, or the table's directory (bucket "") for a
     * table without partitions.
     */
    static final class PartitionAssigner implements BucketAssigner<NativeBatch, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getBucketId(NativeBatch element, Context context) {
            return element.partition() == null ? "" : element.partition();
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }
}
