package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchPartitioner;
import io.sluice.runtime.NativeBatchTypeInfo;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;

/**
 * The exec node of a columnar hash exchange: a partition transformation over the native
 * batches of the chain below, each sent to the subtask Go computed for it.
 */
public class StreamExecSluiceExchange extends ExecNodeBase<NativeBatch>
        implements StreamExecNode<NativeBatch>, SingleTransformationTranslator<NativeBatch> {

    /** The name under which columnar exchanges appear. */
    public static final String TRANSFORMATION_NAME = "sluice-exchange";

    private final boolean singleton;

    /** @param singleton all rows go to one subtask (Flink's SINGLETON distribution) */
    public StreamExecSluiceExchange(ReadableConfig tableConfig, boolean singleton, RowType outputType, String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(TRANSFORMATION_NAME + "_1"),
                null,
                Collections.singletonList(InputProperty.DEFAULT),
                outputType,
                description);
        this.singleton = singleton;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<NativeBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<NativeBatch> input = (Transformation<NativeBatch>) getInputEdges().get(0).translateToPlan(planner);
        PartitionTransformation<NativeBatch> transformation =
                new PartitionTransformation<>(input, new NativeBatchPartitioner());
        createTransformationMeta(TRANSFORMATION_NAME, config).fill(transformation);
        transformation.setParallelism(singleton ? 1 : ExecutionConfig.PARALLELISM_DEFAULT);
        transformation.setOutputType(NativeBatchTypeInfo.forCompression(config.get(SluiceOptions.EXCHANGE_COMPRESSION)));
        return transformation;
    }
}
