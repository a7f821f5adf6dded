package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure recovery of a native window aggregation: a slow bounded source, checkpoints every
 * 100 ms, and three injected failures (a Go panic, a Java exception, a Go panic again), each
 * after some batches of a new attempt. Flink restarts the job from its last checkpoint, the
 * native state comes back from raw keyed state, and the exactly-once collect sink ends with
 * exactly the rows of a failure-free stock Flink run: none lost, none duplicated.
 */
class WindowRecoveryTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static ParityCase job() {
        return ParityCase.nativeCase(
                        "recovery",
                        WindowAggregateParityTest.SCHEMA,
                        WindowAggregateParityTest.rows(1500),
                        WindowAggregateParityTest.query(
                                "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)",
                                "k",
                                WindowAggregateParityTest.AGGS))
                .with("table.optimizer.agg-phase-strategy", "ONE_PHASE")
                // No periodic watermarks: a watermark then follows each rise of the event time, so
                // which rows are late does not depend on how fast each run goes. With periodic
                // emission (processing time), the slowed-down Sluice run and the full-speed stock
                // run emit watermarks at different rows, and a row near a window's end may be late
                // in one run only (seen once: a HOP row missing from its first window only).
                .with("pipeline.auto-watermark-interval", "0 ms");
    }

    /**
     * With unaligned checkpoints on, the columnar exchange still takes aligned ones (its
     * in-flight batches cannot be split again on restore): the result is the same.
     */
    @ParameterizedTest(name = "unaligned checkpoints: {0}")
    @ValueSource(booleans = {false, true})
    void failuresAreRecoveredWithFlinksExactResult(boolean unaligned) {
        ParityCase c = job().with("execution.checkpointing.unaligned.enabled", String.valueOf(unaligned));
        ParityHarness.Outcome flink = ParityHarness.run(c, false);
        assertNull(flink.failure());

        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, true, ", 'delay-ms' = '2'");
        ParityHarness.injectFailures(tEnv, 40, 0);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        assertTrue(verdict.isNative(), verdict::toString);

        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        long restored = NativeChainOperator.KEY_GROUPS_RESTORED.get();
        long exchanged = NativeChainOperator.EXCHANGE_BATCHES.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertNull(sluice.failure(), () -> "the job should recover: " + sluice.failure());
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4,
                "three failures should have restarted the native window operator three times");
        assertTrue(NativeChainOperator.KEY_GROUPS_RESTORED.get() > restored,
                "restarts should have restored native state from checkpoints");
        assertTrue(NativeChainOperator.EXCHANGE_BATCHES.get() > exchanged, "no batch crossed a columnar exchange");
        assertEquals(sorted(flink.rows()), sorted(sluice.rows()));
    }

    static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted(Comparator.naturalOrder()).toList();
    }
}
