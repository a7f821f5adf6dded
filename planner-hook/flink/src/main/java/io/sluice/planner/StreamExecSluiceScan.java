package io.sluice.planner;

import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;
import io.sluice.sources.FileSystemPaths;
import io.sluice.sources.NativeParquetFormat;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.TimeUtils;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The exec node of a native Parquet scan: Flink's own FileSource (split enumeration, assignment,
 * directory monitoring, split positions in checkpoints) with a format whose reader is Go. Its
 * records are {@link NativeBatch}es for the native chain it feeds.
 */
public class StreamExecSluiceScan extends ExecNodeBase<NativeBatch>
        implements StreamExecNode<NativeBatch>, SingleTransformationTranslator<NativeBatch> {

    /** The name under which native scans appear. */
    public static final String OPERATOR_NAME = "sluice-scan";

    private final byte[] scanJson;
    private final Map<String, String> tableOptions;
    private final List<String> partitionKeys;
    private final List<Map<String, String>> pushedPartitions;

    /**
     * @param partitionKeys the table's partition keys
     * @param pushedPartitions the partitions left by partition pushdown, or null
     */
    public StreamExecSluiceScan(
            ReadableConfig tableConfig,
            byte[] scanJson,
            Map<String, String> tableOptions,
            List<String> partitionKeys,
            List<Map<String, String>> pushedPartitions,
            RowType outputType,
            String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null,
                Collections.emptyList(),
                outputType,
                description);
        this.scanJson = scanJson;
        this.tableOptions = tableOptions;
        this.partitionKeys = partitionKeys;
        this.pushedPartitions = pushedPartitions;
    }

    @Override
    protected Transformation<NativeBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        StreamExecutionEnvironment env = planner.getExecEnv();
        List<Path> paths = FileSystemPaths.paths(
                tableOptions.get("path"), partitionKeys,
                tableOptions.getOrDefault("partition.default-name", "__DEFAULT_PARTITION__"), pushedPartitions);
        if (paths.isEmpty()) {
            // A partitioned table without partitions reads nothing (Flink: an empty bounded source).
            return createTransformationMeta(OPERATOR_NAME, config).fill(
                    env.fromData(NativeBatchTypeInfo.INSTANCE, new NativeBatch[0]).getTransformation());
        }
        FileSource.FileSourceBuilder<NativeBatch> builder =
                FileSource.forBulkFileFormat(new NativeParquetFormat(scanJson), paths.toArray(new Path[0]));
        String interval = tableOptions.get("source.monitor-interval");
        if (interval != null) {
            builder.monitorContinuously(TimeUtils.parseDuration(interval));
        }
        Transformation<NativeBatch> t = env.fromSource(
                        builder.build(), WatermarkStrategy.noWatermarks(), OPERATOR_NAME, NativeBatchTypeInfo.INSTANCE)
                .getTransformation();
        return createTransformationMeta(OPERATOR_NAME, config).fill(t);
    }
}
