package io.sluice.sinks.adbc;

import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.NativeSink;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/** An ADBC table written from the Arrow batches of the native chain below it. */
public final class AdbcNativeSink implements NativeSink {
    /** Native batches written into ADBC tables in this JVM (tests assert native writing by it). */
    public static final java.util.concurrent.atomic.AtomicLong BATCHES = new java.util.concurrent.atomic.AtomicLong();

    private final AdbcTableSink table;

    /** The native writer of {@code table}'s sink. */
    public AdbcNativeSink(AdbcTableSink table) {
        this.table = table;
    }

    @Override
    public String operatorName() {
        return "sluice-adbc-sink";
    }

    @Override
    public Transformation<?> transformation(DataStream<NativeBatch> input, byte[] sinkJson, String uidPrefix) {
        return input.sinkTo(AdbcSink.<NativeBatch>forBatches(sinkJson, table.flushInterval()))
                .name(operatorName() + ": " + table.table())
                .uid(uidPrefix + "-adbc")
                .setParallelism(input.getParallelism())
                .getTransformation();
    }
}
