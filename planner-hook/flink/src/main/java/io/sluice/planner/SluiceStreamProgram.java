package io.sluice.planner;

import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkStreamProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;

import org.apache.calcite.rel.RelNode;

/**
 * Flink's own stream optimizer followed by {@link SluiceProgram}. Flink's program is rebuilt from
 * the table configuration of every optimization, exactly as the planner does without Sluice, so
 * options set after installation (join reordering, multi-join, ...) keep their effect.
 */
public class SluiceStreamProgram extends FlinkChainedProgram<StreamOptimizeContext> {
    private final SluiceProgram sluice = new SluiceProgram();

    @Override
    public RelNode optimize(RelNode root, StreamOptimizeContext context) {
        RelNode flinkPlan = FlinkStreamProgram.buildProgram(context.getTableConfig()).optimize(root, context);
        return sluice.optimize(flinkPlan, context);
    }
}
