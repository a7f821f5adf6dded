package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.ChainShape;
import io.sluice.runtime.NativeBatchTypeInfo;
import io.sluice.runtime.NativeChainOperator;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
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
import java.util.List;

/**
 * The exec node of every native operator: one Flink one-input operator that runs a chain of
 * island nodes in Go. A chain that starts with a keyed window aggregation gets Flink's key
 * selector over the grouping keys, so its keyed state backend, key-group range and routing are
 * Flink's.
 */
public class StreamExecSluice extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {

    /** The name under which native chains appear (and the uid prefix). */
    public static final String OPERATOR_NAME = "sluice-chain";

    private final byte[] islandJson;
    private final RowType inputType;
    private final ChainShape shape;
    private final int[] stateKeys;

    /**
     * @param stateKeys the input fields the chain's state is keyed by, or null for a chain
     *     without keyed state
     */
    public StreamExecSluice(
            ReadableConfig tableConfig,
            byte[] islandJson,
            ChainShape shape,
            RowType inputType,
            RowType outputType,
            int[] stateKeys,
            String description) {
        this(tableConfig, islandJson, shape, inputType, outputType, stateKeys, description, 1);
    }

    /**
     * A chain of {@code inputs} inputs: a join's two columnar exchanges reach its one operator
     * as the union of their batches.
     */
    public StreamExecSluice(
            ReadableConfig tableConfig,
            byte[] islandJson,
            ChainShape shape,
            RowType inputType,
            RowType outputType,
            int[] stateKeys,
            String description,
            int inputs) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(OPERATOR_NAME + "_1"),
                null, // no persisted options: the island JSON carries what the native side needs
                Collections.nCopies(inputs, InputProperty.DEFAULT),
                outputType,
                description);
        this.islandJson = islandJson;
        this.shape = shape;
        this.inputType = inputType;
        this.stateKeys = stateKeys;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        if (getInputEdges().size() > 1) {
            List<Transformation<RowData>> all = new java.util.ArrayList<>();
            for (var edge : getInputEdges()) {
                all.add((Transformation<RowData>) edge.translateToPlan(planner));
            }
            input = new org.apache.flink.streaming.api.transformations.UnionTransformation<>(all);
        }
        ChainShape runtimeShape = new ChainShape(
                shape.nodeTypes(), shape.watermarkAssigner(), shape.keyed(), shape.rowMapping(),
                shape.watermarkAssigner() ? config.get(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT).toMillis() : 0,
                shape.batchInput(), shape.batchOutput(), shape.exchangeOutput(), shape.procTime(),
                shape.miniBatchInterval());
        NativeChainOperator operator = new NativeChainOperator(
                islandJson,
                inputType,
                (RowType) getOutputType(),
                runtimeShape,
                config.get(SluiceOptions.BATCH_ROWS),
                config.get(SluiceOptions.BATCH_MAX_DELAY).toMillis(),
                config.getOptional(SluiceOptions.NATIVE_MEMORY_LIMIT).map(m -> m.getBytes()).orElse(0L),
                config.get(SluiceOptions.DEBUG_PANIC_AFTER_BATCHES),
                config.get(SluiceOptions.DEBUG_FAIL_ATTEMPTS),
                config.get(SluiceOptions.DEBUG_BATCH_DELAY_MS));
        @SuppressWarnings({"rawtypes"})
        org.apache.flink.api.common.typeinfo.TypeInformation<RowData> outputInfo = shape.batchOutput()
                ? (org.apache.flink.api.common.typeinfo.TypeInformation) (shape.exchangeOutput()
                        ? NativeBatchTypeInfo.forCompression(config.get(SluiceOptions.EXCHANGE_COMPRESSION))
                        : NativeBatchTypeInfo.INSTANCE)
                : InternalTypeInfo.of((RowType) getOutputType());
        OneInputTransformation<RowData, RowData> transform = ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(OPERATOR_NAME, config),
                operator,
                outputInfo,
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
