package io.sluice.planner;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWatermarkAssigner;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rex.RexNode;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * A watermark assigner whose expression runs natively: Flink's {@code
 * StreamPhysicalWatermarkAssigner} for the planner, translated to {@link
 * StreamExecSluice}. Explain shows it as {@code SluiceWatermarkAssigner}.
 */
public class StreamPhysicalSluiceWatermarkAssigner extends StreamPhysicalWatermarkAssigner {
    private final byte[] islandJson;

    public StreamPhysicalSluiceWatermarkAssigner(
            StreamPhysicalWatermarkAssigner wa, RelTraitSet traitSet, RelNode input, byte[] islandJson) {
        super(wa.getCluster(), traitSet, input, wa.hints(), wa.rowtimeFieldIndex(), wa.watermarkExpr());
        this.islandJson = islandJson;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, RelNode input, List<RelHint> hints, int rowtime, RexNode watermark) {
        return new StreamPhysicalSluiceWatermarkAssigner(this, traitSet, input, islandJson);
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new StreamExecSluice(
                unwrapTableConfig(this),
                StreamExecSluice.Kind.WATERMARK_ASSIGNER,
                islandJson,
                (RowType) FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(getRowType()),
                null,
                getRelDetailedDescription());
    }
}
