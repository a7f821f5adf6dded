package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.NativeCalcOperator;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
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

/** Exec node of a native Calc: one Flink operator that runs the island pipeline in Go. */
public class StreamExecSluiceCalc extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {

    /** The name under which native calc transformations appear (and the uid prefix). */
    public static final String OPERATOR_NAME = "sluice-calc";

    private final byte[] islandJson;
    private final RowType inputType;

    public StreamExecSluiceCalc(
            ReadableConfig tableConfig,
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            InputProperty inputProperty,
            String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null, // no persisted options: the island JSON carries what the native side needs
                Collections.singletonList(inputProperty),
                outputType,
                description);
        this.islandJson = islandJson;
        this.inputType = inputType;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = (Transformation<RowData>) inputEdge.translateToPlan(planner);
        RowType outputType = (RowType) getOutputType();
        NativeCalcOperator operator = new NativeCalcOperator(
                islandJson,
                inputType,
                outputType,
                config.get(SluiceOptions.BATCH_ROWS),
                config.get(SluiceOptions.BATCH_MAX_DELAY).toMillis(),
                config.getOptional(SluiceOptions.NATIVE_MEMORY_LIMIT).map(m -> m.getBytes()).orElse(0L),
                config.get(SluiceOptions.DEBUG_PANIC_AFTER_BATCHES));
        return ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(OPERATOR_NAME, config),
                operator,
                InternalTypeInfo.of(outputType),
                input.getParallelism(),
                false);
    }
}
