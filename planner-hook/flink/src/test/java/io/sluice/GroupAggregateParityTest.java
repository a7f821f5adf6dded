package io.sluice;

import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * GROUP BY aggregations outside windows against stock Flink's GroupAggFunction: every input row
 * changes its key's result, and the changelog (+I for a key's first row, -U/+U for a later one
 * whose result differs, nothing when it stays equal) is compared row by row in Flink's order at
 * parallelism 1, as multisets at parallelism 2. Inputs are inserts only; what is not native yet
 * (DISTINCT, retracting inputs, state TTL, mini-batches) falls back with its reason.
 */
class GroupAggregateParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    static ParityCase group(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), query);
    }

    static List<ParityCase> cases() {
        return List.of(
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
                group("distinct", "SELECT k, COUNT(DISTINCT v) AS dv FROM t GROUP BY k")
                        .expecting(Expectation.fallback("DISTINCT")),
                group("retracting-input", "SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) GROUP BY c")
                        .expecting(Expectation.fallback("retractions")),
                group("state-ttl", "SELECT k, COUNT(*) AS c FROM t GROUP BY k").with("table.exec.state.ttl", "1 h")
                        .expecting(Expectation.fallback("state TTL")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
