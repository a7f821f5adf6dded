package io.sluice;

import io.sluice.runtime.NativeChainOperator;
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

import static io.sluice.testing.ParityCase.fallback;
import static io.sluice.testing.ParityCase.nativeCase;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native window aggregation against stock Flink (see {@link ParityHarness}): TUMBLE, HOP and
 * CUMULATE windows with offsets, in one phase and in Flink's default two phases (local and
 * global), on out-of-order and late rows, null keys and null inputs.
 *
 * <p>Event times advance in whole seconds, so each rise of the watermark exceeds the auto
 * watermark interval and Flink emits it at once: watermarks fall between the same rows in both
 * runs, whatever the processing-time timers do, and so do late rows.
 */
class WindowAggregateParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = "k STRING, v BIGINT, d DOUBLE, i INT, ts TIMESTAMP(3), "
            + "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";

    static final LocalDateTime BASE = LocalDateTime.of(2024, 3, 1, 12, 0, 0);

    /** The schema with a TIMESTAMP_LTZ time attribute (an instant; windows follow the session zone). */
    static final String LTZ_SCHEMA = SCHEMA.replace("ts TIMESTAMP(3)", "ts TIMESTAMP_LTZ(3)");

    /** rows() with their event times as instants (read at UTC). */
    static List<Row> ltzRows() {
        List<Row> out = new ArrayList<>();
        for (Row r : rows()) {
            out.add(Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3),
                    ((LocalDateTime) r.getField(4)).toInstant(java.time.ZoneOffset.UTC)));
        }
        return out;
    }

    static final String DECIMAL_SCHEMA = "k STRING, p DECIMAL(10, 2), w DECIMAL(38, 4), ts TIMESTAMP(3), "
            + "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";

    /** Prices with nulls, and 38-digit values whose sums overflow DECIMAL(38, 4). */
    static List<Row> decimalRows() {
        Random rnd = new Random(5);
        List<Row> rows = new ArrayList<>();
        java.math.BigDecimal huge = new java.math.BigDecimal("9999999999999999999999999999999999.9999");
        for (int n = 0; n < 200; n++) {
            java.math.BigDecimal p = rnd.nextInt(6) == 0 ? null
                    : java.math.BigDecimal.valueOf(rnd.nextInt(2_000_000) - 1_000_000, 2);
            java.math.BigDecimal w = rnd.nextInt(6) == 0 ? null
                    : rnd.nextInt(3) == 0 ? huge.negate() : huge.subtract(java.math.BigDecimal.valueOf(rnd.nextInt(1000), 4));
            rows.add(Row.of(new String[] {"a", "b", "c"}[rnd.nextInt(3)], p, w, BASE.plusSeconds(n / 4)));
        }
        return rows;
    }

    static final String NANO_KEY_SCHEMA = "k TIMESTAMP(9), v BIGINT, n TIMESTAMP(9), ts TIMESTAMP(3), "
            + "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";

    /**
     * Keys of TIMESTAMP(9) (nanoseconds apart, before 1970, NULL): the key rows' non-compact
     * layout routes them; values n of TIMESTAMP(9) for MIN and MAX (equal milliseconds, other
     * nanoseconds; NULLs).
     */
    static List<Row> nanoKeyRows() {
        Random rnd = new Random(9);
        LocalDateTime[] keys = {LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 2),
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999), LocalDateTime.of(9999, 12, 31, 0, 0), null};
        List<Row> rows = new ArrayList<>();
        for (int n = 0; n < 200; n++) {
            LocalDateTime v = rnd.nextInt(7) == 0 ? null : BASE.plusNanos(rnd.nextInt(5) * 1_000_000L + rnd.nextInt(1000));
            rows.add(Row.of(keys[rnd.nextInt(keys.length)], (long) rnd.nextInt(1000), v, BASE.plusSeconds(n / 4)));
        }
        return rows;
    }

    /**
     * Rows every 90 s (every ninth one 4 minutes late) over the night of each daylight-saving
     * transition of 2024 in Los Angeles and Lord Howe, as instants.
     */
    static List<Row> dstRows() {
        List<Row> out = new ArrayList<>();
        String[] starts = {"2024-03-10T06:00:00Z", "2024-11-03T05:00:00Z", "2024-04-06T12:00:00Z", "2024-10-05T12:00:00Z"};
        Random rnd = new Random(11);
        for (String start : starts) {
            java.time.Instant t0 = java.time.Instant.parse(start);
            for (int n = 0; n < 400; n++) {
                java.time.Instant ts = t0.plusSeconds(90L * n - (n % 9 == 4 ? 240 : 0));
                out.add(Row.of(new String[] {"a", "b", "c"}[rnd.nextInt(3)], (long) rnd.nextInt(1000),
                        rnd.nextDouble(), rnd.nextInt(50), ts));
            }
        }
        return out;
    }

    static ParityCase dst(String name, String zone, String window, boolean twoPhase) {
        ParityCase c = nativeCase(name + (twoPhase ? "-2phase" : ""), LTZ_SCHEMA, dstRows(),
                        query(window, "k", "COUNT(*) AS c, SUM(v) AS sv, MAX(d) AS mxd"))
                .with("table.local-time-zone", zone)
                .asMultiset();
        return twoPhase ? c : c.with("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    static ParityCase ltz(String name, String zone, String window, boolean twoPhase) {
        ParityCase c = nativeCase(name + (twoPhase ? "-2phase" : ""), LTZ_SCHEMA, ltzRows(),
                        query(window, "k", "COUNT(*) AS c, SUM(v) AS sv, MAX(d) AS mxd"))
                .with("table.local-time-zone", zone)
                .asMultiset();
        return twoPhase ? c : c.with("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    /** 300 rows over five keys and a null key: mostly in order, some out of order, some late. */
    static List<Row> rows() {
        return rows(300);
    }

    /** n rows like {@link #rows()}. */
    static List<Row> rows(int count) {
        Random rnd = new Random(11);
        List<Row> rows = new ArrayList<>();
        String[] keys = {"a", "b", "c", "Grüße", "e", null};
        double[] doubles = {1.5, -0.0, 0.0, Double.NaN, 1e300, -2.25, Double.NEGATIVE_INFINITY};
        long second = 0;
        for (int n = 0; n < count; n++) {
            if (rnd.nextInt(3) == 0) {
                second += 1 + rnd.nextInt(2);
            }
            // One row in six is out of order by up to four seconds: late when its windows fired.
            long at = rnd.nextInt(6) == 0 ? second - rnd.nextInt(5) : second;
            String k = keys[rnd.nextInt(keys.length)];
            Long v = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(1000) - 300;
            Double d = rnd.nextInt(8) == 0 ? null : doubles[rnd.nextInt(doubles.length)];
            Integer i = rnd.nextInt(8) == 0 ? null : rnd.nextInt(5);
            rows.add(Row.of(k, v, d, i, BASE.plusSeconds(at).plusNanos(rnd.nextInt(1000) * 1_000_000L)));
        }
        return rows;
    }

    static final String AGGS = "COUNT(*) AS c, COUNT(v) AS cv, SUM(v) AS sv, MIN(v) AS mnv, MAX(v) AS mxv, AVG(v) AS av, "
            + "SUM(d) AS sd, AVG(d) AS ad, MIN(d) AS mnd, MAX(d) AS mxd, SUM(i) AS si, AVG(i) AS ai, MAX(i) AS mxi";

    static final String FILTERED = "COUNT(*) AS c, COUNT(*) FILTER (WHERE v > 0) AS cpos, "
            + "SUM(v) FILTER (WHERE i IS NOT NULL AND d < 1) AS sv, AVG(d) FILTER (WHERE k <> 'a') AS ad, "
            + "MAX(i) FILTER (WHERE v IS NULL) AS mxi";

    static String query(String window, String keys, String aggs) {
        return "SELECT " + keys + ", window_start, window_end, window_time, " + aggs
                + " FROM TABLE(" + window + ") GROUP BY " + keys + ", window_start, window_end, window_time";
    }

    static ParityCase onePhase(String name, String window, String keys, String aggs) {
        return nativeCase(name, SCHEMA, rows(), query(window, keys, aggs))
                .with("table.optimizer.agg-phase-strategy", "ONE_PHASE")
                .asMultiset();
    }

    /** A case with mini-batches, which under an event-time window are cut by event time. */
    static ParityCase rowTimeMiniBatch(ParityCase c, String latency) {
        return c.with("table.exec.mini-batch.enabled", "true").with("table.exec.mini-batch.allow-latency", latency)
                .with("table.exec.mini-batch.size", "5");
    }

    /** Flink's default plan for event-time windows: local and global aggregation. */
    static ParityCase twoPhase(String name, String window, String keys, String aggs) {
        return nativeCase(name + "-2phase", SCHEMA, rows(), query(window, keys, aggs)).asMultiset();
    }

    static List<ParityCase> cases() {
        String tumble = "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)";
        return List.of(
                onePhase("tumble", tumble, "k", AGGS),
                onePhase("tumble-offset", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '2' SECOND)", "k", AGGS),
                onePhase("hop", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k", AGGS),
                onePhase("cumulate", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", "k", AGGS),
                onePhase("two-keys", tumble, "k, i", "COUNT(*) AS c, SUM(v) AS sv"),
                // Several subtasks behind the columnar exchange: rows split by key group.
                onePhase("two-keys", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k, i", AGGS)
                        .withParallelism(2),
                twoPhase("lz4", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k", AGGS)
                        .with("sluice.exchange.compression", "lz4").withParallelism(2),
                twoPhase("cumulate-p2", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", "i", AGGS)
                        .withParallelism(2),
                onePhase("no-count-star", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '9' SECOND)", "i", "MAX(v) AS mxv, SUM(d) AS sd"),
                onePhase("tumble", tumble, "k", AGGS).withParallelism(2),
                twoPhase("tumble", tumble, "k", AGGS),
                twoPhase("tumble-offset", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '2' SECOND)", "k", AGGS),
                twoPhase("hop", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k", AGGS),
                twoPhase("cumulate", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", "k", AGGS),
                twoPhase("two-keys", tumble, "k, i", "COUNT(*) AS c, SUM(v) AS sv"),
                twoPhase("tumble", tumble, "k", AGGS).withParallelism(2),
                // Mini-batches on event time (RowTimeMiniBatchAssginerOperator after the source's
                // watermarks): watermarks go on once per interval of event time.
                rowTimeMiniBatch(twoPhase("mini-batch", tumble, "k", AGGS), "2 s"),
                rowTimeMiniBatch(twoPhase("mini-batch", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k", AGGS),
                        "3 s").withParallelism(2),
                rowTimeMiniBatch(onePhase("mini-batch", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", "k", AGGS),
                        "1 s"),
                onePhase("filter", tumble, "k", FILTERED),
                onePhase("filtered-count-only", tumble, "k", "COUNT(*) FILTER (WHERE v > 600) AS c, SUM(v) AS sv"),
                twoPhase("filtered-count-only", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", "k",
                        "COUNT(*) FILTER (WHERE v > 600) AS c, SUM(v) AS sv"),
                fallback("hop-filtered-count-only", SCHEMA, rows(),
                        query("HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                                "COUNT(*) FILTER (WHERE v > 600) AS c, SUM(v) AS sv"),
                        "without an unfiltered COUNT(*)")
                        .with("table.optimizer.agg-phase-strategy", "ONE_PHASE").asMultiset(),
                twoPhase("filter", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k", FILTERED),
                ltz("ltz-utc", "UTC", tumble, false),
                ltz("ltz-utc", "UTC", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", true),
                ltz("ltz-plus8", "GMT+08:00", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '2' SECOND)", false),
                ltz("ltz-minus0330", "GMT-03:30", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)", true),
                // Daylight saving time: windows over Los Angeles' spring-forward gap and fall-back
                // overlap (23- and 25-hour days), and Lord Howe's 30-minute shifts.
                dst("dst-tumble-hour", "America/Los_Angeles", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR)", false),
                dst("dst-tumble-day", "America/Los_Angeles", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' DAY)", true),
                dst("dst-hop", "America/Los_Angeles", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '30' MINUTE, INTERVAL '2' HOUR)", true),
                dst("dst-cumulate", "America/Los_Angeles", "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY)", false),
                dst("dst-lord-howe", "Australia/Lord_Howe", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '15' MINUTE, INTERVAL '1' HOUR)", true),
                nativeCase("nano-timestamp-key", NANO_KEY_SCHEMA, nanoKeyRows(), query(tumble, "k", "COUNT(*) AS c, SUM(v) AS sv, MIN(n) AS mn, MAX(n) AS mx, COUNT(n) AS cn"))
                        .with("table.optimizer.agg-phase-strategy", "ONE_PHASE").withParallelism(2).asMultiset(),
                nativeCase("nano-timestamp-key-2phase", NANO_KEY_SCHEMA, nanoKeyRows(), query(tumble, "k", "COUNT(*) AS c, MAX(v) AS mv, MIN(n) AS mn, MAX(n) AS mx"))
                        .withParallelism(2).asMultiset(),
                nativeCase("decimal", DECIMAL_SCHEMA, decimalRows(),
                        query(tumble, "k", "COUNT(*) AS c, SUM(p) AS sp, MIN(p) AS mnp, MAX(p) AS mxp, SUM(w) AS sw, MAX(w) AS mxw"))
                        .with("table.optimizer.agg-phase-strategy", "ONE_PHASE").asMultiset(),
                nativeCase("decimal-2phase", DECIMAL_SCHEMA, decimalRows(),
                        query("HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                                "COUNT(*) AS c, SUM(p) AS sp, MIN(w) AS mnw, SUM(w) AS sw")).asMultiset(),
                // AVG(DECIMAL): DECIMAL(38, s) sums (38-digit w overflows to NULL), quotients at scale max(6, s).
                nativeCase("decimal-avg", DECIMAL_SCHEMA, decimalRows(),
                        query(tumble, "k", "COUNT(*) AS c, AVG(p) AS ap, AVG(w) AS aw, SUM(w) AS sw"))
                        .with("table.optimizer.agg-phase-strategy", "ONE_PHASE").asMultiset(),
                nativeCase("decimal-avg-2phase", DECIMAL_SCHEMA, decimalRows(),
                        query("HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                                "COUNT(*) AS c, AVG(p) AS ap, AVG(w) AS aw")).withParallelism(2).asMultiset(),
                twoPhase("first-last", tumble, "k",
                        "COUNT(*) AS c, FIRST_VALUE(v) AS fv, LAST_VALUE(v) AS lv, FIRST_VALUE(d) AS fd, LAST_VALUE(d) AS ld"),
                fallback("legacy-group-window", SCHEMA, rows(),
                        "SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS ws, COUNT(*) AS c, SUM(v) AS sv FROM t "
                                + "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)",
                        "legacy group windows").asMultiset(),
                onePhase("distinct", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                        "COUNT(*) AS c, COUNT(DISTINCT v) AS cdv, COUNT(DISTINCT i) AS cdi, COUNT(DISTINCT k) AS cdk, SUM(v) AS sv"),
                onePhase("distinct-tumble", tumble, "i",
                        "COUNT(DISTINCT k) AS cdk, SUM(DISTINCT v) AS sdv, SUM(DISTINCT i) AS sdi, MAX(DISTINCT v) AS mdv"),
                twoPhase("distinct", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                        "COUNT(*) AS c, COUNT(DISTINCT v) AS cdv, COUNT(DISTINCT i) AS cdi, COUNT(DISTINCT k) AS cdk, SUM(v) AS sv"),
                twoPhase("distinct-tumble", tumble, "i",
                        "COUNT(DISTINCT k) AS cdk, SUM(DISTINCT v) AS sdv, COUNT(DISTINCT v) AS cdv, MAX(DISTINCT v) AS mdv"),
                twoPhase("distinct-tumble", tumble, "i", "COUNT(DISTINCT k) AS cdk, SUM(v) AS sv").withParallelism(2),
                // COUNT(DISTINCT) of floating-point values: one NaN, 0.0 and -0.0 apart (Double#equals).
                onePhase("distinct-double", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                        "COUNT(*) AS c, COUNT(DISTINCT d) AS cdd"),
                twoPhase("distinct-double", tumble, "k", "COUNT(DISTINCT d) AS cdd, COUNT(DISTINCT CAST(d AS FLOAT)) AS cdf")
                        .withParallelism(2),
                // Strings: MIN/MAX by unsigned UTF-8 bytes ("Grüße" after ASCII), FIRST/LAST_VALUE.
                onePhase("string-min-max", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "i",
                        "COUNT(*) AS c, MIN(k) AS mnk, MAX(k) AS mxk"),
                twoPhase("string-min-max", tumble, "i", "MIN(k) AS mnk, MAX(k) AS mxk, MAX(DISTINCT k) AS mdk").withParallelism(2),
                onePhase("bool-min-max", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                        "COUNT(*) AS c, MIN(v > 0) AS mnb, MAX(v > 0) AS mxb"),
                twoPhase("bool-min-max", tumble, "k", "MIN(v > 0) AS mnb, MAX(i < 2) AS mxb").withParallelism(2),
                onePhase("first-last-bool", tumble, "k", "FIRST_VALUE(v > 0) AS fb, LAST_VALUE(i < 2) AS lb"),
                onePhase("first-last-string", tumble, "i", "FIRST_VALUE(k) AS fk, LAST_VALUE(k) AS lk, COUNT(k) AS ck"),
                // DISTINCT with FILTER: calls of one argument keep one set per filter (Flink: one view
                // per argument, with a bit per filter).
                onePhase("distinct-filter", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k",
                        "COUNT(*) AS c, COUNT(DISTINCT v) AS cdv, COUNT(DISTINCT v) FILTER (WHERE i > 1) AS cdvf, "
                                + "COUNT(DISTINCT v) FILTER (WHERE d > 0) AS cdvd"),
                onePhase("distinct-filter-tumble", tumble, "k",
                        "SUM(DISTINCT i) AS sdi, SUM(DISTINCT i) FILTER (WHERE v > 0) AS sdif, COUNT(DISTINCT i) FILTER (WHERE v > 0) AS cdif"),
                twoPhase("distinct-filter", tumble, "k",
                        "COUNT(DISTINCT v) AS cdv, COUNT(DISTINCT v) FILTER (WHERE i > 1) AS cdvf, "
                                + "COUNT(DISTINCT v) FILTER (WHERE d > 0) AS cdvd, COUNT(DISTINCT k) FILTER (WHERE v < 0) AS cdk")
                        .withParallelism(2),
                nativeCase("distinct-decimal", DECIMAL_SCHEMA, decimalRows(),
                        query(tumble, "k", "COUNT(*) AS c, COUNT(DISTINCT p) AS cdp, COUNT(DISTINCT w) AS cdw"))
                        .with("table.optimizer.agg-phase-strategy", "ONE_PHASE").asMultiset(),
                nativeCase("distinct-decimal-2phase", DECIMAL_SCHEMA, decimalRows(),
                        query(tumble, "k", "COUNT(DISTINCT p) AS cdp, COUNT(DISTINCT w) AS cdw")).asMultiset());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        long before = windowBatches();
        long exchanged = NativeChainOperator.EXCHANGE_BATCHES.get();
        ParityHarness.check(c);
        if (c.expectNative()) {
            assertTrue(windowBatches() > before, c.name() + ": no batch was aggregated natively");
            // The rows reach the (global) window aggregation through a columnar exchange.
            assertTrue(NativeChainOperator.EXCHANGE_BATCHES.get() > exchanged, c.name() + ": no batch crossed a columnar exchange");
        }
    }

    /** With the columnar exchange off, Flink's row exchange connects the native chains. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("rowExchangeCases")
    void rowExchangeMatchesFlink(ParityCase c) {
        long before = windowBatches();
        long exchanged = NativeChainOperator.EXCHANGE_BATCHES.get();
        ParityHarness.check(c.with("sluice.exchange.columnar", "false"));
        assertTrue(windowBatches() > before, c.name() + ": no batch was aggregated natively");
        assertEquals(exchanged, NativeChainOperator.EXCHANGE_BATCHES.get(), c.name() + ": the columnar exchange was used");
    }

    static List<ParityCase> rowExchangeCases() {
        return List.of(
                onePhase("row-exchange", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "k, i", AGGS)
                        .withParallelism(2),
                twoPhase("row-exchange", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)", "k", AGGS).withParallelism(2));
    }

    /** Batches run natively by chains that aggregate windows (one phase, or the local phase). */
    static long windowBatches() {
        return NativeChainOperator.batches("stream-exec-window-aggregate_1")
                + NativeChainOperator.batches("stream-exec-local-window-aggregate_1")
                + NativeChainOperator.batches("stream-exec-global-window-aggregate_1");
    }
}
