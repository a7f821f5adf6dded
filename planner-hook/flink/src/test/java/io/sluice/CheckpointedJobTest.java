package io.sluice;

import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slow stream (one row per millisecond) with checkpoints every 50 ms: batches are cut by
 * checkpoint barriers and by {@code sluice.batch.max-delay} rather than by size, and the output
 * still equals stock Flink's, in order.
 */
class CheckpointedJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static ParityCase job() {
        List<Row> rows = new ArrayList<>();
        for (long i = 1; i <= 1000; i++) {
            rows.add(Row.of(i, "row" + i));
        }
        return ParityCase.nativeCase("checkpointed", "i BIGINT, s STRING", rows,
                "SELECT i * 3, UPPER(s) || '-' || CAST(i % 7 AS STRING) FROM t WHERE i % 5 <> 0");
    }

    static StreamTableEnvironment env(ParityCase c, boolean sluice) {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, sluice, ", 'delay-ms' = '1'");
        tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(50));
        return tEnv;
    }

    @Test
    void checkpointedSlowStreamMatchesFlink() {
        ParityCase c = job();
        ParityHarness.Outcome flink = ParityHarness.collect(env(c, false), c.query());
        assertNull(flink.failure());
        StreamTableEnvironment tEnv = env(c, true);
        assertTrue(Sluice.verdict(tEnv, c.query()).isNative());
        long before = NativeChainOperator.batches();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertNull(sluice.failure());
        long batches = NativeChainOperator.batches() - before;
        assertTrue(batches >= 5, "a ~1 s stream with 50 ms checkpoints must be cut into many batches, got " + batches);
        assertEquals(800, flink.rows().size());
        assertEquals(flink.rows(), sluice.rows());
    }
}
