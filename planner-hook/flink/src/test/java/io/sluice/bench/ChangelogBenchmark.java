package io.sluice.bench;

import java.util.Locale;

/**
 * The benchmarks of operators that emit changelogs: a group aggregation outside windows (every
 * bid updates its auction's COUNT, SUM, MAX and AVG: -U/+U per row), a regular join of two bid
 * streams by key into a group aggregation (the shape of Nexmark q3/q20: a join, then an aggregate
 * over its matches), a deduplication keeping each auction's last bid (Nexmark q18's shape) and a
 * Top-N of each auction's highest bids (q19's), at parallelism 2, on stock Flink with the heap
 * and the RocksDB state backends and on Sluice.
 */
final class ChangelogBenchmark {
    /** Bids of the group aggregation. */
    static final long AGG_ROWS = Long.getLong("sluice.bench.group-agg.rows", 4_000_000L);
    /** Rows of each input of the regular join. */
    static final long JOIN_ROWS = Long.getLong("sluice.bench.regular-join.rows", 1_000_000L);
    /** Bids of the deduplication. */
    static final long DEDUP_ROWS = Long.getLong("sluice.bench.dedup.rows", 4_000_000L);
    /** Bids of the Top-N. */
    static final long TOPN_ROWS = Long.getLong("sluice.bench.topn.rows", 4_000_000L);
    /** Rows for stock Flink with RocksDB state, which runs these far slower. */
    static final long ROCKSDB_ROWS = Long.getLong("sluice.bench.changelog.rocksdb-rows", 500_000L);

    private ChangelogBenchmark() {}

    static final String TABLE = """
            CREATE TABLE %s (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) WITH (
              'connector' = 'sluice-bench-bids', 'rows' = '%d', 'keys' = '%d', 'rows-per-ms' = '100');
            """;

    static String groupAgg(long rows, String stateBackend) {
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, TABLE, "bids", rows, 10_000)
                + """
                CREATE TABLE snk (auction INT, c BIGINT, s BIGINT, mx BIGINT, av BIGINT) WITH ('connector' = 'blackhole');
                INSERT INTO snk SELECT auction, COUNT(*), SUM(price), MAX(price), AVG(price) FROM bids GROUP BY auction
                """;
    }

    static String dedup(long rows, String stateBackend) {
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, TABLE, "bids", rows, 10_000)
                        .replace("ts TIMESTAMP(3))", "ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)")
                + """
                CREATE TABLE snk (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT auction, bidder, price, ts FROM (
                  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY ts DESC) AS rn FROM bids)
                WHERE rn = 1
                """;
    }

    static String topN(long rows, String stateBackend) {
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, TABLE, "bids", rows, 10_000)
                + """
                CREATE TABLE snk (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3), rn BIGINT) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT * FROM (
                  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn FROM bids)
                WHERE rn <= 10
                """;
    }

    static String joinAgg(long rows, String stateBackend) {
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, TABLE, "bids", rows, 1_000_000)
                + String.format(Locale.ROOT, TABLE, "asks", rows, 999_983)
                + """
                CREATE TABLE snk (auction INT, n BIGINT, asked BIGINT, top_bid BIGINT) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT B.auction, COUNT(*), SUM(A.price), MAX(B.price)
                FROM bids B JOIN asks A ON B.auction = A.auction
                GROUP BY B.auction
                """;
    }

    static final Measurements AGG_RUNS = new Measurements("group-agg");
    static final Measurements JOIN_RUNS = new Measurements("regular-join");
    static final Measurements DEDUP_RUNS = new Measurements("dedup");
    static final Measurements TOPN_RUNS = new Measurements("topn");

    static String groupAggSection() throws Exception {
        return AGG_RUNS.engineSection("Group aggregation: bids → GROUP BY 10,000 auctions → blackhole", String.format(Locale.ROOT, """
                `sluice-bench-bids` rows (%,d), COUNT, SUM, MAX and AVG per auction outside windows, without mini-batches: every bid
                changes its auction's result, so each row emits -U and +U. Parallelism 2. Flink plans a hash exchange
                and its GroupAggFunction (accumulators in ValueState); Sluice reads the exchange as a columnar one into
                its native group aggregation, which aggregates a batch in rounds and emits the same changes.
                """, AGG_ROWS), "group aggregation", ChangelogBenchmark::groupAgg, 1, AGG_ROWS, ROCKSDB_ROWS, "rows");
    }

    static String joinAggSection() throws Exception {
        return JOIN_RUNS.engineSection("Regular join into a group aggregation: bids ⋈ asks by key → GROUP BY → blackhole",
                String.format(Locale.ROOT, """
                Two `sluice-bench-bids` streams (%,d rows each, keys modulo 1,000,000 and 999,983) joined on the key without time bounds
                (every row kept in state), then COUNT, SUM and MAX of the matches per key (the shape of Nexmark
                q3/q20). Parallelism 2, throughput counts the rows of both inputs. Flink plans hash exchanges, its
                StreamingJoinOperator and GroupAggFunction; Sluice runs the join and the aggregation natively, each after
                columnar exchanges.
                """, JOIN_ROWS), "regular join + aggregation", ChangelogBenchmark::joinAgg, 2, JOIN_ROWS, ROCKSDB_ROWS, "rows per input");
    }

    static String dedupSection() throws Exception {
        return DEDUP_RUNS.engineSection("Deduplication: bids → last bid per auction (ROW_NUMBER() = 1 on event time) → blackhole",
                String.format(Locale.ROOT, """
                `sluice-bench-bids` rows (%,d), the last bid of each of 10,000 auctions by event time (the shape of Nexmark q18):
                every bid at least as late as its auction's kept one replaces it, emitting -U and +U. Parallelism 2.
                Flink plans a hash exchange and its RowTimeDeduplicateFunction (the kept row in ValueState); Sluice
                reads the exchange as a columnar one into its native deduplication, which keeps each auction's row as
                BinaryRowData bytes and emits them as they are.
                """, DEDUP_ROWS), "deduplication", ChangelogBenchmark::dedup, 1, DEDUP_ROWS, ROCKSDB_ROWS, "rows");
    }

    static String topNSection() throws Exception {
        return TOPN_RUNS.engineSection("Top-N: bids → the 10 highest bids per auction with their rank (ROW_NUMBER() <= 10) → blackhole",
                String.format(Locale.ROOT, """
                `sluice-bench-bids` rows (%,d), the top 10 bids by price of each of 10,000 auctions with the rank number (the shape of
                Nexmark q19): a bid entering the top 10 moves the lower ones down a rank (-U/+U per moved rank).
                Parallelism 2. Flink plans a hash exchange and its AppendOnlyTopNFunction (a TreeMap buffer per key over
                MapState); Sluice reads the exchange as a columnar one into its native Top-N, which keeps byte-encoded
                sort keys in a sorted slice per auction.
                """, TOPN_ROWS), "Top-N", ChangelogBenchmark::topN, 1, TOPN_ROWS, ROCKSDB_ROWS, "rows");
    }
}
