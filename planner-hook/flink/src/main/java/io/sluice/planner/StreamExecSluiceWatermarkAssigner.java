package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.NativeWatermarkAssignerOperator;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;

/** Exec node of a native watermark assigner. */
public class StreamExecSluiceWatermarkAssigner extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {

    /** The name under which native watermark assigners appear (and the uid prefix). */
    public static final String OPERATOR_NAME = "sluice-watermark-assigner";

    private final byte[] islandJson;
    private final RowType inputType;

    public StreamExecSluiceWatermarkAssigner(
            ReadableConfig tableConfig,
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            InputProperty inputProperty,
            String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null,
                Collections.singletonList(inputProperty),
                outputType,
                description);
        this.islandJson = islandJson;
        this.inputType = inputType;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        NativeWatermarkAssignerOperator operator = new NativeWatermarkAssignerOperator(
                islandJson,
                inputType,
                config.get(SluiceOptions.BATCH_ROWS),
                config.get(SluiceOptions.BATCH_MAX_DELAY).toMillis(),
                config.get(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT).toMillis(),
                config.getOptional(SluiceOptions.NATIVE_MEMORY_LIMIT).map(m -> m.getBytes()).orElse(0L));
        return ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(OPERATOR_NAME, config),
                operator,
                InternalTypeInfo.of((RowType) getOutputType()),
                input.getParallelism(),
                false);
    }
}
