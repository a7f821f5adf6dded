package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) in a rank range) over inputs that
 * only insert, against stock Flink's AppendOnlyTopNFunction: rows entering the top N, pushed out
 * (-D) or, with rank numbers or an offset, moving down a rank (-U/+U), compared row by row in
 * Flink's order at parallelism 1 and as final tables at parallelism 2; the top 1 as Flink's
 * FastTop1Function (-U/+U when a row sorts strictly first). Over changelogs, against Flink's
 * RetractableTopNFunction: rows leaving let the next rows in. What is not native yet
 * (FLOAT/DOUBLE sort keys, the UpdateFast strategy) falls back with its reason.
 */
class TopNParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    /** The top rows per partition, with the rank number selected or not. */
    static String topN(String keys, String order, String range, boolean rankNumber) {
        return "SELECT k, v, d, i, ts" + (rankNumber ? ", rn" : "") + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY " + keys
                + " ORDER BY " + order + ") AS rn FROM t) WHERE " + range;
    }

    static ParityCase topNCase(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), query);
    }

    static List<ParityCase> cases() {
        return List.of(
                topNCase("top3-rank-numbers", topN("k", "v DESC", "rn <= 3", true)),
                topNCase("top3", topN("k", "v DESC", "rn <= 3", false)),
                topNCase("top2-ascending-nulls", topN("i", "v ASC NULLS FIRST", "rn <= 2", true)),
                topNCase("two-sort-fields", topN("k", "i DESC NULLS LAST, ts ASC", "rn <= 4", true)),
                topNCase("string-sort", topN("i", "k DESC", "rn <= 3", true)),
                topNCase("offset", topN("k", "v DESC", "rn BETWEEN 2 AND 4", false)),
                topNCase("offset-rank-numbers", topN("k", "v DESC", "rn > 1 AND rn <= 3", true)),
                topNCase("no-partition", "SELECT k, v, rn FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY v DESC, ts) AS rn FROM t) WHERE rn <= 5"),
                topNCase("top3-rank-numbers", topN("k", "v DESC", "rn <= 3", true)).withParallelism(2).asMultiset(),
                topNCase("top1", topN("k", "v DESC", "rn <= 1", true)),
                // Many ties (i holds 0 to 4): a tie never replaces the kept row.
                topNCase("top1-ties", topN("k", "i DESC", "rn <= 1", true)),
                topNCase("top3-ties", topN("k", "i DESC", "rn <= 3", true)),
                topNCase("top1-two-keys", topN("k, i", "v ASC, ts DESC", "rn = 1", true)),
                // Top-N of an aggregation whose count only grows: Flink's UpdateFast strategy.
                topNCase("monotonic-updating-input", "SELECT k, c, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c DESC) AS rn "
                        + "FROM (SELECT k, i, COUNT(*) AS c FROM t GROUP BY k, i)) WHERE rn <= 2")
                        .expecting(Expectation.fallback("UpdateFast strategy")),
                // Top-N of changelogs whose sort fields move both ways: Flink's Retract strategy
                // (RetractableTopNFunction), every row kept, rows coming back into the top N.
                topNCase("retract-rank-numbers", retractTopN("s DESC", "rn <= 2", true)),
                topNCase("retract", retractTopN("s DESC", "rn <= 2", false)),
                topNCase("retract-ascending-nulls-last", retractTopN("s ASC NULLS LAST", "rn <= 3", true)),
                // Flink sets the kind of the rows it emits on the kept rows (heap state keeps them,
                // RocksDB only those it writes back), and later retractions miss them.
                topNCase("retract-offset", retractTopN("s DESC", "rn BETWEEN 2 AND 3", false)),
                topNCase("retract-offset-rocksdb", retractTopN("s DESC", "rn BETWEEN 2 AND 3", false))
                        .with("state.backend.type", "rocksdb"),
                topNCase("retract-offset-rank-numbers", retractTopN("s DESC", "rn BETWEEN 2 AND 3", true)),
                topNCase("retract-top1", retractTopN("s DESC", "rn = 1", true)),
                topNCase("retract-rank-numbers", retractTopN("s DESC", "rn <= 2", true)).withParallelism(2).asMultiset(),
                // The last row per (k, i) (-U/+U as it changes), ranked per k by v.
                topNCase("retract-deduplicated-input", "SELECT k, i, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k "
                        + "ORDER BY v DESC) AS rn FROM (SELECT k, i, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, i "
                        + "ORDER BY ts DESC) AS r1 FROM t) WHERE r1 = 1)) WHERE rn <= 2"));
    }

    /** A Top-N per k of t's sums per (k, i), which go up and down (v has negative values). */
    static String retractTopN(String order, String range, boolean rankNumber) {
        return "SELECT k, i, s" + (rankNumber ? ", rn" : "") + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY "
                + order + ") AS rn FROM (SELECT k, i, SUM(v) AS s FROM t GROUP BY k, i)) WHERE " + range;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }

    /**
     * FLOAT/DOUBLE sort keys fall back: Flink's comparator finds NaN equal to every value and
     * -0.0 equal to 0.0, and its Top-N then depends on its TreeMap's shape (over this suite's
     * rows stock Flink even fails, with a NullPointerException), so there is no exact result to
     * reproduce. Only the verdict is checked.
     */
    @Test
    void floatingPointSortKeysFallBack() {
        ParityCase c = topNCase("double-sort", topN("k", "d DESC", "rn <= 3", true));
        Verdict v = Sluice.verdict(ParityHarness.newEnv(c, true, ""), c.query());
        assertFalse(v.isNative(), v::toString);
        assertTrue(v.toString().contains("FLOAT/DOUBLE sort keys"), v::toString);
    }
}
