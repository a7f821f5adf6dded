package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * The local phase of a two-phase window aggregation, run natively. Explain shows it as
 * {@code SluiceLocalWindowAggregate}.
 */
public class StreamPhysicalSluiceLocalWindowAggregate extends StreamPhysicalLocalWindowAggregate {
    private final byte[] islandJson;

    public StreamPhysicalSluiceLocalWindowAggregate(
            StreamPhysicalLocalWindowAggregate agg, RelTraitSet traitSet, RelNode input, byte[] islandJson) {
        super(agg.getCluster(), traitSet, input, agg.grouping(), agg.aggCalls(), agg.windowing());
        this.islandJson = islandJson;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceLocalWindowAggregate(this, traitSet, inputs.get(0), islandJson);
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluice(
                unwrapTableConfig(this),
                StreamExecSluice.Kind.LOCAL_WINDOW_AGGREGATE,
                islandJson,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                null,
                getRelDetailedDescription());
    }
}
