package io.sluice.planner;

import org.apache.flink.table.catalog.ObjectIdentifier;
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
import java.util.Map;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A table sink that Go writes natively (a filesystem table in Parquet), fed with the Arrow
 * batches of the native chain below it. Explain shows it as {@code SluiceSink}.
 */
public class StreamPhysicalSluiceSink extends SingleRel implements StreamPhysicalRel {
    private final byte[] sinkJson;
    private final Map<String, String> tableOptions;
    private final ObjectIdentifier table;
    private final String description;

    public StreamPhysicalSluiceSink(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode input,
            byte[] sinkJson,
            Map<String, String> tableOptions,
            ObjectIdentifier table,
            String description) {
        super(cluster, traitSet, input);
        this.sinkJson = sinkJson;
        this.tableOptions = tableOptions;
        this.table = table;
        this.description = description;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSluiceSink(getCluster(), traitSet, inputs.get(0), sinkJson, tableOptions, table, description);
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
                unwrapTableConfig(this), sinkJson, tableOptions, table,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()), description);
    }
}
