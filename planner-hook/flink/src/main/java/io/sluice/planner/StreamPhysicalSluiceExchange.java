package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

import java.util.Arrays;
import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A hash (or single-subtask) exchange between two native chains that carries Arrow batches: the
 * chain below splits its output by Flink's key groups into one batch per target subtask. Explain shows it as
 * {@code SluiceExchange}.
 */
public class StreamPhysicalSluiceExchange extends SingleRel implements StreamPhysicalRel {
    private final int[] keys;

    /**
     * @param keys the input fields the rows are hashed by (as the replaced exchange's
     *     distribution); none for an exchange into a single subtask
     */
    public StreamPhysicalSluiceExchange(RelOptCluster cluster, RelTraitSet traitSet, RelNode input, int[] keys) {
        super(cluster, traitSet, input);
        this.keys = keys;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceExchange(getCluster(), traitSet, inputs.get(0), keys);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("distribution", keys.length == 0 ? "single" : "hash" + Arrays.toString(keys));
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluiceExchange(
                unwrapTableConfig(this), keys.length == 0, (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription());
    }
}
