package io.sluice.planner;

import io.sluice.sinks.NativeSink;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A table sink that Go writes natively (a filesystem table in Parquet, an Iceberg table), fed with the Arrow
 * batches of the native chain below it. Explain shows it as {@code SluiceSink}.
 */
public class StreamPhysicalSluiceSink extends SingleRel implements StreamPhysicalRel {
    private final byte[] sinkJson;
    private final NativeSink sink;
    private final String description;

    public StreamPhysicalSluiceSink(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode input,
            byte[] sinkJson,
            NativeSink sink,
            String description) {
        super(cluster, traitSet, input);
        this.sinkJson = sinkJson;
        this.sink = sink;
        this.description = description;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceSink(getCluster(), traitSet, inputs.get(0), sinkJson, sink, description);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("sink", description);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluiceSink(
                unwrapTableConfig(this), sinkJson, sink,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()), description);
    }
}
