package io.sluice;

import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * Regular joins (no time bounds) against stock Flink's StreamingJoinOperator: two tables that
 * only insert, joined on keys of every join type Flink runs there (INNER, LEFT, RIGHT, FULL, and
 * SEMI/ANTI for IN, EXISTS and NOT EXISTS),
 * with a condition on both rows, NULL keys (matching nothing, or matching under IS NOT DISTINCT
 * FROM), repeated rows, and a group aggregation downstream. Outer joins emit a changelog: a
 * padded row (+I) and its retraction (-D) once a row joins it. Flink emits one row's matches in
 * its state map's order, so outputs compare as multisets.
 */
class RegularJoinParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    static List<Row> leftRows() {
        List<Row> rows = WindowJoinParityTest.joinRows(5, 160, "a", "b", "c", "d", "e", "f", "g", "h", "Grüße", null);
        rows.addAll(rows.subList(0, 10)); // repeated rows: kept with a count
        return rows;
    }

    static final String RIGHT_TABLE = "CREATE TABLE u (" + SCHEMA + ") WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
            + "', 'data-id' = '" + RowsTableFactory.register(WindowJoinParityTest.joinRows(7, 120, "a", "b", "c", "x", "y", "Grüße", null))
            + "')";

    static final String BOTH = "L.k, L.v, L.i, R.k AS rk, R.v AS rv, R.i AS ri";

    static ParityCase join(String name, String type, String condition) {
        return joinCase(name, "SELECT " + BOTH + " FROM t L " + type + " JOIN u R ON L.k = R.k" + condition);
    }

    static ParityCase joinCase(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, leftRows(), query).asMultiset().withDdl(RIGHT_TABLE);
    }

    static List<ParityCase> cases() {
        return List.of(
                join("inner", "", ""),
                join("inner-condition", "", " AND L.v > R.v"),
                join("left", "LEFT", ""),
                join("left-condition", "LEFT", " AND L.d < R.d"),
                join("right-condition", "RIGHT", " AND R.i <> L.i"),
                join("full", "FULL", " AND L.v < R.v + 100"),
                join("two-keys", "", " AND L.i = R.i"),
                joinCase("null-keys-match", "SELECT " + BOTH + " FROM t L LEFT JOIN u R ON L.k IS NOT DISTINCT FROM R.k"),
                // The inner join's output inserts only: the aggregation after it runs natively too.
                joinCase("inner-into-aggregate", "SELECT L.k, COUNT(*) AS c, SUM(R.v) AS sv, MAX(L.d) AS md "
                        + "FROM t L JOIN u R ON L.k = R.k GROUP BY L.k"),
                join("inner", "", "").withParallelism(2),
                join("full", "FULL", " AND L.i <> R.i").withParallelism(2),
                // The LEFT JOIN's changelog (padded rows deleted) into a retracting aggregation.
                joinCase("left-into-aggregate", "SELECT L.k, COUNT(R.v) AS c FROM t L LEFT JOIN u R ON L.k = R.k GROUP BY L.k"),
                joinCase("semi-in", "SELECT L.k, L.v, L.i FROM t L WHERE L.k IN (SELECT R.k FROM u R WHERE R.v > 0)"),
                joinCase("semi-exists", "SELECT L.k, L.v FROM t L WHERE EXISTS (SELECT * FROM u R WHERE R.k = L.k AND R.i = L.i)"),
                joinCase("anti-not-exists", "SELECT L.k, L.v FROM t L WHERE NOT EXISTS (SELECT * FROM u R WHERE R.k = L.k AND R.v > L.v)"),
                // NOT IN is null-aware: Flink's condition has no equality keys.
                joinCase("anti-not-in", "SELECT L.k, L.v FROM t L WHERE L.k NOT IN (SELECT R.k FROM u R WHERE R.v > 0)")
                        .expecting(Expectation.fallback("equality keys")),
                join("mini-batch", "LEFT", "").with("table.exec.mini-batch.enabled", "true")
                        .with("table.exec.mini-batch.allow-latency", "1 s").with("table.exec.mini-batch.size", "100")
                        .expecting(Expectation.fallback("mini-batch")),
                joinCase("aggregated-input", "SELECT L.k, L.v, R.c FROM t L JOIN (SELECT k, COUNT(*) AS c FROM u GROUP BY k) R ON L.k = R.k")
                        .expecting(Expectation.fallback("")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
