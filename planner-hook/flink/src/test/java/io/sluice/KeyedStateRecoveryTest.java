package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure recovery of native operators with keyed state beyond windows (a window join, an
 * interval join, a regular join, a group aggregation, one over another's retractions, OVER
 * aggregations, session windows): both
 * inputs slowed down, checkpoints every 100 ms, three injected failures (Go panics and a Java exception). Flink restarts the job from its last
 * checkpoint, the rows and accumulators in state come back from raw keyed state, and the
 * exactly-once collect sink ends with exactly the rows of a failure-free stock Flink run.
 */
class KeyedStateRecoveryTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static List<ParityCase> jobs() {
        return List.of(
                ParityCase.nativeCase("group-aggregate", GroupAggregateParityTest.SCHEMA, WindowAggregateParityTest.rows(1500),
                        "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k").asMultiset(),
                // Two native aggregations with state, the outer one retracting.
                ParityCase.nativeCase("retracting-group-aggregate", GroupAggregateParityTest.SCHEMA, WindowAggregateParityTest.rows(1500),
                        "SELECT c, " + GroupAggregateParityTest.OVER_INNER + " FROM (" + GroupAggregateParityTest.INNER + ") GROUP BY c")
                        .asMultiset(),
                // Distinct values counted per key in state, retracted as the inner counts change.
                ParityCase.nativeCase("retracting-distinct-group-aggregate", GroupAggregateParityTest.SCHEMA,
                        WindowAggregateParityTest.rows(1500), "SELECT MOD(c, 3) AS m, COUNT(DISTINCT k) AS dk, "
                                + "SUM(DISTINCT sv) AS ssv FROM (" + GroupAggregateParityTest.INNER + ") GROUP BY MOD(c, 3)")
                        .asMultiset(),
                atScale(WindowJoinParityTest.join("window-join", "FULL", WindowJoinParityTest.HOP, WindowJoinParityTest.BOTH,
                        " AND L.v < R.v + 100")),
                atScale(IntervalJoinParityTest.join("interval-join", "FULL", IntervalJoinParityTest.WITHIN_2S,
                        " AND L.v < R.v + 100")),
                // Sessions merging as rows come, their accumulators in state.
                ParityCase.nativeCase("session-windows", WindowAggregateParityTest.SCHEMA, WindowAggregateParityTest.rows(1500),
                        WindowAggregateParityTest.query(SessionWindowParityTest.session("k", "2"), "k", WindowAggregateParityTest.AGGS))
                        .asMultiset(),
                // Rows waiting for the watermark, frames and accumulators in state.
                ParityCase.nativeCase("over-rows", OverAggregateParityTest.SCHEMA, WindowAggregateParityTest.rows(1500),
                        OverAggregateParityTest.over(OverAggregateParityTest.AGGS, OverAggregateParityTest.ROWS_3)).asMultiset(),
                ParityCase.nativeCase("over-range", OverAggregateParityTest.SCHEMA, WindowAggregateParityTest.rows(1500),
                        OverAggregateParityTest.over(OverAggregateParityTest.AGGS + ", MIN(d) OVER w AS mnd",
                                OverAggregateParityTest.RANGE_2S)).asMultiset(),
                // Enough rows that checkpoints complete before the failures.
                ParityCase.nativeCase("regular-join", RegularJoinParityTest.SCHEMA,
                        WindowJoinParityTest.joinRows(13, 1500, "a", "b", "c", "d", "e", "g", "h", null),
                        "SELECT " + RegularJoinParityTest.BOTH + " FROM t L LEFT JOIN u R ON L.k = R.k AND L.v < R.v + 300")
                        .asMultiset(),
                // A changelog input kept by its unique key (k, i), joined on k.
                ParityCase.nativeCase("regular-join-of-a-changelog", RegularJoinParityTest.SCHEMA,
                        WindowJoinParityTest.joinRows(13, 1500, "a", "b", "c", "d", "e", "g", "h", null),
                        "SELECT L.k, L.v, R.i AS ri, R.c FROM t L LEFT JOIN (SELECT k, i, COUNT(*) AS c FROM u GROUP BY k, i) R "
                                + "ON L.k = R.k AND L.v < R.c * 100")
                        .asMultiset());
    }

    /**
     * A join case over 1,500 left rows (as the rescale test's), so that checkpoints complete
     * before the injected failures: with the suite's 300 rows a restart could come before any.
     */
    static ParityCase atScale(ParityCase c) {
        return new ParityCase(c.name(), c.schema(), WindowJoinParityTest.joinRows(11, 1500, "a", "b", "c", "e", null), c.query(),
                c.expect(), c.parallelism(), c.unordered(), c.config(), c.ddl(), c.vars());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void failuresAreRecoveredWithFlinksExactResult(ParityCase base) {
        // The right table slowed down too, so that failures also come while it is half read.
        String slowRight = WindowJoinParityTest.RIGHT_TABLE.replace("')", "', 'delay-ms' = '2')");
        ParityCase c = new ParityCase(base.name(), base.schema(), base.rows(), base.query(), base.expect(), base.parallelism(),
                base.unordered(), base.config(), List.of(slowRight), base.vars())
                .with("pipeline.auto-watermark-interval", "0 ms");
        ParityHarness.Outcome flink = ParityHarness.run(c, false);
        assertNull(flink.failure());
        assertTrue(flink.rows().size() > 100, "the job should produce rows");

        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, true, ", 'delay-ms' = '2'");
        ParityHarness.injectFailures(tEnv, 40, 0);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        assertTrue(verdict.isNative(), verdict::toString);
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        long restored = NativeChainOperator.KEY_GROUPS_RESTORED.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertNull(sluice.failure(), () -> "the job should recover: " + sluice.failure());
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4, "three failures should have restarted the native chains");
        assertTrue(NativeChainOperator.KEY_GROUPS_RESTORED.get() > restored,
                "restarts should have restored the operator's state from checkpoints");
        // As multisets (a changelog by its final table: an outer join's padding depends on how the
        // inputs interleave).
        ParityHarness.compareOutcomes(c.name(), flink, sluice, true);
    }

    /**
     * A regular join into a retracting aggregation, failed 20 times (Go panics and Java
     * exceptions, each after a checkpoint that holds state of its attempt): every restart
     * restores the join's and the aggregation's state, and the exactly-once collect sink ends
     * with the table of one failure-free stock Flink run.
     */
    @Test
    void twentyFailuresOfAJoinIntoAnAggregation() {
        String slowRight = WindowJoinParityTest.RIGHT_TABLE.replace("')", "', 'delay-ms' = '2')");
        ParityCase c = ParityCase.nativeCase("join-into-aggregation", RegularJoinParityTest.SCHEMA,
                        WindowJoinParityTest.joinRows(17, 4000, "a", "b", "c", "d", "e", "g", "h", null),
                        "SELECT R.i, COUNT(*) AS c, SUM(L.v) AS sv, MAX(R.v) AS mx FROM t L LEFT JOIN u R ON L.k = R.k "
                                + "AND L.v < R.v + 300 GROUP BY R.i")
                .withDdl(slowRight).asMultiset().with("pipeline.auto-watermark-interval", "0 ms");
        ParityHarness.Outcome flink = ParityHarness.run(c, false);
        assertNull(flink.failure());

        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, true, ", 'delay-ms' = '2'");
        ParityHarness.injectFailures(tEnv, 10, 0);
        tEnv.getConfig().set(io.sluice.SluiceOptions.DEBUG_FAIL_ATTEMPTS, 21);
        tEnv.getConfig().set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 30);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        assertTrue(verdict.isNative(), verdict::toString);
        long failures = NativeChainOperator.FAILURES_INJECTED.get();
        long restored = NativeChainOperator.KEY_GROUPS_RESTORED.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertNull(sluice.failure(), () -> "the job should recover: " + sluice.failure());
        assertTrue(NativeChainOperator.FAILURES_INJECTED.get() - failures >= 20,
                () -> (NativeChainOperator.FAILURES_INJECTED.get() - failures) + " failures, 20 expected");
        assertTrue(NativeChainOperator.KEY_GROUPS_RESTORED.get() > restored, "restarts should have restored native state");
        ParityHarness.compareOutcomes(c.name(), flink, sluice, true);
    }
}
