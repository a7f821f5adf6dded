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

    /** Session options of the writing jobs: Flink's Iceberg writer needs them on Flink 2.1. */
    static final String WRITE_SETTINGS = """
            SET 'pipeline.object-reuse' = 'true';
            SET 'table.exec.iceberg.use-v2-sink' = 'true';
            """;

    /** Session options both engines use for the demo job. */
    static final String SETTINGS = WRITE_SETTINGS + "SET 'execution.checkpointing.interval' = '5 s';\n";

    /** Writes {@code rows} generated bids into a new table lake.db.bids. */
    static String generate(Path warehouse, long rows) {
        // No checkpoints while writing: one data file per snapshot (see main).
        return WRITE_SETTINGS + catalog(warehouse) + """
                CREATE DATABASE lake.db;
                CREATE TABLE lake.db.bids (auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(6));
                """ + append(0, rows);
    }

    /**
     * Appends the bids numbered [from, from + rows) to lake.db.bids as one snapshot: 10 bids per
     * millisecond of event time, at most 1.2 s out of order.
     */
    static String append(long from, long rows) {
        return String.format(Locale.ROOT, """
                CREATE TEMPORARY TABLE gen (x BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING) WITH (
                  'connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '1000000000',
                  'fields.x.kind' = 'sequence', 'fields.x.start' = '%d', 'fields.x.end' = '%d',
                  'fields.bidder.min' = '1', 'fields.bidder.max' = '100000',
                  'fields.price.min' = '1', 'fields.price.max' = '10000', 'fields.channel.length' = '6');
                INSERT INTO lake.db.bids
                SELECT MOD(x * 7919, 1000), bidder, price, channel,
                       TIMESTAMPADD(MILLISECOND, CAST(x / 10 AS INT) - CAST(MOD(x, 13) * 100 AS INT), TIMESTAMP '2026-11-30 00:00:00')
                FROM gen
                """, rows, from, from + rows - 1);
    }

    /** The demo job: bids per auction and 10 s window into lake.db.{@code out}. */
    static String job(Path warehouse, String out) {
        return SETTINGS + catalog(warehouse) + bidsTable(warehouse, "") + resultJob(out);
    }

    /** The bids as a Flink table with an event-time attribute; {@code options}: more WITH options. */
    static String bidsTable(Path warehouse, String options) {
        return String.format(Locale.ROOT, """
                CREATE TABLE bids (auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(6),
                  ts3 AS CAST(ts AS TIMESTAMP(3)), WATERMARK FOR ts3 AS ts3 - INTERVAL '2' SECOND
                ) WITH ('connector' = 'iceberg', 'catalog-name' = 'lake', 'catalog-type' = 'hadoop',
                  'warehouse' = '%s', 'catalog-database' = 'db', 'catalog-table' = 'bids'%s);
                """, warehouse.toUri(), options);
    }

    static String resultJob(String out) {
        return String.format(Locale.ROOT, """
                CREATE TABLE lake.db.%s (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
                  bids BIGINT, volume DECIMAL(38, 2), top_price DECIMAL(10, 2), bidders BIGINT);
                INSERT INTO lake.db.%s
                SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price), COUNT(DISTINCT bidder)
                FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts3), INTERVAL '10' SECOND))
                GROUP BY auction, window_start, window_end
                """, out, out);
    }

    /**
     * The incremental job on Sluice: the same aggregation as a streaming read of lake.db.bids
     * (from its current snapshot on), while two more snapshots are appended; prints the windows
     * committed to lake.db.bid_stats_live after each, then cancels the job. Returns whether it ran
     * natively and committed the windows of every append.
     */
    static boolean incremental(Path warehouse, long rows) throws Exception {
        System.out.println("== Incremental: a streaming job on Sluice reads each new snapshot of lake.db.bids ==");
        StreamTableEnvironment tEnv = SluiceCli.environment(2, null, false);
        // A source subtask without a split (the table has fewer files than subtasks) would hold
        // the watermark back: it is marked idle after a second, as a streaming job needs.
        String script = SETTINGS.replace("'5 s'", "'1 s'") + "SET 'table.exec.source.idle-timeout' = '1 s';\n" + catalog(warehouse)
                + bidsTable(warehouse, ", 'streaming' = 'true', 'monitor-interval' = '500 ms'") + resultJob("bid_stats_live");
        List<String> stmts = SqlScript.split(script);
        for (String st : stmts.subList(0, stmts.size() - 1)) {
            SqlScript.execute(tEnv, st);
        }
        String insert = stmts.get(stmts.size() - 1);
        io.sluice.planner.Verdict verdict = io.sluice.Sluice.verdict(tEnv, insert);
        boolean nativePlan = verdict.isNative() && verdict.edgeNotes().isEmpty();
        System.out.printf(Locale.ROOT, "streaming job started (native from the scan to the data files: %s), reading the current snapshot%n",
                nativePlan ? "yes" : "NO\n" + verdict);
        org.apache.flink.table.api.TableResult job = tEnv.executeSql(insert);
        long step = Math.max(10_000, rows / 10);
        long windows = awaitGrowth(warehouse, 0);
        System.out.printf(Locale.ROOT, "  %,d windows committed%n", windows);
        boolean grew = windows > 0;
        try {
            for (int k = 0; k < 2; k++) {
                long from = rows + k * step;
                TimedRun.run(WRITE_SETTINGS + catalog(warehouse) + append(from, step), false, 1, step);
                System.out.printf(Locale.ROOT, "appended a snapshot of %,d bids (%d s of event time)%n", step, step / 10_000);
                long now = awaitGrowth(warehouse, windows);
                System.out.printf(Locale.ROOT, "  %,d windows committed%n", now);
                grew &= now > windows;
                windows = now;
            }
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
        System.out.println("streaming job cancelled\n");
        return nativePlan && grew;
    }

    /** Polls the live result table until it holds more than {@code than} windows (60 s at most). */
    static long awaitGrowth(Path warehouse, long than) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        long n = 0;
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(1_000);
            n = (Long) read(warehouse, "SELECT COUNT(*) FROM lake.db.bid_stats_live").stream()
                    .reduce((a, b) -> b).map(r -> r.getField(0)).orElse(0L);
            if (n > than) {
                Thread.sleep(1_500); // the rest of the snapshot's windows, committed with the next checkpoint
                return (Long) read(warehouse, "SELECT COUNT(*) FROM lake.db.bid_stats_live").stream()
                        .reduce((a, b) -> b).map(r -> r.getField(0)).orElse(0L);
            }
        }
        return n;
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
        // One writer without checkpoints, one data file in event-time order (at most 1.2 s out of
        // order, under the 2 s watermark delay): with several files, which subtask reads which
        // file first decides which rows arrive late and are dropped, on either engine, and the
        // results would differ from run to run.
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
        System.out.println();
        boolean warehouseOk = WarehouseDemo.compare(warehouse, rows);
        boolean live = incremental(warehouse, rows);
        // After the bids the lakehouse's incremental part appended (two steps).
        long step = Math.max(10_000, rows / 10);
        warehouseOk &= WarehouseDemo.incremental(warehouse, rows + 2 * step, step);
        System.exit(a.equals(b) && sluice.nativePlan() && live && warehouseOk ? 0 : 1);
    }

    private static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted().toList();
    }
}
