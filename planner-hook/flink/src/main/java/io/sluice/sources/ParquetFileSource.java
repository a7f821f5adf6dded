package io.sluice.sources;

import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;

import java.util.List;
import java.util.Map;

/**
 * A filesystem table in Parquet read natively: Flink's own FileSource (split enumeration,
 * assignment, directory monitoring, split positions in checkpoints) with {@link
 * NativeParquetFormat}, whose reader is Go.
 */
public final class ParquetFileSource implements NativeSource {
    private final String table;
    private final byte[] scanJson;
    private final Map<String, String> tableOptions;
    private final List<String> partitionKeys;
    private final List<Map<String, String>> pushedPartitions;

    /**
     * @param table the table's name
     * @param scanJson the island JSON of the scan node, for the native reader
     * @param tableOptions the table's connector options
     * @param partitionKeys the table's partition keys
     * @param pushedPartitions the partitions partition pushdown kept, or null
     */
    public ParquetFileSource(
            String table,
            byte[] scanJson,
            Map<String, String> tableOptions,
            List<String> partitionKeys,
            List<Map<String, String>> pushedPartitions) {
        this.table = table;
        this.scanJson = scanJson;
        this.tableOptions = tableOptions;
        this.partitionKeys = partitionKeys;
        this.pushedPartitions = pushedPartitions;
    }

    @Override
    public String table() {
        return table;
    }

    @Override
    public Transformation<NativeBatch> transformation(StreamExecutionEnvironment env) {
        List<Path> paths = FileSystemPaths.paths(
                tableOptions.get("path"), partitionKeys,
                tableOptions.getOrDefault("partition.default-name", "__DEFAULT_PARTITION__"), pushedPartitions);
        if (paths.isEmpty()) {
            // A partitioned table without partitions reads nothing (Flink: an empty bounded source).
            return env.fromData(NativeBatchTypeInfo.INSTANCE, new NativeBatch[0]).getTransformation();
        }
        FileSource.FileSourceBuilder<NativeBatch> builder =
                FileSource.forBulkFileFormat(new NativeParquetFormat(scanJson), paths.toArray(new Path[0]));
        String interval = tableOptions.get("source.monitor-interval");
        if (interval != null) {
            builder.monitorContinuously(TimeUtils.parseDuration(interval));
        }
        return env.fromSource(builder.build(), WatermarkStrategy.noWatermarks(), "sluice-scan", NativeBatchTypeInfo.INSTANCE)
                .getTransformation();
    }
}
