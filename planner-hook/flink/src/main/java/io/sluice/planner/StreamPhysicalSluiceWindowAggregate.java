package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A window aggregation that runs natively: Flink's {@code StreamPhysicalWindowAggregate} for the
 * planner, translated to {@link StreamExecSluice}. Explain shows it as
 * {@code SluiceWindowAggregate}.
 */
public class StreamPhysicalSluiceWindowAggregate extends StreamPhysicalWindowAggregate {
    private final byte[] islandJson;

    public StreamPhysicalSluiceWindowAggregate(StreamPhysicalWindowAggregate agg, RelTraitSet traitSet, RelNode input, byte[] islandJson) {
        super(agg.getCluster(), traitSet, input, agg.grouping(), agg.aggCalls(), agg.windowing(), agg.namedWindowProperties());
        this.islandJson = islandJson;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceWindowAggregate(this, traitSet, inputs.get(0), islandJson);
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluice(
                unwrapTableConfig(this),
                StreamExecSluice.Kind.WINDOW_AGGREGATE,
                islandJson,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                grouping(),
                getRelDetailedDescription());
    }
}
