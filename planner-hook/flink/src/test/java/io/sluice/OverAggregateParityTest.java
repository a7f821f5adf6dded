package io.sluice;

import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * OVER aggregations on event time against stock Flink's RowTime*PrecedingFunctions: ROWS and
 * RANGE frames from UNBOUNDED PRECEDING, N PRECEDING rows and an INTERVAL PRECEDING, with
 * and without partition keys, both unbounded OVER versions, over rows that come out of order
 * (late ones dropped, by the watermark or, on bounded frames, by the key's last fired time) and
 * rows sharing their times (a RANGE frame gives them one result). Results are compared as
 * multisets: the rows one watermark fires come out in the order of Flink's timer heap.
 */
class OverAggregateParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    static final String AGGS = "COUNT(*) OVER w AS c, COUNT(v) OVER w AS cv, SUM(v) OVER w AS sv, MIN(v) OVER w AS mnv, "
            + "MAX(v) OVER w AS mxv, AVG(v) OVER w AS av, SUM(i) OVER w AS si, AVG(i) OVER w AS ai, MAX(i) OVER w AS mxi";

    /** Floating-point aggregates, whose results depend on the order of additions and retractions. */
    static final String DOUBLE_AGGS = "SUM(d) OVER w AS sd, AVG(d) OVER w AS ad, MIN(d) OVER w AS mnd, MAX(d) OVER w AS mxd";

    static String over(String aggs, String window) {
        return "SELECT k, v, d, i, ts, " + aggs + " FROM t WINDOW w AS (" + window + ")";
    }

    /** An OVER aggregation on processing time, compared in order. */
    static ParityCase procTimeCase(String name, String aggs, String window) {
        return ParityCase.nativeCase(name, DeduplicateParityTest.PROCTIME_SCHEMA, WindowAggregateParityTest.rows(),
                "SELECT k, v, d, i, ts, " + aggs + " FROM t WINDOW w AS (" + window + ")");
    }

    static ParityCase overCase(String name, String aggs, String window) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), over(aggs, window)).asMultiset();
    }

    /**
     * Rows on whole seconds, so that many share their time, a fifth of them up to 3 s out of
     * order; five keys and a NULL one.
     */
    static List<Row> tiedRows() {
        Random rnd = new Random(23);
        List<Row> rows = new ArrayList<>();
        String[] keys = {"a", "b", "c", "d", "e", null};
        long second = 0;
        for (int n = 0; n < 300; n++) {
            if (rnd.nextInt(4) == 0) {
                second += 1 + rnd.nextInt(3);
            }
            long at = rnd.nextInt(5) == 0 ? second - rnd.nextInt(4) : second;
            Long v = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(1000) - 300;
            Double d = rnd.nextInt(8) == 0 ? null : (double) (rnd.nextInt(64) - 32) / 4;
            Integer i = rnd.nextInt(8) == 0 ? null : rnd.nextInt(5);
            rows.add(Row.of(keys[rnd.nextInt(keys.length)], v, d, i, WindowAggregateParityTest.BASE.plusSeconds(at)));
        }
        return rows;
    }

    static ParityCase tiedCase(String name, String aggs, String window) {
        return ParityCase.nativeCase(name, SCHEMA, tiedRows(), over(aggs, window)).asMultiset();
    }

    /** Rows around the epoch: a bounded frame drops a new key's rows at or before time 0. */
    static List<Row> epochRows() {
        List<Row> rows = new ArrayList<>();
        LocalDateTime epoch = LocalDateTime.of(1970, 1, 1, 0, 0, 0);
        for (int n = 0; n < 60; n++) {
            rows.add(Row.of(n % 3 == 0 ? "a" : "b", (long) n, (double) n, n % 4, epoch.plusSeconds(n / 3 - 8)));
        }
        return rows;
    }

    static final String UNBOUNDED_ROWS = "PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    static final String UNBOUNDED_RANGE = "PARTITION BY k ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    static final String ROWS_3 = "PARTITION BY k ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW";
    static final String RANGE_2S = "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW";

    static List<ParityCase> cases() {
        return List.of(
                overCase("unbounded-rows", AGGS + ", " + DOUBLE_AGGS + ", MAX(k) OVER w AS mxk", UNBOUNDED_ROWS),
                overCase("unbounded-range", AGGS + ", " + DOUBLE_AGGS, UNBOUNDED_RANGE),
                tiedCase("unbounded-range-ties", AGGS + ", " + DOUBLE_AGGS, UNBOUNDED_RANGE),
                tiedCase("unbounded-rows-ties", AGGS, UNBOUNDED_ROWS),
                overCase("unbounded-rows-version-1", AGGS, UNBOUNDED_ROWS).with("table.exec.unbounded-over.version", "1"),
                tiedCase("unbounded-range-version-1", AGGS, UNBOUNDED_RANGE).with("table.exec.unbounded-over.version", "1"),
                overCase("unbounded-no-partition", AGGS, "ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"),
                overCase("unbounded-two-keys", AGGS, "PARTITION BY k, i ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"),
                overCase("rows-3-preceding", AGGS + ", " + DOUBLE_AGGS, ROWS_3),
                tiedCase("rows-3-preceding-ties", AGGS + ", " + DOUBLE_AGGS, ROWS_3),
                tiedCase("rows-0-preceding", AGGS, "PARTITION BY k ORDER BY ts ROWS BETWEEN 0 PRECEDING AND CURRENT ROW"),
                overCase("rows-3-preceding", AGGS, ROWS_3).withParallelism(2),
                overCase("range-2s", AGGS + ", MIN(d) OVER w AS mnd, MAX(d) OVER w AS mxd", RANGE_2S),
                tiedCase("range-2s-ties", AGGS + ", MIN(d) OVER w AS mnd, MAX(d) OVER w AS mxd", RANGE_2S),
                tiedCase("range-2s", AGGS, RANGE_2S).withParallelism(2),
                tiedCase("range-0s", AGGS, "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '0' SECOND PRECEDING AND CURRENT ROW"),
                tiedCase("range-no-partition", AGGS, "ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW"),
                ParityCase.nativeCase("bounded-around-the-epoch", SCHEMA, epochRows(), over(AGGS, ROWS_3)).asMultiset(),
                ParityCase.nativeCase("range-around-the-epoch", SCHEMA, epochRows(), over(AGGS, RANGE_2S)).asMultiset(),
                ParityCase.nativeCase("unbounded-around-the-epoch", SCHEMA, epochRows(), over(AGGS, UNBOUNDED_ROWS)).asMultiset(),
                ParityCase.nativeCase("unbounded-version-1-around-the-epoch", SCHEMA, epochRows(), over(AGGS, UNBOUNDED_RANGE))
                        .with("table.exec.unbounded-over.version", "1").asMultiset(),
                // An OVER aggregation feeding a window aggregation in the same job.
                ParityCase.nativeCase("into-a-window-aggregation", SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT k, window_start, window_end, SUM(c) AS c, MAX(sv) AS sv, MIN(mnv) AS mnv "
                                + "FROM TABLE(TUMBLE(TABLE o, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end")
                        .withDdl("CREATE TEMPORARY VIEW o AS SELECT k, ts, COUNT(*) OVER w AS c, SUM(v) OVER w AS sv, MIN(v) OVER w AS mnv "
                                + "FROM t WINDOW w AS (" + ROWS_3 + ")")
                        .asMultiset(),
                overCase("range-double-sum", "SUM(d) OVER w AS sd", RANGE_2S)
                        .expecting(Expectation.fallback("state backend's map order")),
                overCase("bounded-string-min", "MIN(k) OVER w AS mnk", ROWS_3)
                        .expecting(Expectation.fallback("with retractions")),
                // Processing time: each row aggregated and emitted as it arrives (the order of the
                // source at parallelism 1); RANGE unbounded is the same function as ROWS.
                procTimeCase("proctime-unbounded-rows", AGGS + ", " + DOUBLE_AGGS + ", MAX(k) OVER w AS mxk",
                        "PARTITION BY k ORDER BY pt ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"),
                procTimeCase("proctime-unbounded-range", AGGS, "PARTITION BY k ORDER BY pt RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"),
                procTimeCase("proctime-rows-3-preceding", AGGS + ", " + DOUBLE_AGGS, "PARTITION BY k ORDER BY pt ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"),
                procTimeCase("proctime-rows-3-preceding", AGGS, "PARTITION BY k ORDER BY pt ROWS BETWEEN 3 PRECEDING AND CURRENT ROW")
                        .withParallelism(2).asMultiset(),
                procTimeCase("proctime-no-partition", AGGS, "ORDER BY pt ROWS BETWEEN 2 PRECEDING AND CURRENT ROW"),
                procTimeCase("proctime-rows-0-preceding", AGGS, "PARTITION BY k ORDER BY pt ROWS BETWEEN 0 PRECEDING AND CURRENT ROW")
                        .expecting(Expectation.fallback("current row alone on processing time")),
                procTimeCase("proctime-range-2s", AGGS, "PARTITION BY k ORDER BY pt RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW")
                        .expecting(Expectation.fallbackTimerDriven("bounded RANGE OVER frame on processing time")),
                overCase("state-ttl", AGGS, ROWS_3).with("table.exec.state.ttl", "1 h")
                        .expecting(Expectation.fallback("state TTL")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
