package io.sluice.sources;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A source whose splits Go reads into native batches for the chain above it: Flink's own source
 * machinery (split planning, assignment, positions in checkpoints) with a Go reader.
 */
public interface NativeSource {
    /** The source's stream of native batches in {@code env}. */
    Transformation<NativeBatch> transformation(StreamExecutionEnvironment env);

    /** The name of the table the source reads, for explain and errors. */
    String table();

    /**
     * The source bound to the island JSON of its scan node, which its Go reader compiles. A
     * source built from that JSON already (Parquet) returns itself.
     */
    default NativeSource withScanJson(byte[] scanJson) {
        return this;
    }
}
