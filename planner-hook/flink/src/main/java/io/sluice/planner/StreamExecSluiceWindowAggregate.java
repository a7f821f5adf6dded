package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.NativeWindowAggOperator;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;

/**
 * Exec node of a native window aggregation: a keyed one-input operator (Flink's key selector
 * over the grouping keys, so the keyed state backend and its key-group range are Flink's) that
 * runs the aggregation in Go.
 */
public class StreamExecSluiceWindowAggregate extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {

    /** The name under which native window aggregations appear (and the uid prefix). */
    public static final String OPERATOR_NAME = "sluice-window-aggregate";

    private final byte[] islandJson;
    private final int[] grouping;
    private final RowType inputType;

    public StreamExecSluiceWindowAggregate(
            ReadableConfig tableConfig,
            byte[] islandJson,
            int[] grouping,
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
        this.grouping = grouping;
        this.inputType = inputType;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        RowType outputType = (RowType) getOutputType();
        NativeWindowAggOperator operator = new NativeWindowAggOperator(
                islandJson,
                inputType,
                outputType,
                config.get(SluiceOptions.BATCH_ROWS),
                config.get(SluiceOptions.BATCH_MAX_DELAY).toMillis(),
                config.getOptional(SluiceOptions.NATIVE_MEMORY_LIMIT).map(m -> m.getBytes()).orElse(0L),
                config.get(SluiceOptions.DEBUG_PANIC_AFTER_BATCHES),
                config.get(SluiceOptions.DEBUG_FAIL_ATTEMPTS));
        OneInputTransformation<RowData, RowData> transform = ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(OPERATOR_NAME, config),
                operator,
                InternalTypeInfo.of(outputType),
                input.getParallelism(),
                false);
        RowDataKeySelector selector = KeySelectorUtil.getRowDataSelector(
                planner.getFlinkContext().getClassLoader(), grouping, InternalTypeInfo.of(inputType));
        transform.setStateKeySelector(selector);
        transform.setStateKeyType(selector.getProducedType());
        return transform;
    }
}
