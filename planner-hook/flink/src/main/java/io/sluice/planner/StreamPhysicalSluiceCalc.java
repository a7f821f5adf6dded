package io.sluice.planner;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexProgram;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A Calc that runs natively. It is Flink's own {@code StreamPhysicalCalc} in every respect the
 * planner looks at (row type, traits, explain), except that it translates to {@link
 * StreamExecSluice}. Explain shows it as {@code SluiceCalc}.
 */
public class StreamPhysicalSluiceCalc extends StreamPhysicalCalc {
    private final byte[] islandJson;

    public StreamPhysicalSluiceCalc(
            RelOptCluster cluster,
            RelTraitSet traitSet,
            RelNode input,
            RexProgram program,
            RelDataType outputRowType,
            byte[] islandJson) {
        super(cluster, traitSet, input, program, outputRowType);
        this.islandJson = islandJson;
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        return new StreamPhysicalSluiceCalc(getCluster(), traitSet, child, program, getRowType(), islandJson);
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluice(
                unwrapTableConfig(this),
                StreamExecSluice.Kind.CALC,
                islandJson,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                null,
                getRelDetailedDescription());
    }
}
