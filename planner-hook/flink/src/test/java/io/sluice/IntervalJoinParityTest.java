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

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Event-time interval joins against stock Flink's RowTimeIntervalJoin: two tables joined on a
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
                        .expecting(Expectation.fallback("columnar exchanges")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
