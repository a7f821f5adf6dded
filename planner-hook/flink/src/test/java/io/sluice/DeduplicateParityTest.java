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
 * Deduplication (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY a time attribute) = 1) against
 * stock Flink's deduplicate functions. The last row on event time emits +I for a key's first
 * row and -U/+U when a row as late or later comes (compared in Flink's order at parallelism 1);
 * the first row on event time waits for the watermark and is emitted once, late rows dropped
 * (compared as multisets: rows whose timers fire at one watermark come out in the order of
 * Flink's timer heap); the first row on processing time is each key's first arrival, the last
 * row each arrival (a row equal to the kept one replacing it silently, as Flink's heap or
 * RocksDB state decides).
 */
class DeduplicateParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    /** The schema with a processing-time attribute. */
    static final String PROCTIME_SCHEMA = SCHEMA + ", pt AS PROCTIME()";

    static String dedup(String keys, String order) {
        return "SELECT k, v, d, i, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY " + keys + " ORDER BY " + order
                + ") AS rn FROM t) WHERE rn = 1";
    }

    static ParityCase dedupCase(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), query);
    }

    /**
     * A case with mini-batches of {@code size} rows (bundles finish on their size and at the end
     * of input, never on the clock): KeyedMapBundleOperator over ProcTimeMiniBatchDeduplicate*,
     * keys emitted in the order of Flink's HashMap.
     */
    /** A case on event time with mini-batches of {@code size} rows cut by event time every second. */
    static ParityCase rowTimeMiniBatch(String name, String query, int size) {
        return dedupCase(name, query).with("table.exec.mini-batch.enabled", "true")
                .with("table.exec.mini-batch.allow-latency", "1 s").with("table.exec.mini-batch.size", String.valueOf(size));
    }

    static ParityCase miniBatch(String name, String query, int size) {
        return ParityCase.nativeCase(name, PROCTIME_SCHEMA, WindowAggregateParityTest.rows(), query)
                .with("table.exec.mini-batch.enabled", "true")
                .with("table.exec.mini-batch.allow-latency", "100000 d")
                .with("table.exec.mini-batch.size", String.valueOf(size));
    }

    static final String LAST_REPEATS =
            "SELECT k, i FROM (SELECT k, i, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM t) WHERE rn = 1";

    static List<ParityCase> cases() {
        return List.of(
                dedupCase("rowtime-last", dedup("k", "ts DESC")),
                dedupCase("rowtime-last-two-keys", dedup("k, i", "ts DESC")),
                dedupCase("rowtime-last", dedup("k", "ts DESC")).withParallelism(2),
                dedupCase("rowtime-first", dedup("k", "ts ASC")).asMultiset(),
                dedupCase("rowtime-first-int-key", dedup("i", "ts")).asMultiset(),
                dedupCase("rowtime-first", dedup("k", "ts ASC")).withParallelism(2),
                // The last row of each key, aggregated again: the aggregation retracts the
                // rows the deduplication updates.
                dedupCase("rowtime-last-into-aggregate", "SELECT i, COUNT(*) AS c, SUM(v) AS sv, MAX(d) AS mx FROM ("
                        + dedup("k", "ts DESC") + ") GROUP BY i"),
                ParityCase.nativeCase("proctime-first", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(), dedup("k", "pt")),
                ParityCase.nativeCase("proctime-first", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(), dedup("k, i", "pt"))
                        .withParallelism(2),
                ParityCase.nativeCase("proctime-last", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(), dedup("k", "pt DESC")),
                // Few distinct rows, so that a row often equals the kept one: whether Flink then
                // emits depends on its state backend (heap state holds the emitted +U object).
                ParityCase.nativeCase("proctime-last-repeats", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT k, i FROM (SELECT k, i, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM t) WHERE rn = 1"),
                ParityCase.nativeCase("proctime-last-repeats-rocksdb", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT k, i FROM (SELECT k, i, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM t) WHERE rn = 1")
                        .with("state.backend.type", "rocksdb"),
                // With a state TTL (none expires here) a last row equal to the kept one is
                // emitted all the same.
                dedupCase("state-ttl", dedup("k", "ts DESC")).with("table.exec.state.ttl", "1 h"),
                ParityCase.nativeCase("state-ttl-proctime-last-repeats", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT k, i FROM (SELECT k, i, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM t) WHERE rn = 1")
                        .with("table.exec.state.ttl", "1 h"),
                ParityCase.nativeCase("state-ttl-proctime-first", PROCTIME_SCHEMA, WindowAggregateParityTest.rows(), dedup("k", "pt"))
                        .with("table.exec.state.ttl", "1 h"),
                dedupCase("state-ttl-rowtime-first-insert-only", dedup("k", "ts ASC")).with("table.exec.state.ttl", "1 h")
                        .expecting(Expectation.fallback("insert-only event-time deduplication with a state TTL")),
                miniBatch("mini-batch-proctime-first", dedup("k", "pt"), 5),
                miniBatch("mini-batch-proctime-first", dedup("k, i", "pt"), 3).withParallelism(2),
                miniBatch("mini-batch-proctime-last", dedup("k", "pt DESC"), 7),
                miniBatch("mini-batch-proctime-last", dedup("k, i", "pt DESC"), 4).withParallelism(2),
                miniBatch("mini-batch-proctime-last-repeats", LAST_REPEATS, 3),
                miniBatch("mini-batch-proctime-last-repeats-rocksdb", LAST_REPEATS, 3).with("state.backend.type", "rocksdb"),
                miniBatch("mini-batch-state-ttl-proctime-last", LAST_REPEATS, 6).with("table.exec.state.ttl", "1 h"),
                miniBatch("mini-batch-proctime-last-into-aggregate", "SELECT i, COUNT(*) AS c, SUM(v) AS sv FROM ("
                        + dedup("k", "pt DESC") + ") GROUP BY i", 5).with("table.optimizer.agg-phase-strategy", "ONE_PHASE"),
                // RowTimeMiniBatchDeduplicateFunction behind an event-time mini-batch assigner: a
                // key's rows of a bundle in arrival order against the kept row (the shape of
                // Nexmark q18), the bundle finished on its size and on the held-back watermarks.
                rowTimeMiniBatch("mini-batch-rowtime-last", dedup("k", "ts DESC"), 5),
                rowTimeMiniBatch("mini-batch-rowtime-last", dedup("k, i", "ts DESC"), 3).withParallelism(2),
                rowTimeMiniBatch("mini-batch-rowtime-first", dedup("k", "ts ASC"), 4),
                rowTimeMiniBatch("mini-batch-rowtime-last-rocksdb", dedup("k", "ts DESC"), 7).with("state.backend.type", "rocksdb"),
                rowTimeMiniBatch("mini-batch-rowtime-last-state-ttl", dedup("k", "ts DESC"), 5).with("table.exec.state.ttl", "1 h")
                        .expecting(Expectation.fallback("with a state TTL")),
                rowTimeMiniBatch("mini-batch-rowtime-last-compact", dedup("k", "ts DESC"), 5)
                        .with("table.exec.deduplicate.mini-batch.compact-changes-enabled", "true")
                        .expecting(Expectation.fallback("compacting changes")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
