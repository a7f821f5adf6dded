package io.sluice;

import io.sluice.jni.NativeException;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Go panic inside a running job becomes a Java exception ({@link NativeException}) and Flink's
 * failover handles it: without restarts the job fails with the Go message; with a restart the job
 * recovers and produces Flink's result. The JVM survives both.
 */
class NativePanicTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static ParityCase job() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(Row.of(i, "row-" + i));
        }
        return ParityCase.nativeCase("panic", "i INT, s STRING", rows, "SELECT i * 2, UPPER(s) FROM t WHERE i % 3 <> 0");
    }

    static StreamTableEnvironment sluiceEnv(ParityCase c, boolean restart) {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, true);
        tEnv.getConfig().set(SluiceOptions.BATCH_ROWS, 10);
        tEnv.getConfig().set(SluiceOptions.DEBUG_PANIC_AFTER_BATCHES, 3);
        if (restart) {
            // With checkpoints the collect sink rolls back to the last checkpoint on a restart;
            // without them its iterator fails with "Job restarted" once it has returned rows.
            tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
            tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
            tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
        } else {
            tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        return tEnv;
    }

    @Test
    void panicFailsTheJobWithTheGoMessage() {
        ParityCase c = job();
        StreamTableEnvironment tEnv = sluiceEnv(c, false);
        assertTrue(Sluice.verdict(tEnv, c.query()).isNative());
        ParityHarness.Outcome out = ParityHarness.collect(tEnv, c.query());
        assertNotNull(out.failure(), "the job should fail");
        NativeException ne = ExceptionUtils.findThrowable(out.failure(), NativeException.class)
                .orElseThrow(() -> new AssertionError("no NativeException in", out.failure()));
        assertTrue(ne.getMessage().contains("sluice native panic in debugPanic"), ne.getMessage());
        assertTrue(ne.getMessage().contains("index out of range"), ne.getMessage());

        // The JVM and the native library are still fine: the next job runs natively.
        ParityHarness.check(job());
    }

    @Test
    void panicIsRecoveredByFlinkFailover() {
        ParityCase c = job();
        ParityHarness.Outcome flink = ParityHarness.run(c, false);
        assertNull(flink.failure());

        StreamTableEnvironment tEnv = sluiceEnv(c, true);
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertNull(sluice.failure(), () -> "the job should recover: " + sluice.failure());
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 2,
                "the native operator should have been opened again by the restart");
        // The collect sink is exactly-once with checkpoints: the same rows, each once.
        assertEquals(flink.rows(), sluice.rows());
    }
}
