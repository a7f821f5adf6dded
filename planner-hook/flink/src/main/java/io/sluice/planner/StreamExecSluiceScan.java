package io.sluice.planner;

import io.sluice.runtime.NativeBatch;
import io.sluice.sources.NativeSource;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;

/**
 * The exec node of a native scan: a {@link NativeSource} (Flink's own source machinery with a
 * Go reader). Its records are {@link NativeBatch}es for the native chain it feeds.
 */
public class StreamExecSluiceScan extends ExecNodeBase<NativeBatch>
        implements StreamExecNode<NativeBatch>, SingleTransformationTranslator<NativeBatch> {

    /** The name under which native scans appear. */
    public static final String OPERATOR_NAME = "sluice-scan";

    private final NativeSource source;

    public StreamExecSluiceScan(ReadableConfig tableConfig, NativeSource source, RowType outputType, String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null,
                Collections.emptyList(),
                outputType,
                description);
        this.source = source;
    }

    @Override
    protected Transformation<NativeBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        return createTransformationMeta(OPERATOR_NAME, config).fill(source.transformation(planner.getExecEnv()));
    }
}
