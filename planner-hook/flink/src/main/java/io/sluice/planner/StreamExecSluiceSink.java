package io.sluice.planner;

import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.NativeSink;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
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
 * The exec node of a native sink (a filesystem table in Parquet, an Iceberg table): the sink's
 * own Flink operators, fed with the native batches of the chain below, whose files Go writes.
 */
public class StreamExecSluiceSink extends ExecNodeBase<Object>
        implements StreamExecNode<Object>, SingleTransformationTranslator<Object> {

    private final byte[] sinkJson;
    private final NativeSink sink;

    public StreamExecSluiceSink(
            ReadableConfig tableConfig, byte[] sinkJson, NativeSink sink, RowType inputType, String description) {
        super(
                ExecNodeContext.newNodeId(),
                new ExecNodeContext(sink.operatorName() + "_1"),
                null,
                Collections.singletonList(InputProperty.DEFAULT),
                inputType,
                description);
        this.sinkJson = sinkJson;
        this.sink = sink;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<Object> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<NativeBatch> input =
                (Transformation<NativeBatch>) getInputEdges().get(0).translateToPlan(planner);
        DataStream<NativeBatch> stream = new DataStream<>(planner.getExecEnv(), input);
        return (Transformation<Object>) sink.transformation(stream, sinkJson, sink.operatorName() + "-" + getId());
    }
}
