package io.sluice.bench;

import java.util.Locale;

/**
 * The join benchmarks: a window join (the shape of Nexmark q8: two streams joined by key within
 * the same 10-second TUMBLE windows) and an interval join (the same streams joined by key within
 * 5 seconds of each other). Two generated bid streams of one million keys, so that a key meets
 * about one row of the other side per window or interval, at parallelism 2, on stock Flink with
 * the heap and the RocksDB state backends and on Sluice.
 */
final class JoinBenchmark {
    /** Rows of each input. */
    static final long ROWS = Long.getLong("sluice.bench.join.rows", 4_000_000L);

    private JoinBenchmark() {}

    /** The window join's INSERT. */
    static final String WINDOW_JOIN = """
            CREATE TABLE snk (auction INT, bid BIGINT, ask BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3))
              WITH ('connector' = 'blackhole');
            INSERT INTO snk
            SELECT B.auction, B.price, A.price, B.window_start, B.window_end
            FROM (SELECT * FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))) B
            JOIN (SELECT * FROM TABLE(TUMBLE(TABLE asks, DESCRIPTOR(ts), INTERVAL '10' SECOND))) A
            ON B.auction = A.auction AND B.window_start = A.window_start AND B.window_end = A.window_end
            """;

    /** The interval join's INSERT. */
    static final String INTERVAL_JOIN = """
            CREATE TABLE snk (auction INT, bid BIGINT, ask BIGINT, bid_ts TIMESTAMP(3), ask_ts TIMESTAMP(3))
              WITH ('connector' = 'blackhole');
            INSERT INTO snk
            SELECT B.auction, B.price, A.price, B.ts, CAST(A.ts AS TIMESTAMP(3))
            FROM bids B JOIN asks A
            ON B.auction = A.auction AND B.ts BETWEEN A.ts - INTERVAL '5' SECOND AND A.ts + INTERVAL '5' SECOND
            """;

    static String script(long rows, String stateBackend) {
        return script(rows, stateBackend, WINDOW_JOIN);
    }

    static String script(long rows, String stateBackend, String insert) {
        String table = """
                CREATE TABLE %s (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3),
                  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
                  'connector' = 'sluice-bench-bids', 'rows' = '%d', 'keys' = '%d', 'rows-per-ms' = '100');
                """;
        return String.format(Locale.ROOT, "SET 'state.backend.type' = '%s';\n", stateBackend)
                + String.format(Locale.ROOT, table, "bids", rows, 1_000_000)
                + String.format(Locale.ROOT, table, "asks", rows, 999_983)
                + insert;
    }

    static final Measurements RUNS = new Measurements("join");
    static final Measurements INTERVAL_RUNS = new Measurements("interval-join");

    /**
     * Rows of each input for stock Flink with RocksDB state, which joins far slower here: the
     * full size would take over an hour of runs.
     */
    static final long ROCKSDB_ROWS = Long.getLong("sluice.bench.join.rocksdb-rows", 500_000L);

    /** One engine's median throughput (rows of both inputs per second) on inputs of {@code rows} rows. */
    static double measure(String name, boolean sluice, String stateBackend, long rows) throws Exception {
        return measure(RUNS, WINDOW_JOIN, name, sluice, stateBackend, rows);
    }

    static double measure(Measurements runs, String insert, String name, boolean sluice, String stateBackend, long rows)
            throws Exception {
        long warmup = Math.min(rows, 500_000L);
        return runs.measure(name, sluice, script(warmup, stateBackend, insert), 2 * warmup,
                () -> script(rows, stateBackend, insert), 2 * rows);
    }

    static String intervalSection() throws Exception {
        double heap = measure(INTERVAL_RUNS, INTERVAL_JOIN, "flink-heap", false, "hashmap", ROWS);
        double rocks = measure(INTERVAL_RUNS, INTERVAL_JOIN, "flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure(INTERVAL_RUNS, INTERVAL_JOIN, "sluice", true, "hashmap", ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Interval join: bids ⋈ asks by key within 5 s of each other → blackhole\n\n");
        md.append("The window join's two streams (").append(String.format(Locale.ROOT, "%,d", ROWS))
                .append(" rows each) joined on the key where the bid's time is within 5 seconds of the ask's;\n");
        md.append("parallelism 2, throughput counts the rows of both inputs. Flink plans a hash exchange per input and its\n");
        md.append("RowTimeIntervalJoin (rows cached per key in MapState, cleanup timers); Sluice reads both exchanges as\n");
        md.append("columnar ones into one native join (`SluiceJoinChain`), its cached rows per key group as BinaryRowData.\n\n");
        INTERVAL_RUNS.engineTable(md, "interval join", heap, rocks, String.format(Locale.ROOT, "%,d rows per input", ROCKSDB_ROWS),
                sluice, script(ROWS, "hashmap", INTERVAL_JOIN));
        return md.toString();
    }

    static String section() throws Exception {
        double heap = measure("flink-heap", false, "hashmap", ROWS);
        double rocks = measure("flink-rocksdb", false, "rocksdb", ROCKSDB_ROWS);
        double sluice = measure("sluice", true, "hashmap", ROWS);
        StringBuilder md = new StringBuilder();
        md.append("## Window join: bids ⋈ asks by key within 10 s TUMBLE windows → blackhole\n\n");
        md.append("Two streams of `sluice-bench-bids` rows (").append(String.format(Locale.ROOT, "%,d", ROWS))
                .append(" each; keys modulo 1,000,000 and 999,983, 100 rows per ms with up to 3 s\n");
        md.append("of disorder, none late) joined on the key and the window, the shape of Nexmark q8; parallelism 2,\n");
        md.append("throughput counts the rows of both inputs. Flink plans a window TVF per input, a hash exchange per input\n");
        md.append("and its WindowJoinOperator; Sluice runs each TVF in a native chain, both exchanges columnar, and the\n");
        md.append("join in Go (`SluiceJoinChain`), its rows in state per key group as BinaryRowData.\n\n");
        RUNS.engineTable(md, "window join", heap, rocks, String.format(Locale.ROOT, "%,d rows per input", ROCKSDB_ROWS),
                sluice, script(ROWS, "hashmap"));
        return md.toString();
    }
}
