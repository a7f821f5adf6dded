package io.sluice.cli;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code make demo}: the lakehouse job. Generates an Iceberg table of Nexmark-style bids in a
 * local warehouse (Hadoop catalog, no service), then aggregates them per auction and 10-second
 * window into another Iceberg table, once on stock Flink and once on Sluice. Prints Sluice's
 * verdict, both throughputs, whether the two result tables hold the same rows, and the first
 * result rows.
 *
 * <p>Needs Flink's Iceberg connector on the class path (as a user has it in lib/); the scan, the
 * window aggregation and the result's data files run natively (the connector's sink commits).
 */
public final class LakehouseDemo {
    private LakehouseDemo() {}

    static String catalog(Path warehouse) {
        return "CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '"
                + warehouse.toUri() + "');\n";
    }

    /** Session options both engines use: Flink's Iceberg writer needs them on Flink 2.1. */
    static final String SETTINGS = """
            SET 'pipeline.object-reuse' = 'true';
            SET 'table.exec.iceberg.use-v2-sink' = 'true';
            SET 'execution.checkpointing.interval' = '5 s';
            """;

    /** Writes {@code rows} generated bids into lake.db.bids. */
    static String generate(Path warehouse, long rows) {
        return SETTINGS + catalog(warehouse) + String.format(Locale.ROOT, """
                CREATE DATABASE lake.db;
                CREATE TABLE lake.db.bids (auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(6));
                CREATE TEMPORARY TABLE gen (x BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING) WITH (
                  'connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '1000000000',
                  'fields.x.kind' = 'sequence', 'fields.x.start' = '0', 'fields.x.end' = '%d',
                  'fields.bidder.min' = '1', 'fields.bidder.max' = '100000',
                  'fields.price.min' = '1', 'fields.price.max' = '10000', 'fields.channel.length' = '6');
                INSERT INTO lake.db.bids
                SELECT MOD(x * 7919, 1000), bidder, price, channel,
                       TIMESTAMPADD(MILLISECOND, CAST(x / 10 AS INT) - CAST(MOD(x, 13) * 100 AS INT), TIMESTAMP '2026-11-30 00:00:00')
                FROM gen
                """, rows, rows - 1);
    }

    /** The demo job: bids per auction and 10 s window into lake.db.{@code out}. */
    static String job(Path warehouse, String out) {
        return SETTINGS + catalog(warehouse) + String.format(Locale.ROOT, """
                CREATE TABLE bids (auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(6),
                  ts3 AS CAST(ts AS TIMESTAMP(3)), WATERMARK FOR ts3 AS ts3 - INTERVAL '2' SECOND
                ) WITH ('connector' = 'iceberg', 'catalog-name' = 'lake', 'catalog-type' = 'hadoop',
                  'warehouse' = '%s', 'catalog-database' = 'db', 'catalog-table' = 'bids');
                CREATE TABLE lake.db.%s (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
                  bids BIGINT, volume DECIMAL(38, 2), top_price DECIMAL(10, 2), bidders BIGINT);
                INSERT INTO lake.db.%s
                SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price), COUNT(DISTINCT bidder)
                FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts3), INTERVAL '10' SECOND))
                GROUP BY auction, window_start, window_end
                """, warehouse.toUri(), out, out);
    }

    static List<Row> read(Path warehouse, String query) throws Exception {
        StreamTableEnvironment tEnv = SluiceCli.environment(1, null, true);
        SqlScript.execute(tEnv, catalog(warehouse).trim().replaceAll(";$", ""));
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        Path warehouse = Path.of("build", "demo", "warehouse").toAbsolutePath();
        if (Files.exists(warehouse)) {
            try (Stream<Path> s = Files.walk(warehouse)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.printf(Locale.ROOT, "Sluice lakehouse demo: %,d bids in an Iceberg table (%s)%n"
                + "-> 10 s TUMBLE per auction -> Iceberg table, on stock Flink and on Sluice%n%n", rows, warehouse);
        // One writer, one data file in event-time order (at most 1.2 s out of order, under the
        // 2 s watermark delay): with several files, which subtask reads which file first decides
        // which rows arrive late and are dropped, on either engine, and the results would differ
        // from run to run.
        TimedRun.run(generate(warehouse, rows), false, 1, rows);
        System.out.println(job(warehouse, "bid_stats"));
        TimedRun.Result flink = TimedRun.run(job(warehouse, "bid_stats_flink"), false, 2, rows);
        TimedRun.Result sluice = TimedRun.run(job(warehouse, "bid_stats_sluice"), true, 2, rows);
        System.out.println(sluice.verdict());
        if (!sluice.nativePlan()) {
            System.out.println("The Sluice run fell back to stock Flink; see the reasons above.");
        }
        System.out.printf(Locale.ROOT, "stock Flink : %,12.0f rows/s (%d ms)%n", flink.rowsPerSecond(), flink.millis());
        System.out.printf(Locale.ROOT, "Sluice      : %,12.0f rows/s (%d ms)%n", sluice.rowsPerSecond(), sluice.millis());
        System.out.printf(Locale.ROOT, "ratio       : %.2fx%n%n", sluice.rowsPerSecond() / flink.rowsPerSecond());
        List<String> a = sorted(read(warehouse, "SELECT * FROM lake.db.bid_stats_flink"));
        List<String> b = sorted(read(warehouse, "SELECT * FROM lake.db.bid_stats_sluice"));
        System.out.printf(Locale.ROOT, "result rows : %,d (stock Flink) and %,d (Sluice); identical: %s%n%n",
                a.size(), b.size(), a.equals(b) ? "yes" : "NO");
        System.out.println("first windows written by Sluice (auction, window_start, window_end, bids, volume, top_price, bidders):");
        b.stream().limit(10).forEach(r -> System.out.println("  " + r));
        System.exit(a.equals(b) && sluice.nativePlan() ? 0 : 1);
    }

    private static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted().toList();
    }
}
