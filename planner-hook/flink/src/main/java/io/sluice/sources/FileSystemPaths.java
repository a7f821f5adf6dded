package io.sluice.sources;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.utils.PartitionPathUtils;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The directories a filesystem table source reads, as Flink's FileSystemTableSource#paths
 * computes them: the table's path, or for a partitioned table one directory per partition (the
 * partitions left by partition pushdown, or all partitions listed when the job is planned).
 */
public final class FileSystemPaths {
    private FileSystemPaths() {}

    /**
     * @param root the table's 'path'
     * @param partitionKeys the table's partition keys (empty: not partitioned)
     * @param defaultPartitionName 'partition.default-name'
     * @param pushedPartitions the partitions partition pushdown kept, or null
     */
    public static List<Path> paths(
            String root, List<String> partitionKeys, String defaultPartitionName, List<Map<String, String>> pushedPartitions) {
        Path path = new Path(root);
        if (partitionKeys.isEmpty()) {
            return List.of(path);
        }
        List<Map<String, String>> partitions = pushedPartitions;
        if (partitions == null) {
            partitions = new ArrayList<>();
            try {
                for (var found : PartitionPathUtils.searchPartSpecAndPaths(path.getFileSystem(), path, partitionKeys.size())) {
                    LinkedHashMap<String, String> spec = new LinkedHashMap<>();
                    found.f0.forEach((k, v) -> spec.put(k, defaultPartitionName.equals(v) ? null : v));
                    partitions.add(spec);
                }
            } catch (Exception e) {
                throw new TableException("Fetch partitions fail.", e);
            }
        }
        List<Path> paths = new ArrayList<>();
        for (Map<String, String> part : partitions) {
            LinkedHashMap<String, String> full = new LinkedHashMap<>();
            for (String k : partitionKeys) {
                if (!part.containsKey(k)) {
                    throw new TableException("Partition keys are: " + partitionKeys + ", incomplete partition spec: " + part);
                }
                full.put(k, part.get(k));
            }
            paths.add(new Path(path, PartitionPathUtils.generatePartitionPath(full)));
        }
        return paths;
    }
}
