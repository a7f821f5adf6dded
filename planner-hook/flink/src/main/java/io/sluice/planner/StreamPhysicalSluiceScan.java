package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;
import java.util.Map;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A table source that Go reads natively (a filesystem table in Parquet): it emits Arrow batches
 * to the native chain above it. Explain shows it as {@code SluiceScan} with the scan it replaces.
 */
public class StreamPhysicalSluiceScan extends AbstractRelNode implements StreamPhysicalRel {
    private final RelDataType rowType;
    private final byte[] scanJson;
    private final Map<String, String> tableOptions;
    private final List<String> partitionKeys;
    private final List<Map<String, String>> pushedPartitions;
    private final String description;

    /**
     * @param rowType the scan's produced row type (after projection pushdown)
     * @param scanJson the island JSON of the scan node, for the native reader
     * @param tableOptions the table's connector options
     * @param partitionKeys the table's partition keys
     * @param pushedPartitions the partitions partition pushdown kept, or null
     * @param description the replaced scan, for explain
     */
    public StreamPhysicalSluiceScan(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelDataType rowType,
            byte[] scanJson,
            Map<String, String> tableOptions,
            List<String> partitionKeys,
            List<Map<String, String>> pushedPartitions,
            String description) {
        super(cluster, traitSet);
        this.rowType = rowType;
        this.scanJson = scanJson;
        this.tableOptions = tableOptions;
        this.partitionKeys = partitionKeys;
        this.pushedPartitions = pushedPartitions;
        this.description = description;
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceScan(
                getCluster(), traitSet, rowType, scanJson, tableOptions, partitionKeys, pushedPartitions, description);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("scan", description);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluiceScan(
                unwrapTableConfig(this),
                scanJson,
                tableOptions,
                partitionKeys,
                pushedPartitions,
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                description);
    }
}
