package io.sluice;

import io.sluice.Sluice;
import io.sluice.planner.Verdict;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsSinkFactory;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Regular joins (no time bounds) against stock Flink's StreamingJoinOperator: two tables that
 * only insert, joined on keys of every join type Flink runs there (INNER, LEFT, RIGHT, FULL, and
 * SEMI/ANTI for IN, EXISTS and NOT EXISTS),
 * with a condition on both rows, NULL keys (matching nothing, or matching under IS NOT DISTINCT
 * FROM), repeated rows, and a group aggregation downstream. Outer joins emit a changelog: a
 * padded row (+I) and its retraction (-D) once a row joins it. Inputs that are changelogs
 * (aggregations, deduplications, outer joins) join with their updates and deletes, kept in
 * state by their unique keys as Flink keeps them. Flink emits one row's matches in its state
 * map's order, so outputs compare as multisets (changelogs by their final tables).
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
                // State TTLs (none expires here): the table config's for both inputs, and a
                // STATE_TTL hint per input; into an aggregation with the same TTL.
                join("state-ttl", "FULL", " AND L.v < R.v + 300").with("table.exec.state.ttl", "1 h"),
                joinCase("state-ttl-hint", "SELECT /*+ STATE_TTL('L' = '1 h', 'R' = '2 d') */ " + BOTH
                        + " FROM t L LEFT JOIN u R ON L.k = R.k"),
                joinCase("state-ttl-changelog-into-aggregate", "SELECT L.k, COUNT(*) AS c, SUM(R.c) AS sc FROM t L LEFT JOIN "
                        + AGG_U + " R ON L.k = R.k GROUP BY L.k").with("table.exec.state.ttl", "1 h"),
                // Changelog inputs: an aggregation's updates (-U/+U), its unique key the join
                // key (one row per join key in state) or beyond it (one row per unique key).
                joinCase("changelog-inner", "SELECT L.k, L.v, R.c, R.s FROM t L JOIN " + AGG_U + " R ON L.k = R.k"),
                joinCase("changelog-left", "SELECT L.k, L.v, R.c, R.s FROM t L LEFT JOIN " + AGG_U + " R ON L.k = R.k AND R.c > 12"),
                joinCase("changelog-right", "SELECT L.k, L.v, R.k AS rk, R.c FROM t L RIGHT JOIN " + AGG_U + " R ON L.k = R.k AND L.v < R.s"),
                joinCase("changelog-full", "SELECT L.k, L.v, R.k AS rk, R.c FROM t L FULL JOIN " + AGG_U + " R ON L.k = R.k AND L.i < R.c - 10"),
                joinCase("changelog-both-sides", "SELECT L.k, L.mv, R.k AS rk, R.c FROM (SELECT k, MAX(v) AS mv FROM t GROUP BY k) L "
                        + "FULL JOIN " + AGG_U + " R ON L.k = R.k AND L.mv > R.s / 20"),
                joinCase("changelog-unique-key-beyond-join-key", "SELECT L.k, L.v, R.i AS ri, R.c FROM t L LEFT JOIN "
                        + "(SELECT k, i, COUNT(*) AS c FROM u GROUP BY k, i) R ON L.k = R.k"),
                joinCase("changelog-semi", "SELECT L.k, L.v FROM t L WHERE L.k IN (SELECT k FROM " + AGG_U + " WHERE c > 12)"),
                joinCase("changelog-anti", "SELECT L.k, L.v, L.i FROM t L WHERE NOT EXISTS (SELECT * FROM " + AGG_U + " R WHERE R.k = L.k AND R.c > 12 + L.i)"),
                joinCase("changelog-left-semi", "SELECT L.k, L.c FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k) L WHERE L.k IN (SELECT R.k FROM u R WHERE R.v > 500)"),
                // An outer join's changelog has no unique key: rows kept with counts, retracted by content.
                joinCase("changelog-without-unique-key", "SELECT X.k, X.v, X.rv, Y.c FROM (SELECT L.k, L.v, R.v AS rv FROM t L "
                        + "LEFT JOIN u R ON L.k = R.k AND L.i = R.i) X JOIN " + AGG_U + " Y ON X.k = Y.k"),
                joinCase("changelog-into-aggregate", "SELECT L.k, COUNT(*) AS n, SUM(L.v) AS sv, MAX(L.v) AS mv FROM t L JOIN " + AGG_U + " R ON L.k = R.k GROUP BY L.k"),
                joinCase("changelog-full", "SELECT L.k, L.v, R.k AS rk, R.c FROM t L FULL JOIN " + AGG_U + " R ON L.k = R.k AND L.i < R.c - 10")
                        .withParallelism(2),
                // The last row per key (deduplication on event time): a changelog keyed by k.
                joinCase("deduplicated-input", "SELECT L.k, L.v, R.v AS rv FROM t L LEFT JOIN (SELECT k, v FROM (SELECT *, ROW_NUMBER() "
                        + "OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM u) WHERE rn = 1) R ON L.k = R.k"));
    }

    /** A case run with mini-batches of the given size (and a latency no run reaches). */
    static ParityCase miniBatch(ParityCase c, int size) {
        return c.with("table.exec.mini-batch.enabled", "true").with("table.exec.mini-batch.allow-latency", "1 h")
                .with("table.exec.mini-batch.size", String.valueOf(size));
    }

    /**
     * Mini-batch joins (MiniBatchStreamingJoinOperator): bundles of both inputs' rows, folded per
     * input and joined one input after the other, of sizes that flush many times in a run (7,
     * 13, 50) or once at the end (100,000); inputs inserting only (rows kept with counts) and
     * changelogs kept by join key or by unique key, whose updates fold and join as suppressed
     * pairs. SEMI and ANTI joins run without mini-batches in Flink.
     *
     * <p>Where a bundle ends depends on how the two inputs' rows interleave, which differs from
     * run to run in Flink too. An outer join of a changelog whose condition goes beyond the keys
     * then has no one final table: Flink's suppressed pairs assume that an update matches what
     * it replaces, and when it does not, a padded row stays or never comes
     * (docs/internals/flink-minibatch-join.md §4.3). Such joins run here with bundles that only
     * the end of input flushes; the others flush many times.
     */
    static List<ParityCase> miniBatchCases() {
        return List.of(
                miniBatch(join("mini-batch-inner", "", ""), 7),
                miniBatch(join("mini-batch-left", "LEFT", ""), 50),
                miniBatch(join("mini-batch-right-condition", "RIGHT", " AND R.i <> L.i"), 7),
                miniBatch(join("mini-batch-full", "FULL", " AND L.v < R.v + 100"), 100_000),
                miniBatch(join("mini-batch-full", "FULL", " AND L.i <> R.i").withParallelism(2), 13),
                miniBatch(joinCase("mini-batch-semi", "SELECT L.k, L.v FROM t L WHERE EXISTS (SELECT * FROM u R WHERE R.k = L.k AND R.i = L.i)"), 7),
                miniBatch(joinCase("mini-batch-changelog-inner", "SELECT L.k, L.v, R.c, R.s FROM t L JOIN " + AGG_U
                        + " R ON L.k = R.k AND L.v > R.s / 40"), 7),
                miniBatch(joinCase("mini-batch-changelog-left", "SELECT L.k, L.v, R.c, R.s FROM t L LEFT JOIN " + AGG_U + " R ON L.k = R.k"), 7),
                miniBatch(joinCase("mini-batch-changelog-left-condition", "SELECT L.k, L.v, R.c, R.s FROM t L LEFT JOIN " + AGG_U
                        + " R ON L.k = R.k AND R.c > 12"), 100_000),
                miniBatch(joinCase("mini-batch-changelog-right", "SELECT L.k, L.v, R.k AS rk, R.c FROM t L RIGHT JOIN " + AGG_U
                        + " R ON L.k = R.k"), 13),
                miniBatch(joinCase("mini-batch-changelog-both-sides", "SELECT L.k, L.mv, R.k AS rk, R.c FROM (SELECT k, MAX(v) AS mv "
                        + "FROM t GROUP BY k) L FULL JOIN " + AGG_U + " R ON L.k = R.k"), 7),
                miniBatch(joinCase("mini-batch-changelog-both-sides-condition", "SELECT L.k, L.mv, R.k AS rk, R.c FROM (SELECT k, "
                        + "MAX(v) AS mv FROM t GROUP BY k) L FULL JOIN " + AGG_U + " R ON L.k = R.k AND L.mv > R.s / 20"), 100_000),
                miniBatch(joinCase("mini-batch-changelog-unique-key-beyond-join-key", "SELECT L.k, L.v, R.i AS ri, R.c FROM t L LEFT JOIN "
                        + "(SELECT k, i, COUNT(*) AS c FROM u GROUP BY k, i) R ON L.k = R.k"), 7),
                miniBatch(joinCase("mini-batch-changelog-without-unique-key", "SELECT X.k, X.v, X.rv, Y.c FROM (SELECT L.k, L.v, R.v AS rv "
                        + "FROM t L LEFT JOIN u R ON L.k = R.k AND L.i = R.i) X JOIN " + AGG_U + " Y ON X.k = Y.k"), 50),
                miniBatch(joinCase("mini-batch-into-aggregate", "SELECT L.k, COUNT(R.v) AS c, SUM(L.v) AS sv FROM t L JOIN u R "
                        + "ON L.k = R.k GROUP BY L.k"), 7),
                miniBatch(join("mini-batch-state-ttl", "FULL", " AND L.v < R.v + 300").with("table.exec.state.ttl", "1 h"), 7));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("miniBatchCases")
    void miniBatchMatchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }

    /** u aggregated per key: a changelog (-U/+U) whose unique key is k. */
    static final String AGG_U = "(SELECT k, COUNT(*) AS c, SUM(v) AS s FROM u GROUP BY k)";

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }

    /** A join into an upsert sink: its primary key, and the query writing it. */
    record UpsertCase(String name, String columns, String query) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<UpsertCase> upsertCases() {
        String maxT = "(SELECT k, MAX(v) AS mv FROM t GROUP BY k)";
        return List.of(
                // Both inputs unique on the join key: one row per join key in state.
                new UpsertCase("join-key-unique", "k STRING, c BIGINT, mv BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                        "SELECT R.k, R.c, L.mv FROM (SELECT k, COUNT(*) AS c FROM u WHERE k IS NOT NULL GROUP BY k) R "
                                + "LEFT JOIN " + maxT + " L ON R.k = L.k"),
                // R unique on (k, i), joined on k: one row per unique key, an update replacing it.
                new UpsertCase("unique-key-beyond-join-key", "k STRING, i INT, c BIGINT, mv BIGINT, PRIMARY KEY (k, i) NOT ENFORCED",
                        "SELECT R.k, R.i, R.c, L.mv FROM (SELECT k, COALESCE(i, -1) AS i, COUNT(*) AS c FROM u WHERE k IS NOT NULL "
                                + "GROUP BY k, COALESCE(i, -1)) R LEFT JOIN " + maxT + " L ON R.k = L.k"),
                // The last row per (k, i), whose flag flips back and forth: kept by content,
                // an earlier copy would come back and join.
                new UpsertCase("deduplicated-unique-key-beyond-join-key", "k STRING, i INT, pos INT, mv BIGINT, PRIMARY KEY (k, i) NOT ENFORCED",
                        "SELECT R.k, R.i, R.pos, L.mv FROM (SELECT k, i, CAST(v > 0 AS INT) AS pos FROM (SELECT *, ROW_NUMBER() OVER "
                                + "(PARTITION BY k, i ORDER BY ts DESC) AS rn FROM (SELECT k, COALESCE(i, -1) AS i, v, ts FROM u "
                                + "WHERE k IS NOT NULL)) WHERE rn = 1) R LEFT JOIN " + maxT + " L ON R.k = L.k"),
                new UpsertCase("deduplicated-join-key-unique", "k STRING, pos INT, mv BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                        "SELECT R.k, R.pos, L.mv FROM (SELECT k, CAST(v > 0 AS INT) AS pos FROM (SELECT *, ROW_NUMBER() OVER "
                                + "(PARTITION BY k ORDER BY ts DESC) AS rn FROM u WHERE k IS NOT NULL) WHERE rn = 1) R "
                                + "LEFT JOIN " + maxT + " L ON R.k = L.k"),
                new UpsertCase("inner-unique-key-beyond-join-key", "k STRING, i INT, c BIGINT, mv BIGINT, PRIMARY KEY (k, i) NOT ENFORCED",
                        "SELECT R.k, R.i, R.c, L.mv FROM (SELECT k, COALESCE(i, -1) AS i, COUNT(*) AS c FROM u WHERE k IS NOT NULL "
                                + "GROUP BY k, COALESCE(i, -1)) R JOIN " + maxT + " L ON R.k = L.k"));
    }

    /**
     * Under an upsert sink Flink asks an input whose unique key contains its join key for updates
     * without UPDATE_BEFORE (FlinkChangelogModeInferenceProgram): the join then keeps the input's
     * rows by unique key, an update replacing its row (kept by content instead, an outdated row
     * would join again). The plan is asserted to read such inputs; the sink's final tables (by
     * primary key) must be equal.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("upsertCases")
    void upsertSinkMatchesFlink(UpsertCase c) throws Exception {
        ParityCase base = ParityCase.nativeCase(c.name(), SCHEMA, leftRows(), c.query()).withDdl(RIGHT_TABLE);
        Map<Boolean, Map<String, String>> tables = new HashMap<>();
        for (boolean sluice : new boolean[] {false, true}) {
            // t's rows come slowly: most of its updates find u's rows, and their updates, kept.
            StreamTableEnvironment tEnv = ParityHarness.newEnv(base, sluice, ", 'delay-ms' = '2'");
            String sink = "upsert-" + c.name() + "-" + sluice + "-" + System.nanoTime();
            tEnv.executeSql("CREATE TABLE snk (" + c.columns() + ") WITH ('connector' = '" + RowsSinkFactory.IDENTIFIER
                    + "', 'sink-id' = '" + sink + "', 'changelog' = 'upsert')");
            String insert = "INSERT INTO snk " + c.query();
            if (sluice) {
                Verdict verdict = Sluice.verdict(tEnv, insert);
                assertTrue(verdict.isNative(), () -> c.name() + ": expected native, got\n" + verdict);
            } else {
                String plan = tEnv.explainSql(insert, ExplainDetail.CHANGELOG_MODE);
                assertTrue(plan.lines().anyMatch(l -> l.contains("GroupAggregate(") && l.contains("changelogMode=[I,UA]")),
                        () -> c.name() + ": no input sends updates without UPDATE_BEFORE:\n" + plan);
                assertFalse(plan.contains("upsertMaterialize=[true]"),
                        () -> c.name() + ": the sink materializes upserts:\n" + plan);
            }
            long before = ParityHarness.nativeBatches();
            tEnv.executeSql(insert).await();
            if (sluice) {
                assertTrue(ParityHarness.nativeBatches() > before, c.name() + ": no batch ran natively");
            }
            tables.put(sluice, upserted(RowsSinkFactory.rows(sink), c.columns()));
        }
        assertFalse(tables.get(false).isEmpty(), c.name() + ": Flink wrote nothing");
        assertEquals(new TreeMap<>(tables.get(false)), new TreeMap<>(tables.get(true)),
                c.name() + ": final tables differ");
    }

    /** An upsert sink's final table: per primary key (the leading columns named in it), its last row. */
    static Map<String, String> upserted(List<Row> changelog, String columns) {
        int keys = columns.substring(columns.indexOf("PRIMARY KEY (")).split(",").length;
        Map<String, String> table = new HashMap<>();
        for (Row r : changelog) {
            StringBuilder key = new StringBuilder();
            for (int f = 0; f < keys; f++) {
                key.append(r.getField(f)).append('|');
            }
            if (r.getKind() == RowKind.DELETE) {
                table.remove(key.toString());
            } else {
                assertNotEquals(RowKind.UPDATE_BEFORE, r.getKind(), "an upsert sink got " + r);
                Row plain = Row.copy(r);
                plain.setKind(RowKind.INSERT);
                table.put(key.toString(), plain.toString());
            }
        }
        return table;
    }
}
