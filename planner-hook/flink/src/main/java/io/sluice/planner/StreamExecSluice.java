package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.NativeCalcOperator;
import io.sluice.runtime.NativeLocalWindowAggOperator;
import io.sluice.runtime.NativeWatermarkAssignerOperator;
import io.sluice.runtime.NativeWindowAggOperator;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
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
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;

/**
 * The exec node of every native operator: one Flink one-input operator that runs its island
 * node in Go. Keyed operators (window aggregations) get Flink's key selector over their
 * grouping keys, so their keyed state backend, key-group range and routing are Flink's.
 */
public class StreamExecSluice extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {

    /** The native operators, with the names under which their transformations appear. */
    public enum Kind {
        CALC("sluice-calc"),
        WATERMARK_ASSIGNER("sluice-watermark-assigner"),
        WINDOW_AGGREGATE("sluice-window-aggregate"),
        LOCAL_WINDOW_AGGREGATE("sluice-local-window-aggregate"),
        GLOBAL_WINDOW_AGGREGATE("sluice-global-window-aggregate");

        private final String operatorName;

        Kind(String operatorName) {
            this.operatorName = operatorName;
        }

        public String operatorName() {
            return operatorName;
        }
    }

    private final Kind kind;
    private final byte[] islandJson;
    private final RowType inputType;
    private final int[] stateKeys;

    /**
     * @param stateKeys the input fields the operator's state is keyed by, or null for an
     *     operator without keyed state
     */
    public StreamExecSluice(
            ReadableConfig tableConfig,
            Kind kind,
            byte[] islandJson,
            RowType inputType,
            RowType outputType,
            int[] stateKeys,
            String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(kind.operatorName() + "_1"),
                null, // no persisted options: the island JSON carries what the native side needs
                Collections.singletonList(InputProperty.DEFAULT),
                outputType,
                description);
        this.kind = kind;
        this.islandJson = islandJson;
        this.inputType = inputType;
        this.stateKeys = stateKeys;
    }

    private OneInputStreamOperator<RowData, RowData> operator(ExecNodeConfig config) {
        RowType outputType = (RowType) getOutputType();
        int batchRows = config.get(SluiceOptions.BATCH_ROWS);
        long maxDelay = config.get(SluiceOptions.BATCH_MAX_DELAY).toMillis();
        long memoryLimit = config.getOptional(SluiceOptions.NATIVE_MEMORY_LIMIT).map(m -> m.getBytes()).orElse(0L);
        int failAfter = config.get(SluiceOptions.DEBUG_PANIC_AFTER_BATCHES);
        switch (kind) {
            case CALC:
                return new NativeCalcOperator(islandJson, inputType, outputType, batchRows, maxDelay, memoryLimit, failAfter);
            case WATERMARK_ASSIGNER:
                return new NativeWatermarkAssignerOperator(
                        islandJson, inputType, batchRows, maxDelay,
                        config.get(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT).toMillis(), memoryLimit);
            case LOCAL_WINDOW_AGGREGATE:
                return new NativeLocalWindowAggOperator(islandJson, inputType, outputType, batchRows, maxDelay, memoryLimit);
            default:
                return new NativeWindowAggOperator(
                        islandJson, inputType, outputType, batchRows, maxDelay, memoryLimit,
                        failAfter, config.get(SluiceOptions.DEBUG_FAIL_ATTEMPTS));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        OneInputTransformation<RowData, RowData> transform = ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(kind.operatorName(), config),
                operator(config),
                InternalTypeInfo.of((RowType) getOutputType()),
                input.getParallelism(),
                false);
        if (stateKeys != null) {
            RowDataKeySelector selector = KeySelectorUtil.getRowDataSelector(
                    planner.getFlinkContext().getClassLoader(), stateKeys, InternalTypeInfo.of(inputType));
            transform.setStateKeySelector(selector);
            transform.setStateKeyType(selector.getProducedType());
        }
        return transform;
    }
}
