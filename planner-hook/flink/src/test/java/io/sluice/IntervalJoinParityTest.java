package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interval joins against stock Flink's RowTimeIntervalJoin (and ProcTimeIntervalJoin, in the
 * cases whose rows do not depend on when they arrive): two tables joined on a
 * key and on bounds of the difference of their event times, of every join type Flink plans
 * (INNER, LEFT, RIGHT, FULL), with symmetric, one-sided and strict bounds, a condition on both
 * rows, NULL keys (matching nothing, or matching under IS NOT DISTINCT FROM), TIMESTAMP_LTZ time
 * attributes, the cleanup slack
 * of table.exec.interval-join.min-cleanup-interval, and a window aggregation downstream that
 * sees the watermarks the join holds back. The rows are those of the window join suite: never
 * later than their own input's watermark, since which late rows join depends on how the two
 * inputs interleave (in Flink as in Sluice). Outputs compare as multisets.
 */
class IntervalJoinParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String BOTH = "L.k, L.v, L.i, L.ts, R.v AS rv, R.i AS ri, R.ts AS rts";
    static final String WITHIN_2S = "L.ts BETWEEN R.ts - INTERVAL '2' SECOND AND R.ts + INTERVAL '2' SECOND";

    /** BOTH with one time attribute left (a sink takes one): R.ts cast to a plain TIMESTAMP. */
    static final String BOTH_ONE_ROWTIME = BOTH.replace("R.ts AS rts", "CAST(R.ts AS TIMESTAMP(3)) AS rts");

    /** t L [type] JOIN u R on k and the time bounds, with an extra condition. */
    static ParityCase join(String name, String type, String bounds, String condition) {
        return join(name, BOTH, type, bounds, condition);
    }

    static ParityCase join(String name, String select, String type, String bounds, String condition) {
        return joinCase(name, "SELECT " + select + " FROM t L " + type + " JOIN u R ON L.k = R.k AND " + bounds + condition);
    }

    static ParityCase joinCase(String name, String query) {
        return ParityCase.nativeCase(name, WindowJoinParityTest.SCHEMA, WindowJoinParityTest.leftRows(), query)
                .asMultiset().withDdl(WindowJoinParityTest.RIGHT_TABLE);
    }

    /** Rows with their event times as instants (read at UTC). */
    static List<Row> instants(List<Row> rows) {
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3),
                    ((LocalDateTime) r.getField(4)).toInstant(ZoneOffset.UTC)));
        }
        return out;
    }

    /** Table u of the right rows with TIMESTAMP_LTZ event times. */
    static final String RIGHT_LTZ_TABLE = "CREATE TABLE u (" + WindowAggregateParityTest.LTZ_SCHEMA + ") WITH ('connector' = '"
            + RowsTableFactory.IDENTIFIER + "', 'data-id' = '" + RowsTableFactory.register(instants(WindowJoinParityTest.rightRows()))
            + "')";

    /**
     * The window join suite's columns with a processing-time attribute pt instead of the
     * event-time one (Flink refuses a processing-time interval join of inputs with event-time
     * attributes).
     */
    static final String PROCTIME_SCHEMA = "k STRING, v BIGINT, d DOUBLE, i INT, ts TIMESTAMP(3), pt AS PROCTIME()";

    /** Table u of the right rows with a processing-time attribute pt. */
    static final String RIGHT_PROCTIME_TABLE = "CREATE TABLE u (" + PROCTIME_SCHEMA + ") WITH ('connector' = '"
            + RowsTableFactory.IDENTIFIER + "', 'data-id' = '" + WindowJoinParityTest.RIGHT_ID + "')";

    /** Rows of both inputs arrive well within an hour of each other: every pair joins. */
    static final String PT_WITHIN_1H = "L.pt BETWEEN R.pt - INTERVAL '1' HOUR AND R.pt + INTERVAL '1' HOUR";

    /**
     * A processing-time interval join (ProcTimeIntervalJoin): t L [type] JOIN u R on k and bounds
     * of the two rows' arrival times. Which rows join depends on when they arrive, so the cases
     * take bounds whose outcome does not: an hour (every pair within the test's run joins, no
     * cleanup timer fires before the end of input), or equal times (no row is ever cached, so
     * none joins and every row of an outer side comes out padded at once).
     */
    static ParityCase procTimeJoin(String name, String type, String bounds, String condition) {
        return ParityCase.nativeCase(name, PROCTIME_SCHEMA, WindowJoinParityTest.leftRows(),
                        "SELECT " + BOTH + " FROM t L " + type + " JOIN u R ON L.k = R.k AND " + bounds + condition)
                .asMultiset().withDdl(RIGHT_PROCTIME_TABLE);
    }

    static List<ParityCase> cases() {
        String leftJoinView = "CREATE TEMPORARY VIEW j AS SELECT " + BOTH + " FROM t L LEFT JOIN u R ON L.k = R.k AND "
                + WITHIN_2S;
        return List.of(
                join("inner", "", WITHIN_2S, ""),
                join("inner-condition", "", WITHIN_2S, " AND L.v > R.v"),
                join("left-later", "LEFT", "L.ts BETWEEN R.ts + INTERVAL '1' SECOND AND R.ts + INTERVAL '4' SECOND", ""),
                join("right-earlier", "RIGHT", "R.ts BETWEEN L.ts - INTERVAL '3' SECOND AND L.ts", " AND R.i <> L.i"),
                join("full-condition", "FULL", "L.ts BETWEEN R.ts - INTERVAL '1' SECOND AND R.ts + INTERVAL '1' SECOND",
                        " AND L.v < R.v + 100"),
                join("inner-strict", "", "L.ts > R.ts - INTERVAL '2' SECOND AND L.ts < R.ts + INTERVAL '1' SECOND", ""),
                join("same-instant", "FULL", "L.ts = R.ts", ""),
                joinCase("null-keys-match", "SELECT " + BOTH + " FROM t L LEFT JOIN u R ON L.k IS NOT DISTINCT FROM R.k AND "
                        + WITHIN_2S),
                join("left-slack", "LEFT", WITHIN_2S, "")
                        .with("table.exec.interval-join.min-cleanup-interval", "3 s"),
                // The window aggregation after the join sees the watermarks held back by 2 s; the
                // padded rows of the LEFT join come with the watermark that expires them.
                joinCase("left-into-tumble", "SELECT window_start, COUNT(*) AS n, COUNT(rv) AS matched, SUM(v) AS v "
                        + "FROM TABLE(TUMBLE(TABLE j, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end")
                        .withDdl(leftJoinView),
                // TIMESTAMP_LTZ time attributes (epoch milliseconds, in any session zone).
                ParityCase.nativeCase("ltz-left", WindowAggregateParityTest.LTZ_SCHEMA, instants(WindowJoinParityTest.leftRows()),
                        "SELECT " + BOTH + " FROM t L LEFT JOIN u R ON L.k = R.k AND " + WITHIN_2S)
                        .asMultiset().withDdl(RIGHT_LTZ_TABLE).with("table.local-time-zone", "America/New_York"),
                join("inner", "", WITHIN_2S, "").withParallelism(2),
                join("full", "FULL", WITHIN_2S, " AND L.i <> R.i").withParallelism(2),
                // Bounds of negative size: Flink plans a union of filters and paddings, no join.
                join("negative-size", "LEFT", "L.ts BETWEEN R.ts + INTERVAL '2' SECOND AND R.ts - INTERVAL '2' SECOND", "")
                        .expecting(Expectation.fallback("negative size")),
                join("row-exchanges", "", WITHIN_2S, "").with("sluice.exchange.columnar", "false")
                        .expecting(Expectation.fallback("columnar exchanges")),
                procTimeJoin("proctime-inner", "", PT_WITHIN_1H, ""),
                procTimeJoin("proctime-left-condition", "LEFT", PT_WITHIN_1H, " AND L.v > R.v"),
                procTimeJoin("proctime-right", "RIGHT", PT_WITHIN_1H, " AND R.i <> L.i"),
                procTimeJoin("proctime-full", "FULL", PT_WITHIN_1H, " AND L.i <> R.i").withParallelism(2),
                procTimeJoin("proctime-equal-times", "FULL", "L.pt = R.pt", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }

    /**
     * A processing-time LEFT join with bounds of 200 ms in a running job (parallelism 2, both
     * inputs arriving a row every 2 ms): which rows join depends on timing, so this checks what
     * holds for any timing. The job is native; cleanup timers fire while it runs, padding the
     * left rows of keys the right input never has; a left row either joins or is padded, never
     * both; no pair comes out twice; every pair joins equal keys.
     */
    @Test
    void procTimeCleanupInARunningJob() {
        List<Row> lefts = new ArrayList<>();
        List<Row> rights = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            lefts.add(Row.of("k" + (i % 6), (long) i));
            rights.add(Row.of("k" + (i % 3) * 2, 10_000L + i)); // k0, k2, k4 only
        }
        String schema = "k STRING, v BIGINT, pt AS PROCTIME()";
        String rightTable = "CREATE TABLE u (" + schema + ") WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(rights) + "', 'delay-ms' = '2')";
        ParityCase pc = ParityCase.nativeCase("running", schema, lefts, "").withParallelism(2).withDdl(rightTable);
        StreamTableEnvironment tEnv = ParityHarness.newEnv(pc, true, ", 'delay-ms' = '2'");
        String q = "SELECT L.k, L.v, R.k AS rk, R.v AS rv FROM t L LEFT JOIN u R ON L.k = R.k "
                + "AND L.pt BETWEEN R.pt - INTERVAL '0.2' SECOND AND R.pt + INTERVAL '0.2' SECOND";
        Verdict verdict = Sluice.verdict(tEnv, q);
        assertTrue(verdict.isNative(), verdict::toString);
        long batches = NativeChainOperator.batches("stream-exec-interval-join_1");
        ParityHarness.Outcome out = ParityHarness.collect(tEnv, q);
        assertTrue(out.failure() == null, () -> "the job failed: " + out.failure());
        Set<Long> padded = new HashSet<>();
        Set<Long> joined = new HashSet<>();
        Set<String> pairs = new HashSet<>();
        for (Row r : out.rows()) {
            long v = (Long) r.getField(1);
            if (r.getField(3) == null) {
                assertTrue(padded.add(v), () -> "a left row padded twice: " + r);
            } else {
                assertEquals(r.getField(0), r.getField(2), () -> "a pair of different keys: " + r);
                assertTrue(pairs.add(v + "+" + r.getField(3)), () -> "a pair emitted twice: " + r);
                joined.add(v);
            }
        }
        assertFalse(padded.isEmpty(), "no cleanup timer padded a left row while the job ran");
        assertFalse(joined.isEmpty(), "no row joined");
        for (long v : padded) {
            assertFalse(joined.contains(v), () -> "left row " + v + " both joined and padded");
        }
        assertTrue(NativeChainOperator.batches("stream-exec-interval-join_1") > batches, "no batch ran natively");
    }
}
