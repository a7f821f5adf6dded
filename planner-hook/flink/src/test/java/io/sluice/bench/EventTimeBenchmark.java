package io.sluice.bench;

import java.util.Locale;

/**
 * The benchmarks of event-time operators that keep rows or sessions per key until the
 * watermark passes them: an OVER aggregation over each auction's last bids (a ROWS frame) and
 * SESSION windows of each auction's bids, at parallelism 2, on stock Flink with the heap and the
 * RocksDB state backends and on Sluice.
 */
final class EventTimeBenchmark {
    /** Bids of the OVER aggregation. */
    static final long OVER_ROWS = Long.getLong("sluice.bench.over.rows", 4_000_000L);
    /** Bids of the session windows. */
    static final long SESSION_ROWS = Long.getLong("sluice.bench.session.rows", 4_000_000L);
    /** Rows for stock Flink with RocksDB state, which runs these far slower. */
    static final long ROCKSDB_ROWS = Long.getLong("sluice.bench.event-time.rocksdb-rows", 500_000L);

    static final Measurements OVER_RUNS = new Measurements("over");
    static final Measurements SESSION_RUNS = new Measurements("session");

    private EventTimeBenchmark() {}

    static String bids(long rows, String stateBackend) {
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, ChangelogBenchmark.TABLE, "bids", rows, 10_000)
                        .replace("ts TIMESTAMP(3))", "ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)");
    }

    static String over(long rows, String stateBackend) {
        return bids(rows, stateBackend) + """
                CREATE TABLE snk (auction INT, price BIGINT, ts TIMESTAMP(3), c BIGINT, s BIGINT, mx BIGINT) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT auction, price, ts, COUNT(*) OVER w, SUM(price) OVER w, MAX(price) OVER w FROM bids
                WINDOW w AS (PARTITION BY auction ORDER BY ts ROWS BETWEEN 9 PRECEDING AND CURRENT ROW)
                """;
    }

    static String session(long rows, String stateBackend) {
        return bids(rows, stateBackend) + """
                CREATE TABLE snk (auction INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), c BIGINT, s BIGINT, mx BIGINT)
                  WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price)
                FROM TABLE(SESSION(TABLE bids PARTITION BY auction, DESCRIPTOR(ts), INTERVAL '0.3' SECOND))
                GROUP BY auction, window_start, window_end
                """;
    }

    static String overSection() throws Exception {
        return OVER_RUNS.engineSection("OVER aggregation: bids → COUNT, SUM, MAX over each auction's last 10 bids → blackhole",
                String.format(Locale.ROOT, """
                `sluice-bench-bids` rows (%,d) of 10,000 auctions, each bid with the COUNT, SUM and MAX of its auction's last 10
                bids by event time (ROWS BETWEEN 9 PRECEDING AND CURRENT ROW): rows wait in state until the watermark
                passes them, then each retracts the oldest row of its frame and adds itself. Parallelism 2. Flink plans
                a hash exchange and its RowTimeRowsBoundedPrecedingFunction (rows in MapState by time); Sluice reads the
                exchange as a columnar one into its native OVER aggregation.
                """, OVER_ROWS), "OVER ROWS frame", EventTimeBenchmark::over, 1, OVER_ROWS, ROCKSDB_ROWS, "rows");
    }

    static String sessionSection() throws Exception {
        return SESSION_RUNS.engineSection("SESSION windows: bids → sessions of 300 ms per auction → blackhole",
                String.format(Locale.ROOT, """
                `sluice-bench-bids` rows (%,d) of 10,000 auctions in SESSION windows with a 300 ms gap partitioned by auction
                (100 rows per ms of event time, so an auction's bid every 100 ms on average: each bid extends or starts its
                auction's session), COUNT, SUM and MAX per session. Parallelism 2. Flink plans a hash exchange and its window operator with
                UnsliceSyncStateWindowAggProcessor (a MergingWindowSet per key); Sluice reads the exchange as a columnar
                one into its native sessions.
                """, SESSION_ROWS), "SESSION windows", EventTimeBenchmark::session, 1, SESSION_ROWS, ROCKSDB_ROWS, "rows");
    }
}
