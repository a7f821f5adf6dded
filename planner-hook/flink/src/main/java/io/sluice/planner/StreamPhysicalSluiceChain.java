package io.sluice.planner;

import io.sluice.runtime.ChainShape;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A chain of island nodes between two exchanges (or edges) that runs natively in one Flink
 * operator. It replaces the chain in the optimized physical plan; explain shows it as {@code
 * SluiceChain} with the nodes it runs.
 */
public class StreamPhysicalSluiceChain extends SingleRel implements StreamPhysicalRel {
    private final RelDataType rowType;
    private final byte[] islandJson;
    private final ChainShape shape;
    private final int[] stateKeys;
    private final List<String> nodes;
    private final boolean requireWatermark;

    /**
     * @param rowType the row type of the chain's last node
     * @param stateKeys the input fields a keyed chain is keyed by, or null
     * @param nodes the descriptions of the chain's nodes, in data-flow order
     */
    public StreamPhysicalSluiceChain(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode input,
            RelDataType rowType,
            byte[] islandJson,
            ChainShape shape,
            int[] stateKeys,
            List<String> nodes,
            boolean requireWatermark) {
        super(cluster, traitSet, input);
        this.rowType = rowType;
        this.islandJson = islandJson;
        this.shape = shape;
        this.stateKeys = stateKeys;
        this.nodes = nodes;
        this.requireWatermark = requireWatermark;
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceChain(
                getCluster(), traitSet, inputs.get(0), rowType, islandJson, shape, stateKeys, nodes, requireWatermark);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("nodes", String.join(" -> ", nodes));
    }

    @Override
    public boolean requireWatermark() {
        return requireWatermark;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluice(
                unwrapTableConfig(this),
                islandJson,
                shape,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                stateKeys,
                getRelDetailedDescription());
    }
}
