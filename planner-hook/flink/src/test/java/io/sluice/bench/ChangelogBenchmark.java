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

    static double measure(Measurements runs, java.util.function.BiFunction<Long, String, String> script, long inputs,
            String name, boolean sluice, String stateBackend, long rows) throws Exception {
        long warmup = Math.min(rows, 500_000L);
        return runs.measure(name, sluice, script.apply(warmup, stateBackend), inputs * warmup,
                () -> script.apply(rows, stateBackend), inputs * rows);
    }

    static String groupAggSection() throws Exception {
        double heap = measure(AGG_RUNS, ChangelogBenchmark::groupAgg, 1, "flink-heap", false, "hashmap", AGG_ROWS);
        double rocks = measure(AGG_RUNS, ChangelogBenchmark::groupAgg, 1, "flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure(AGG_RUNS, ChangelogBenchmark::groupAgg, 1, "sluice", true, "hashmap", AGG_ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Group aggregation: bids → GROUP BY 10,000 auctions → blackhole\n\n");
        md.append("`sluice-bench-bids` rows (").append(String.format(Locale.ROOT, "%,d", AGG_ROWS))
                .append("), COUNT, SUM, MAX and AVG per auction outside windows, without mini-batches: every bid\n");
        md.append("changes its auction's result, so each row emits -U and +U. Parallelism 2. Flink plans a hash exchange\n");
        md.append("and its GroupAggFunction (accumulators in ValueState); Sluice reads the exchange as a columnar one into\n");
        md.append("its native group aggregation, which aggregates a batch in rounds and emits the same changes.\n\n");
        AGG_RUNS.engineTable(md, "group aggregation", heap, rocks, String.format(Locale.ROOT, "%,d rows", ROCKSDB_ROWS),
                sluice, groupAgg(AGG_ROWS, "hashmap"));
        return md.toString();
    }

    static String joinAggSection() throws Exception {
        double heap = measure(JOIN_RUNS, ChangelogBenchmark::joinAgg, 2, "flink-heap", false, "hashmap", JOIN_ROWS);
        double rocks = measure(JOIN_RUNS, ChangelogBenchmark::joinAgg, 2, "flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure(JOIN_RUNS, ChangelogBenchmark::joinAgg, 2, "sluice", true, "hashmap", JOIN_ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Regular join into a group aggregation: bids ⋈ asks by key → GROUP BY → blackhole\n\n");
        md.append("Two `sluice-bench-bids` streams (").append(String.format(Locale.ROOT, "%,d", JOIN_ROWS))
                .append(" rows each, keys modulo 1,000,000 and 999,983) joined on the key without time bounds\n");
        md.append("(every row kept in state), then COUNT, SUM and MAX of the matches per key (the shape of Nexmark\n");
        md.append("q3/q20). Parallelism 2, throughput counts the rows of both inputs. Flink plans hash exchanges, its\n");
        md.append("StreamingJoinOperator and GroupAggFunction; Sluice runs the join and the aggregation natively, each after\n");
        md.append("columnar exchanges.\n\n");
        JOIN_RUNS.engineTable(md, "regular join + aggregation", heap, rocks, String.format(Locale.ROOT, "%,d rows per input", ROCKSDB_ROWS),
                sluice, joinAgg(JOIN_ROWS, "hashmap"));
        return md.toString();
    }

    static String dedupSection() throws Exception {
        double heap = measure(DEDUP_RUNS, ChangelogBenchmark::dedup, 1, "flink-heap", false, "hashmap", DEDUP_ROWS);
        double rocks = measure(DEDUP_RUNS, ChangelogBenchmark::dedup, 1, "flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure(DEDUP_RUNS, ChangelogBenchmark::dedup, 1, "sluice", true, "hashmap", DEDUP_ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Deduplication: bids → last bid per auction (ROW_NUMBER() = 1 on event time) → blackhole\n\n");
        md.append("`sluice-bench-bids` rows (").append(String.format(Locale.ROOT, "%,d", DEDUP_ROWS))
                .append("), the last bid of each of 10,000 auctions by event time (the shape of Nexmark q18):\n");
        md.append("every bid at least as late as its auction's kept one replaces it, emitting -U and +U. Parallelism 2.\n");
        md.append("Flink plans a hash exchange and its RowTimeDeduplicateFunction (the kept row in ValueState); Sluice\n");
        md.append("reads the exchange as a columnar one into its native deduplication, which keeps each auction's row as\n");
        md.append("BinaryRowData bytes and emits them as they are.\n\n");
        DEDUP_RUNS.engineTable(md, "deduplication", heap, rocks, String.format(Locale.ROOT, "%,d rows", ROCKSDB_ROWS),
                sluice, dedup(DEDUP_ROWS, "hashmap"));
        return md.toString();
    }

    static String topNSection() throws Exception {
        double heap = measure(TOPN_RUNS, ChangelogBenchmark::topN, 1, "flink-heap", false, "hashmap", TOPN_ROWS);
        double rocks = measure(TOPN_RUNS, ChangelogBenchmark::topN, 1, "flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure(TOPN_RUNS, ChangelogBenchmark::topN, 1, "sluice", true, "hashmap", TOPN_ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Top-N: bids → the 10 highest bids per auction with their rank (ROW_NUMBER() <= 10) → blackhole\n\n");
        md.append("`sluice-bench-bids` rows (").append(String.format(Locale.ROOT, "%,d", TOPN_ROWS))
                .append("), the top 10 bids by price of each of 10,000 auctions with the rank number (the shape of\n");
        md.append("Nexmark q19): a bid entering the top 10 moves the lower ones down a rank (-U/+U per moved rank).\n");
        md.append("Parallelism 2. Flink plans a hash exchange and its AppendOnlyTopNFunction (a TreeMap buffer per key over\n");
        md.append("MapState); Sluice reads the exchange as a columnar one into its native Top-N, which keeps byte-encoded\n");
        md.append("sort keys in a sorted slice per auction.\n\n");
        TOPN_RUNS.engineTable(md, "Top-N", heap, rocks, String.format(Locale.ROOT, "%,d rows", ROCKSDB_ROWS),
                sluice, topN(TOPN_ROWS, "hashmap"));
        return md.toString();
    }
}
