package io.sluice.planner;

import io.sluice.sources.NativeSource;

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

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A table source that Go reads natively (a filesystem table in Parquet, an Iceberg table): it
 * emits Arrow batches to the native chain above it. Explain shows it as {@code SluiceScan} with
 * the scan it replaces.
 */
public class StreamPhysicalSluiceScan extends AbstractRelNode implements StreamPhysicalRel {
    private final RelDataType rowType;
    private final NativeSource source;
    private final String description;

    /**
     * @param rowType the scan's produced row type (after projection pushdown)
     * @param source the native source that replaces the scan
     * @param description the replaced scan, for explain
     */
    public StreamPhysicalSluiceScan(
            RelOptCluster cluster, RelTraitSet traitSet, RelDataType rowType, NativeSource source, String description) {
        super(cluster, traitSet);
        this.rowType = rowType;
        this.source = source;
        this.description = description;
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceScan(getCluster(), traitSet, rowType, source, description);
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
                unwrapTableConfig(this), source, (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()), description);
    }
}
