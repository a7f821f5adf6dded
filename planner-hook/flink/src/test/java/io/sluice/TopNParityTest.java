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
 * FastTop1Function (-U/+U when a row sorts strictly first). What is not native yet (FLOAT/DOUBLE
 * sort keys, retracting inputs) falls back with its reason.
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
                // Top-N of an aggregation's changelog: Flink's retract strategy.
                topNCase("retracting-input", "SELECT k, c, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c DESC) AS rn "
                        + "FROM (SELECT k, i, COUNT(*) AS c FROM t GROUP BY k, i)) WHERE rn <= 2")
                        .expecting(Expectation.fallback("strategy")));
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
