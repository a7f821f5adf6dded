package io.sluice.cli;

import io.sluice.planner.Verdict;

import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * The third part of {@code make demo}, the warehouse pipeline: the lakehouse demo's Iceberg bids →
 * 10 s TUMBLE → a PostgreSQL table registered through Sluice's ADBC catalog. Stock Flink writes
 * the same windows through Flink's JDBC connector; both tables are compared in PostgreSQL. Then
 * the same job runs on Sluice as an incremental streaming job while snapshots are appended.
 * Uses the PostgreSQL server of SLUICE_PG_URI (`make demo` starts it) and Flink's JDBC connector
 * from the test class path (as a user has it in lib/).
 */
final class WarehouseDemo {
    private WarehouseDemo() {}

    static final String COLUMNS = "auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT, "
            + "volume DECIMAL(38, 2), top_price DECIMAL(10, 2), bidders BIGINT";

    static String pgUri() {
        return LocalPostgres.uri();
    }

    static String jdbcUrl() {
        return LocalPostgres.jdbcUrl(true);
    }

    static String query(String sql) throws SQLException {
        return LocalPostgres.value(sql);
    }

    /** The ADBC catalog, with warehouse table {@code table} created anew through it. */
    static String catalog(String table) {
        return "CREATE CATALOG wh WITH ('type' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + pgUri() + "');\n"
                + "DROP TABLE IF EXISTS wh.`public`." + table + ";\n"
                + "CREATE TABLE wh.`public`." + table + " (" + COLUMNS + ");\n";
    }

    static String aggregation(String into) {
        return "INSERT INTO " + into + "\nSELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price), "
                + "COUNT(DISTINCT bidder)\nFROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts3), INTERVAL '10' SECOND))\n"
                + "GROUP BY auction, window_start, window_end\n";
    }

    /** Stock Flink: the table created through the catalog, written by Flink's JDBC connector. */
    static String stockJob(Path warehouse) {
        return LakehouseDemo.SETTINGS + LakehouseDemo.catalog(warehouse) + LakehouseDemo.bidsTable(warehouse, "")
                + catalog("bid_stats_flink")
                + "CREATE TEMPORARY TABLE jdbc_out (" + COLUMNS + ") WITH ('connector' = 'jdbc', 'url' = '" + jdbcUrl()
                + "', 'table-name' = 'bid_stats_flink', 'sink.buffer-flush.max-rows' = '5000');\n" + aggregation("jdbc_out");
    }

    static String sluiceJob(Path warehouse, String table, String scanOptions, String settings) {
        return settings + LakehouseDemo.catalog(warehouse) + LakehouseDemo.bidsTable(warehouse, scanOptions) + catalog(table)
                + aggregation("wh.`public`." + table);
    }

    /**
     * The bounded job on both engines into PostgreSQL, while lake.db.bids is still one data file
     * (with several, which subtask reads which file first decides which rows are late, on
     * either engine): returns whether Sluice ran natively and both tables hold the same rows.
     */
    static boolean compare(Path warehouse, long rows) throws Exception {
        System.out.println("== Warehouse: Iceberg -> 10 s TUMBLE -> PostgreSQL through the ADBC catalog ==");
        System.out.println(sluiceJob(warehouse, "bid_stats_sluice", "", LakehouseDemo.SETTINGS));
        TimedRun.Result flink = TimedRun.run(stockJob(warehouse), false, 2, rows);
        TimedRun.Result sluice = TimedRun.run(sluiceJob(warehouse, "bid_stats_sluice", "", LakehouseDemo.SETTINGS), true, 2, rows);
        boolean nativePlan = sluice.nativePlan() && sluice.verdict().edgeNotes().isEmpty();
        System.out.println(sluice.verdict());
        System.out.printf(Locale.ROOT, "stock Flink (JDBC sink) : %,12.0f rows/s (%d ms)%n", flink.rowsPerSecond(), flink.millis());
        System.out.printf(Locale.ROOT, "Sluice (ADBC sink)      : %,12.0f rows/s (%d ms)%n", sluice.rowsPerSecond(), sluice.millis());
        System.out.printf(Locale.ROOT, "ratio                   : %.2fx%n", sluice.rowsPerSecond() / flink.rowsPerSecond());
        String count = query("SELECT count(*) FROM bid_stats_flink");
        String diff = query("SELECT (SELECT count(*) FROM (SELECT * FROM bid_stats_flink EXCEPT ALL SELECT * FROM bid_stats_sluice) a) + "
                + "(SELECT count(*) FROM (SELECT * FROM bid_stats_sluice EXCEPT ALL SELECT * FROM bid_stats_flink) b)");
        boolean same = diff.equals("0") && !count.equals("0");
        System.out.printf(Locale.ROOT, "PostgreSQL tables: %s rows each, identical: %s%n%n", count, same ? "yes" : "NO (" + diff + " rows differ)");
        return same && nativePlan;
    }

    /**
     * The incremental job on Sluice into PostgreSQL while two snapshots of {@code step} bids are
     * appended, the first from bid number {@code from}: returns whether it ran natively and
     * committed the windows of every append.
     */
    static boolean incremental(Path warehouse, long from, long step) throws Exception {
        System.out.println("== Warehouse, incremental: Sluice reads each new snapshot of lake.db.bids into PostgreSQL ==");
        StreamTableEnvironment tEnv = SluiceCli.environment(2, null, false);
        String script = sluiceJob(warehouse, "bid_stats_live", ", 'streaming' = 'true', 'monitor-interval' = '500 ms'",
                LakehouseDemo.SETTINGS.replace("'5 s'", "'1 s'") + "SET 'table.exec.source.idle-timeout' = '1 s';\n");
        List<String> stmts = SqlScript.split(script);
        for (String st : stmts.subList(0, stmts.size() - 1)) {
            SqlScript.execute(tEnv, st);
        }
        String insert = stmts.get(stmts.size() - 1);
        Verdict verdict = io.sluice.Sluice.verdict(tEnv, insert);
        boolean liveNative = verdict.isNative() && verdict.edgeNotes().isEmpty();
        System.out.printf(Locale.ROOT, "streaming job started (native from the scan to the ADBC sink: %s)%n",
                liveNative ? "yes" : "NO\n" + verdict);
        TableResult job = tEnv.executeSql(insert);
        long windows = awaitGrowth(0);
        System.out.printf(Locale.ROOT, "  %,d windows committed to PostgreSQL%n", windows);
        boolean grew = windows > 0;
        try {
            for (int k = 0; k < 2; k++) {
                TimedRun.run(LakehouseDemo.WRITE_SETTINGS + LakehouseDemo.catalog(warehouse)
                        + LakehouseDemo.append(from + k * step, step), false, 1, step);
                System.out.printf(Locale.ROOT, "appended a snapshot of %,d bids%n", step);
                long now = awaitGrowth(windows);
                System.out.printf(Locale.ROOT, "  %,d windows committed to PostgreSQL%n", now);
                grew &= now > windows;
                windows = now;
            }
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
        System.out.println("streaming job cancelled\n");
        return liveNative && grew;
    }

    /** Polls the live table until it holds more than {@code than} windows (60 s at most). */
    static long awaitGrowth(long than) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        long n = 0;
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(1_000);
            n = Long.parseLong(query("SELECT count(*) FROM bid_stats_live"));
            if (n > than) {
                Thread.sleep(1_500); // the rest of the snapshot's windows, committed with the next checkpoint
                return Long.parseLong(query("SELECT count(*) FROM bid_stats_live"));
            }
        }
        return n;
    }
}
