package io.sluice.planner;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.BiRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * A native chain that starts with a join: its two inputs (columnar exchanges keyed by the join
 * keys) reach one Flink operator, which tells the sides apart by the batches' marks. Explain
 * shows it as {@code SluiceJoinChain} with the nodes it runs.
 */
public class StreamPhysicalSluiceJoinChain extends BiRel implements StreamPhysicalRel {
    private final NativeChain chain;

    /** The chain rel of a native chain over its input(s). */
    public StreamPhysicalSluiceJoinChain(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode left,
            RelNode right,
            NativeChain chain) {
        super(cluster, traitSet, left, right);
        this.chain = chain;
    }

    @Override
    protected RelDataType deriveRowType() {
        return chain.rowType();
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceJoinChain(getCluster(), traitSet, inputs.get(0), inputs.get(1), chain);
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
        return chain.execNode(this, getLeft(), 2);
    }
}
