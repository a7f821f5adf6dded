package io.sluice.sinks;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A sink whose files Go writes from the native batches of the chain below it: Flink's own sink
 * machinery (file lifecycle, rolling, commits on checkpoints) with a Go file writer.
 */
public interface NativeSink {
    /**
     * The sink's operators over {@code input}; {@code sinkJson} is the island JSON of the sink
     * node, which its Go writer compiles; {@code uidPrefix} makes the operators' uids.
     */
    Transformation<?> transformation(DataStream<NativeBatch> input, byte[] sinkJson, String uidPrefix);

    /** The name under which the sink appears in the job graph ("sluice-...-sink"). */
    String operatorName();
}
