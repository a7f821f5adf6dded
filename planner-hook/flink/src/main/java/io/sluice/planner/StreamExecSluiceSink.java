package io.sluice.planner;

import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.NativeBatchRollingPolicy;
import io.sluice.sinks.NativeParquetWriterFactory;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
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
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The exec node of a native Parquet sink: Flink's own streaming file writer (buckets, rolling
 * on checkpoints and by size or time, part files committed when checkpoints complete), fed
 * with the native batches of the chain below, whose Parquet bytes Go writes.
 */
public class StreamExecSluiceSink extends ExecNodeBase<Object>
        implements StreamExecNode<Object>, SingleTransformationTranslator<Object> {

    /** The name under which native sinks appear. */
    public static final String OPERATOR_NAME = "sluice-parquet-sink";

    private final byte[] sinkJson;
    private final Map<String, String> tableOptions;
    private final ObjectIdentifier table;

    public StreamExecSluiceSink(
            ReadableConfig tableConfig,
            byte[] sinkJson,
            Map<String, String> tableOptions,
            ObjectIdentifier table,
            RowType inputType,
            String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null,
                Collections.singletonList(InputProperty.DEFAULT),
                inputType,
                description);
        this.sinkJson = sinkJson;
        this.tableOptions = tableOptions;
        this.table = table;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<Object> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<NativeBatch> input =
                (Transformation<NativeBatch>) getInputEdges().get(0).translateToPlan(planner);
        Configuration options = Configuration.fromMap(tableOptions);
        Path path = new Path(tableOptions.get("path"));
        NativeBatchRollingPolicy rolling = new NativeBatchRollingPolicy(
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_FILE_SIZE).getBytes(),
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_ROLLOVER_INTERVAL).toMillis(),
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_INACTIVITY_INTERVAL).toMillis());
        StreamingFileSink.BulkFormatBuilder<NativeBatch, String, ?> buckets = StreamingFileSink
                .forBulkFormat(path, new NativeParquetWriterFactory(sinkJson))
                .withBucketAssigner(new TableRootAssigner())
                .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part-" + UUID.randomUUID()).build())
                .withRollingPolicy(rolling);
        ProviderContext uids = name -> Optional.of(OPERATOR_NAME + "-" + getId() + "-" + name);
        DataStream<NativeBatch> stream = new DataStream<>(planner.getExecEnv(), input);
        DataStream<PartitionCommitInfo> writer = StreamingSink.writer(
                uids, stream,
                options.get(FileSystemConnectorOptions.SINK_ROLLING_POLICY_CHECK_INTERVAL).toMillis(),
                buckets, input.getParallelism(), List.of(), options, false);
        return (Transformation<Object>) (Transformation<?>) StreamingSink.sink(
                        uids, writer, path, table, List.of(), new EmptyMetaStoreFactory(path), FileSystem::get, options)
                .getTransformation();
    }

    /** Every row of a table without partitions goes to the table's directory (bucket ""). */
    static final class TableRootAssigner implements BucketAssigner<NativeBatch, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getBucketId(NativeBatch element, Context context) {
            return "";
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }
}
