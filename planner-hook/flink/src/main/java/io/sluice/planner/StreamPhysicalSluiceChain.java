package io.sluice.planner;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * A chain of island nodes between two exchanges (or edges) that runs natively in one Flink
 * operator. It replaces the chain in the optimized physical plan; explain shows it as {@code
 * SluiceChain} with the nodes it runs.
 */
public class StreamPhysicalSluiceChain extends SingleRel implements StreamPhysicalRel {
    private final NativeChain chain;

    /** The chain rel of a native chain over its input(s). */
    public StreamPhysicalSluiceChain(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode input,
            NativeChain chain) {
        super(cluster, traitSet, input);
        this.chain = chain;
    }

    @Override
    protected RelDataType deriveRowType() {
        return chain.rowType();
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceChain(getCluster(), traitSet, inputs.get(0), chain);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("nodes", chain.describe());
    }

    @Override
    public boolean requireWatermark() {
        return chain.requireWatermark();
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return chain.execNode(this, getInput(), 1);
    }
}
