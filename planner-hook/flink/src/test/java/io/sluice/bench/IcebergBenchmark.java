package io.sluice.bench;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The Iceberg benchmarks: the bids of the window benchmark in an Iceberg table (a Hadoop catalog
 * under build/bench-data, written once by Flink's Iceberg sink), read through a
 * {@code 'connector' = 'iceberg'} table with a computed event time, then a Calc or a 10-second
 * TUMBLE aggregation into a blackhole or another Iceberg table, at parallelism 2, on stock Flink
 * and on Sluice (whose scan reads the data files natively into Arrow batches).
 */
final class IcebergBenchmark {
    static final long ROWS = Long.getLong("sluice.bench.iceberg.rows", 20_000_000L);
    static final long WARMUP_ROWS = Math.min(ROWS, 2_000_000L);
    /**
     * The input of the longer Iceberg → TUMBLE → Iceberg run (0: none). A bounded job that
     * commits on checkpoints ends only after a checkpoint taken once its input is done, and the
     * first periodic checkpoint comes at a random time within the interval: at 20M rows that
     * wait is a large part of Sluice's runtime, so the job is also measured on more rows.
     */
    static final long LONG_ROWS = Long.getLong("sluice.bench.iceberg.long-rows", 100_000_000L);

    private IcebergBenchmark() {}

    static Path warehouse() {
        return Path.of("build", "bench-data", "iceberg-warehouse").toAbsolutePath();
    }

    static String catalog() {
        return "CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '"
                + warehouse().toUri() + "');\n";
    }

    /** The name of the Iceberg table holding the first {@code rows} bids, written if missing. */
    static String data(long rows) throws Exception {
        String table = "bids_" + rows;
        Path done = warehouse().resolve("db").resolve(table).resolve("_COMPLETE");
        if (Files.exists(done)) {
            return table;
        }
        Path dir = done.getParent();
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.printf(Locale.ROOT, "writing %,d bids to Iceberg table %s%n", rows, table);
        // Streaming mode: in batch mode the Iceberg writer's results cross a blocking exchange
        // through Kryo, which cannot read them back on Flink 2.1 (connector 1.11).
        TableEnvironment w = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        w.getConfig().getConfiguration().setString("parallelism.default", "2");
        // Flink's Iceberg sink (1.11) needs object reuse on Flink 2.1 (see docs/connectors/iceberg.md).
        w.getConfig().getConfiguration().setString("pipeline.object-reuse", "true");
        // The v1 sink's committables cross the writer -> committer exchange through Kryo, which
        // cannot read them back on Flink 2.1 (connector 1.11) above parallelism 1; the v2 sink
        // (SinkV2) serializes them itself.
        w.getConfig().getConfiguration().setString("table.exec.iceberg.use-v2-sink", "true");
        w.executeSql(catalog().trim().replaceAll(";$", ""));
        w.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
        w.executeSql("CREATE TABLE bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) WITH ("
                + "'connector' = 'sluice-bench-bids', 'rows' = '" + rows + "', 'keys' = '10000', 'rows-per-ms' = '100')");
        w.executeSql("CREATE TABLE lake.db." + table + " (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(6))");
        w.executeSql("INSERT INTO lake.db." + table + " SELECT auction, bidder, price, ts FROM bids").await();
        Files.writeString(done, "");
        return table;
    }

    static String source(String table, boolean watermark) {
        // Without inference the source runs at the job's parallelism: the session cluster has as
        // many slots as that, and the 100M-row table has more splits (a source of parallelism 6
        // waits for slots forever).
        return "SET 'pipeline.object-reuse' = 'true';\nSET 'table.exec.iceberg.use-v2-sink' = 'true';\n"
                + "SET 'table.exec.iceberg.infer-source-parallelism' = 'false';\n" + catalog()
                + "CREATE TABLE bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(6)"
                + (watermark ? ", ts3 AS CAST(ts AS TIMESTAMP(3)), WATERMARK FOR ts3 AS ts3 - INTERVAL '5' SECOND" : "")
                + ") WITH ('connector' = 'iceberg', 'catalog-name' = 'lake', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse().toUri() + "', 'catalog-database' = 'db', 'catalog-table' = '" + table + "');\n";
    }

    static String calc(String table) {
        return source(table, false) + """
                CREATE TABLE snk (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(6)) WITH ('connector' = 'blackhole');
                INSERT INTO snk SELECT auction, bidder, price * 2 + 1, ts FROM bids WHERE MOD(price, 10) < 9
                """;
    }

    static final String WINDOW = "SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price), AVG(price) "
            + "FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts3), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end";

    static String window(String table) {
        return source(table, true) + """
                CREATE TABLE snk (auction INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
                  c BIGINT, s BIGINT, mx BIGINT, av BIGINT) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                """ + WINDOW + "\n";
    }

    /**
     * Iceberg → TUMBLE → a fresh Iceberg table: Flink's Iceberg writer on stock Flink; on Sluice
     * the connector's v2 sink with data files written in Go (asserted: no edge note).
     */
    static String windowToIceberg(String table) {
        String out = "out_" + System.nanoTime();
        return "SET 'execution.checkpointing.interval' = '10 s';\n" + source(table, true)
                + "CREATE TABLE lake.db." + out + " (auction INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), "
                + "c BIGINT, s BIGINT, mx BIGINT, av BIGINT);\n"
                + "INSERT INTO lake.db." + out + " " + WINDOW + "\n";
    }

    static final Measurements RUNS = new Measurements("iceberg");

    /** One engine's median throughput (3 runs after a warm-up run on the smaller table). */
    static double measure(String name, boolean sluice, Function<String, String> script) throws Exception {
        return measure(name, sluice, script, ROWS);
    }

    /** {@link #measure(String, boolean, Function)} on the first {@code rows} bids. */
    static double measure(String name, boolean sluice, Function<String, String> script, long rows) throws Exception {
        String full = data(rows);
        return RUNS.measure(name, sluice, script.apply(data(WARMUP_ROWS)), WARMUP_ROWS, () -> script.apply(full), rows);
    }

    static String section() throws Exception {
        double calcFlink = measure("calc-flink", false, IcebergBenchmark::calc);
        double calcSluice = measure("calc-sluice", true, IcebergBenchmark::calc);
        double winFlink = measure("window-flink", false, IcebergBenchmark::window);
        double winSluice = measure("window-sluice", true, IcebergBenchmark::window);
        double winIceFlink = measure("window-iceberg-flink", false, IcebergBenchmark::windowToIceberg);
        double winIceSluice = measure("window-iceberg-sluice", true, IcebergBenchmark::windowToIceberg);
        double longFlink = 0;
        double longSluice = 0;
        if (LONG_ROWS > 0) {
            longFlink = measure("window-iceberg-long-flink", false, IcebergBenchmark::windowToIceberg, LONG_ROWS);
            longSluice = measure("window-iceberg-long-sluice", true, IcebergBenchmark::windowToIceberg, LONG_ROWS);
        }
        StringBuilder md = new StringBuilder();
        md.append("## Iceberg: bids in an Iceberg table → Calc or 10 s TUMBLE → blackhole or Iceberg\n\n");
        md.append(Benchmarks.format("The bids of the window benchmark (%,d rows) in an Iceberg table (Hadoop catalog, Parquet data\n", ROWS));
        md.append("files written once by Flink's Iceberg sink), read through a `'connector' = 'iceberg'` table whose event time\n");
        md.append("is a computed `CAST(ts AS TIMESTAMP(3))` with a watermark; parallelism 2 (the source's parallelism inference\n");
        md.append("off), median of 3 runs after warm-up runs (see above). Stock Flink reads with the connector's\n");
        md.append("FLIP-27 source and Parquet reader into RowData; Sluice keeps that source (split planning, assignment,\n");
        md.append("positions) and reads the data files in Go into Arrow batches for its native chains. Into Iceberg, stock\n");
        md.append("Flink writes with the connector's v2 sink; Sluice keeps that sink (file names, checkpoint commits) and\n");
        md.append("writes its data files in Go from the window's Arrow batches, so no row is made between the two tables;\n");
        md.append("checkpoints every 10 s, the final one committing inside the measured runtime. A bounded job that commits on\n");
        md.append("checkpoints finishes only after a checkpoint completed once its input is done, a cost that does not grow\n");
        md.append("with the input, so the Iceberg job is also measured on a larger table (sluice.bench.iceberg.long-rows).\n\n");
        md.append("| job | stock Flink rows/s | Sluice rows/s | Sluice / Flink | Sluice / fastest stock run |\n");
        md.append("|---|---|---|---|---|\n");
        RUNS.row(md, "Calc: `SELECT auction, bidder, price * 2 + 1, ts WHERE MOD(price, 10) < 9`", "calc", calcFlink, calcSluice);
        RUNS.row(md, "TUMBLE 10 s by auction: COUNT, SUM, MAX, AVG (two phases)", "window", winFlink, winSluice);
        RUNS.row(md, "Iceberg → TUMBLE above → Iceberg (columnar end to end on Sluice)", "window-iceberg", winIceFlink, winIceSluice);
        if (LONG_ROWS > 0) {
            RUNS.row(md, Benchmarks.format("the same on %,d rows", LONG_ROWS), "window-iceberg-long", longFlink, longSluice);
        }
        RUNS.spread(md);
        return md.toString();
    }
}
