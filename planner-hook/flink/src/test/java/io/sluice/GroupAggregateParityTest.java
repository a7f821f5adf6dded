package io.sluice;

import io.sluice.testing.Expectation;
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
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GROUP BY aggregations outside windows against stock Flink's GroupAggFunction: every input row
 * changes its key's result, and the changelog (+I for a key's first row, -U/+U for a later one
 * whose result differs, nothing when it stays equal) is compared row by row in Flink's order at
 * parallelism 1, as multisets at parallelism 2. Over inputs with updates and deletes (an
 * aggregation of an aggregation, of an outer join) -U/-D rows are retracted, MIN and MAX keep
 * their values' counts, and a key whose rows are all retracted is deleted (-D). With mini-batches
 * each bundle's keys emit once, in the order of Flink's HashMap, in one phase or in two (a local
 * phase's partial accumulators merged by the global phase). What is not
 * native yet (retracting MIN/MAX of strings, DISTINCT with a state TTL, two phases with DISTINCT or over retractions with SUM, MIN or MAX) falls back with
 * its reason.
 */
class GroupAggregateParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    /** An inner aggregation whose changelog (-U/+U per row) the retracting cases aggregate again. */
    static final String INNER = "SELECT k, COUNT(*) AS c, SUM(v) AS sv, MIN(d) AS mnd, MAX(d) AS mxd, SUM(i) AS si, AVG(d) AS ad "
            + "FROM t GROUP BY k";

    /** Every aggregate over the inner one's columns, retracting. */
    static final String OVER_INNER = "COUNT(*) AS n, COUNT(sv) AS csv, SUM(sv) AS ssv, MIN(sv) AS mnsv, MAX(sv) AS mxsv, "
            + "AVG(sv) AS asv, SUM(ad) AS sad, AVG(ad) AS aad, MIN(mnd) AS mnd, MAX(mxd) AS mxd, SUM(si) AS ssi, "
            + "AVG(si) AS asi, MAX(c) AS mxc, MIN(c) AS mnc";

    static ParityCase group(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), query);
    }

    /**
     * A case with mini-batches of {@code size} rows in one phase (MiniBatchGroupAggFunction).
     * The interval is so long that no interval starts during the test (its first watermark is 0,
     * at the epoch): bundles end by their count and at the end of the input only, the same rows
     * in both runs.
     */
    static ParityCase miniBatch(String name, String query, int size) {
        return group(name, query).with("table.exec.mini-batch.enabled", "true")
                .with("table.exec.mini-batch.allow-latency", "100000 d")
                .with("table.exec.mini-batch.size", String.valueOf(size))
                .with("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    /** A case with mini-batches of {@code size} rows in two phases (local and global aggregation). */
    static ParityCase twoPhase(String name, String query, int size) {
        return miniBatch(name, query, size).with("table.optimizer.agg-phase-strategy", "TWO_PHASE");
    }

    static List<ParityCase> cases() {
        return List.of(
                miniBatch("mini-batch-all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k", 7),
                miniBatch("mini-batch-unchanged-results", "SELECT k, MAX(v) AS mx FROM t GROUP BY k", 5),
                miniBatch("mini-batch-filters-distinct", "SELECT i, COUNT(DISTINCT k) AS dk, "
                        + "SUM(v) FILTER (WHERE d < 1) AS sv, COUNT(*) AS c FROM t GROUP BY i", 16),
                miniBatch("mini-batch-two-keys", "SELECT k, i, COUNT(*) AS c, SUM(d) AS sd FROM t GROUP BY k, i", 100),
                miniBatch("mini-batch-all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k", 9)
                        .withParallelism(2),
                // Both aggregations in bundles; the outer one's keys come and go (-D).
                miniBatch("mini-batch-retracting", "SELECT c, " + OVER_INNER + " FROM (" + INNER + ") GROUP BY c", 6),
                miniBatch("mini-batch-retracting-input", "SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) GROUP BY c", 3),
                miniBatch("mini-batch-state-ttl", "SELECT k, MAX(v) AS mx FROM t GROUP BY k", 4).with("table.exec.state.ttl", "1 h"),
                twoPhase("two-phase-all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k", 7),
                twoPhase("two-phase-unchanged-results", "SELECT k, MAX(v) AS mx, MIN(d) AS mn FROM t GROUP BY k", 3),
                twoPhase("two-phase-filters", "SELECT k, " + WindowAggregateParityTest.FILTERED + " FROM t GROUP BY k", 11),
                twoPhase("two-phase-two-keys", "SELECT k, i, COUNT(*) AS c, SUM(d) AS sd, AVG(v) AS av FROM t GROUP BY k, i", 50),
                twoPhase("two-phase-no-grouping", "SELECT COUNT(*) AS c, SUM(v) AS sv, MIN(d) AS mn, AVG(d) AS ad FROM t", 13),
                twoPhase("two-phase-all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k", 9)
                        .withParallelism(2),
                twoPhase("two-phase-state-ttl", "SELECT k, MAX(v) AS mx FROM t GROUP BY k", 4).with("table.exec.state.ttl", "1 h"),
                // The default strategy (AUTO) plans two phases with mini-batches.
                miniBatch("mini-batch-auto", "SELECT k, COUNT(*) AS c, SUM(v) AS sv FROM t GROUP BY k", 7)
                        .with("table.optimizer.agg-phase-strategy", "AUTO"),
                twoPhase("two-phase-distinct", "SELECT k, COUNT(DISTINCT v) AS dv FROM t GROUP BY k", 7)
                        .expecting(Expectation.fallback("(DISTINCT) in a two-phase aggregation")),
                // Two phases over retractions: the local phase retracts -U/-D rows and counts
                // rows in a COUNT(*) (the query's, or one Flink appends); the global one deletes
                // a key whose record count, read where Flink's RecordCounter reads it, is 0.
                twoPhase("two-phase-retracting", "SELECT c, COUNT(*) AS n, SUM(sv) AS s FROM (" + INNER + ") GROUP BY c", 7)
                        .expecting(Expectation.fallback("SUM(BIGINT) over input with retractions in a two-phase aggregation")),
                twoPhase("two-phase-retracting-count", "SELECT c, COUNT(*) AS n, COUNT(ad) AS na FROM (" + INNER + ") GROUP BY c", 7),
                twoPhase("two-phase-retracting-avg", "SELECT c, AVG(sv) AS a FROM (" + INNER + ") GROUP BY c", 7),
                twoPhase("two-phase-retracting-avg-double", "SELECT c, AVG(ad) AS a, COUNT(*) AS n FROM (" + INNER + ") GROUP BY c", 5)
                        .withParallelism(2),
                twoPhase("two-phase-retracting-counts", "SELECT si, COUNT(ad) AS n, AVG(c) AS ac FROM (" + INNER + ") GROUP BY si", 3)
                        .withParallelism(2),
                // Keys whose AVG and COUNT arguments are all NULL: the record count is the rows'
                // COUNT(*), not AVG's count of values; a row changing only that count emits nothing.
                twoPhase("two-phase-retracting-nulls", "SELECT c, AVG(x) AS ax, COUNT(x) AS cx FROM (SELECT k, COUNT(*) AS c, "
                        + "MAX(IF(k = 'a' OR k IS NULL, CAST(NULL AS BIGINT), v)) AS x FROM t GROUP BY k) GROUP BY c", 5),
                group("all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k"),
                // MAX alone: rows below a key's maximum change nothing, and Flink emits nothing.
                group("unchanged-results", "SELECT k, MAX(v) AS mx FROM t GROUP BY k"),
                group("filters", "SELECT k, " + WindowAggregateParityTest.FILTERED + " FROM t GROUP BY k"),
                group("two-keys", "SELECT k, i, COUNT(*) AS c, SUM(d) AS sd FROM t GROUP BY k, i"),
                group("no-grouping", "SELECT COUNT(*) AS c, SUM(v) AS sv, MIN(d) AS mn FROM t"),
                group("expression-key", "SELECT UPPER(k) AS uk, COUNT(v) AS cv, AVG(i) AS ai FROM t GROUP BY UPPER(k)"),
                group("having", "SELECT k, SUM(v) AS sv FROM t GROUP BY k HAVING COUNT(*) > 3"),
                // Keys and aggregates of other types: DECIMAL and TIMESTAMP keys, SUM of a wide
                // DECIMAL, MIN of strings, MAX of booleans, AVG of a DECIMAL.
                ParityCase.nativeCase("other-types", CalcParityTest.ALL, CalcParityTest.allRows(),
                        "SELECT dc, ts, COUNT(*) AS c, SUM(dw) AS sw, MIN(s) AS ms, MAX(b) AS mb, AVG(dc) AS ac FROM t GROUP BY dc, ts"),
                ParityCase.nativeCase("string-key", CalcParityTest.ALL, CalcParityTest.allRows(),
                        "SELECT s, COUNT(*) AS c, SUM(l) AS sl, MAX(d) AS md FROM t GROUP BY s"),
                group("all-aggregates", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k")
                        .withParallelism(2),
                group("distinct", "SELECT k, COUNT(DISTINCT v) AS dv, SUM(DISTINCT i) AS si, COUNT(DISTINCT d) AS dd, "
                        + "AVG(DISTINCT v) AS av, MAX(DISTINCT i) AS mi, COUNT(DISTINCT CAST(ts AS DATE)) AS days FROM t GROUP BY k"),
                group("distinct-filters", "SELECT i, COUNT(DISTINCT k) AS dk, COUNT(DISTINCT k) FILTER (WHERE v > 0) AS dkp, "
                        + "SUM(DISTINCT v) FILTER (WHERE d < 1) AS sv, COUNT(*) AS c FROM t GROUP BY i"),
                group("retracting-distinct", "SELECT MOD(c, 3) AS m, COUNT(DISTINCT k) AS dk, COUNT(DISTINCT sv) AS dsv, "
                        + "SUM(DISTINCT si) AS ssi, COUNT(DISTINCT ad) AS dad, MIN(DISTINCT mnd) AS mnd, "
                        + "COUNT(DISTINCT k) FILTER (WHERE sv > 0) AS dkp FROM (" + INNER + ") GROUP BY MOD(c, 3)"),
                group("retracting-distinct", "SELECT MOD(c, 3) AS m, COUNT(DISTINCT k) AS dk, SUM(DISTINCT sv) AS ssv "
                        + "FROM (" + INNER + ") GROUP BY MOD(c, 3)").withParallelism(2).asMultiset(),
                // Over the changelog of an inner aggregation: each inner update retracts the old
                // row and adds the new one, so outer keys empty (-D) as counts move on.
                group("retracting-input", "SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) GROUP BY c"),
                group("retracting-all-aggregates", "SELECT c, " + OVER_INNER + " FROM (" + INNER + ") GROUP BY c"),
                group("retracting-all-aggregates", "SELECT c, " + OVER_INNER + " FROM (" + INNER + ") GROUP BY c")
                        .withParallelism(2),
                group("retracting-no-grouping", "SELECT " + OVER_INNER + " FROM (" + INNER + ")"),
                group("retracting-filters", "SELECT MOD(c, 3) AS m, COUNT(*) FILTER (WHERE sv > 0) AS np, "
                        + "SUM(mxd) FILTER (WHERE k <> 'a') AS sx, MAX(sv) FILTER (WHERE c > 2) AS ms FROM (" + INNER + ") GROUP BY MOD(c, 3)"),
                // A LEFT JOIN's changelog (a padded row deleted when its first match comes); how
                // the join's two inputs interleave differs between runs, so by final table.
                ParityCase.nativeCase("outer-join-into-aggregate", SCHEMA, RegularJoinParityTest.leftRows(),
                        "SELECT L.k, COUNT(*) AS c, COUNT(R.v) AS cr, SUM(R.v) AS sr, MIN(R.d) AS mr, MAX(R.i) AS xr "
                                + "FROM t L LEFT JOIN u R ON L.k = R.k AND L.v < R.v + 300 GROUP BY L.k")
                        .withDdl(RegularJoinParityTest.RIGHT_TABLE).asMultiset(),
                // c is a BIGINT NOT NULL: the sums and extremes of it are NOT NULL too.
                group("retracting-not-null", "SELECT MOD(c, 3) AS m, SUM(c) AS sc, SUM(CAST(c AS INT)) AS si, "
                        + "MIN(c) AS mn, MAX(c) AS mx, AVG(c) AS ac FROM (" + INNER + ") GROUP BY MOD(c, 3)"),
                group("retracting-string-min", "SELECT c, MIN(k) AS mk FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) GROUP BY c")
                        .expecting(Expectation.fallback("MIN(VARCHAR(2147483647)) over input with retractions")),
                // With a state TTL every update is emitted, equal results too (none expires here).
                group("state-ttl", "SELECT k, COUNT(*) AS c FROM t GROUP BY k").with("table.exec.state.ttl", "1 h"),
                group("state-ttl-equal-results", "SELECT k, MAX(v) AS mx FROM t GROUP BY k").with("table.exec.state.ttl", "1 h"),
                group("state-ttl-retracting", "SELECT c, COUNT(*) AS n, MAX(sv) AS mx FROM (" + INNER + ") GROUP BY c")
                        .with("table.exec.state.ttl", "1 h"),
                group("state-ttl-distinct", "SELECT k, COUNT(DISTINCT v) AS dv FROM t GROUP BY k").with("table.exec.state.ttl", "1 h")
                        .expecting(Expectation.fallback("DISTINCT) with a state TTL")),
                // Flink would write RocksDB's heap timers to the raw keyed state native state takes.
                group("rocksdb-heap-timers", "SELECT k, COUNT(*) AS c FROM t GROUP BY k").with("state.backend.type", "rocksdb")
                        .with("state.backend.rocksdb.timer-service.factory", "HEAP")
                        .expecting(Expectation.fallback("heap timers")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }

    /**
     * The mini-batch cases run what they claim: Flink plans a mini-batch assigner on processing
     * time before a one-phase aggregation, the bundles make a shorter changelog than the same
     * aggregation row by row, and TWO_PHASE (and AUTO) plan a local and a global phase.
     */
    @Test
    void miniBatchesBundleRows() {
        String query = "SELECT k, COUNT(*) AS c FROM t GROUP BY k";
        ParityCase c = miniBatch("mini-batch", query, 7);
        String plan = ParityHarness.newEnv(c, false).explainSql(query);
        assertTrue(plan.contains("MiniBatchAssigner(interval=[8640000000000ms], mode=[ProcTime])"), plan);
        assertTrue(plan.contains("GroupAggregate(groupBy=[k]"), plan);
        int bundled = ParityHarness.collect(ParityHarness.newEnv(c, true), query).rows().size();
        int perRow = ParityHarness.collect(ParityHarness.newEnv(group("per-row", query), true), query).rows().size();
        assertTrue(bundled < perRow, "bundled changelog " + bundled + " rows, row by row " + perRow);
        String twoPhase = ParityHarness.newEnv(twoPhase("two-phase", query, 7), false).explainSql(query);
        assertTrue(twoPhase.contains("LocalGroupAggregate(groupBy=[k]") && twoPhase.contains("GlobalGroupAggregate(groupBy=[k]"), twoPhase);
        String auto = ParityHarness.newEnv(c.with("table.optimizer.agg-phase-strategy", "AUTO"), false).explainSql(query);
        assertTrue(auto.contains("LocalGroupAggregate(groupBy=[k]"), auto);
    }

    /**
     * The inner aggregation's changelog reaches the outer one through a columnar exchange (its
     * RowKinds in a column of the batches), as the source's rows reach the inner one.
     */
    @Test
    void aChangelogCrossesAColumnarExchange() {
        ParityCase c = group("retracting-input", "SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) GROUP BY c");
        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, true, "");
        String explained = tEnv.explainSql(c.query());
        String plan = explained.substring(explained.indexOf("== Optimized Physical Plan =="), explained.indexOf("== Optimized Execution Plan =="));
        assertEquals(2, Pattern.compile("SluiceExchange\\(").matcher(plan).results().count(), plan);
    }
}
