package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalGlobalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * The global phase of a two-phase window aggregation, run natively and keyed like Flink's.
 * Explain shows it as {@code SluiceGlobalWindowAggregate}.
 */
public class StreamPhysicalSluiceGlobalWindowAggregate extends StreamPhysicalGlobalWindowAggregate {
    private final byte[] islandJson;

    public StreamPhysicalSluiceGlobalWindowAggregate(
            StreamPhysicalGlobalWindowAggregate agg, RelTraitSet traitSet, RelNode input, byte[] islandJson) {
        super(agg.getCluster(), traitSet, input, agg.inputRowTypeOfLocalAgg(), agg.grouping(), agg.aggCalls(),
                agg.windowing(), agg.namedWindowProperties());
        this.islandJson = islandJson;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceGlobalWindowAggregate(this, traitSet, inputs.get(0), islandJson);
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        int[] keys = new int[grouping().length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i; // the partial aggregates lead with the grouping keys
        }
        return new StreamExecSluice(
                unwrapTableConfig(this),
                StreamExecSluice.Kind.GLOBAL_WINDOW_AGGREGATE,
                islandJson,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                keys,
                getRelDetailedDescription());
    }
}
