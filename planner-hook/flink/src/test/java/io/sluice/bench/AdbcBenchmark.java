package io.sluice.bench;

import io.sluice.cli.LocalPostgres;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.function.Function;

/**
 * The warehouse-sink benchmarks: the Parquet bids of {@link ParquetBenchmark} → a Calc copy or
 * a 10-second TUMBLE → a PostgreSQL table (the server `make bench` starts), stock Flink through
 * Flink's JDBC connector (tuned as below) against Sluice's ADBC sink (bulk COPY of Arrow batches),
 * at parallelism 2. After the runs, the two engines' tables are compared.
 */
final class AdbcBenchmark {
    static final Measurements RUNS = new Measurements("adbc");
    /** Rows per JDBC batch: Flink's default is 100; larger batches are what its docs suggest tuning. */
    static final int JDBC_BATCH = 5000;

    private AdbcBenchmark() {}

    static String pgUri() {
        return LocalPostgres.uri();
    }

    /** The server as a JDBC URL; reWriteBatchedInserts turns JDBC batches into multi-row INSERTs. */
    static String jdbcUrl(boolean rewriteBatches) {
        return LocalPostgres.jdbcUrl(rewriteBatches);
    }

    static void pg(String... statements) {
        try {
            LocalPostgres.execute(statements);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A query's first row, its values joined by " | ". */
    static String rows(String sql) {
        try {
            return LocalPostgres.rows(sql).get(0);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A query's single value. */
    static String query(String sql) {
        try {
            return LocalPostgres.value(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A script line that {@link #prepare} runs in PostgreSQL before the script runs. */
    private static final String PG_LINE = "-- postgres: ";

    /**
     * Runs the PostgreSQL statements at the head of a script (so that each run, not the making
     * of its script, empties the table) and returns the rest.
     */
    static String prepare(String script) {
        while (script.startsWith(PG_LINE)) {
            int end = script.indexOf('\n');
            pg(script.substring(PG_LINE.length(), end));
            script = script.substring(end + 1);
        }
        return script;
    }

    /** The script head that makes PostgreSQL table {@code table} anew. */
    static String reset(String table, String pgColumns) {
        return PG_LINE + "DROP TABLE IF EXISTS " + table + "\n" + PG_LINE + "CREATE TABLE " + table + " (" + pgColumns + ")\n";
    }

    /** The WITH clause of the sink table into PostgreSQL table {@code table}. */
    static String sink(String engine, String table) {
        return switch (engine) {
            case "flink" -> "'connector' = 'jdbc', 'url' = '" + jdbcUrl(true) + "', 'table-name' = '" + table
                    + "', 'sink.buffer-flush.max-rows' = '" + JDBC_BATCH + "'";
            case "flink-docs" -> "'connector' = 'jdbc', 'url' = '" + jdbcUrl(false) + "', 'table-name' = '" + table
                    + "', 'sink.buffer-flush.max-rows' = '" + JDBC_BATCH + "'";
            case "sluice" -> "'connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + pgUri() + "', 'table-name' = '"
                    + table + "', 'sink.delivery-guarantee' = 'at-least-once'";
            case "sluice-eo" -> "'connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + pgUri() + "', 'table-name' = '"
                    + table + "', 'sink.transactional-id-prefix' = 'bench-" + table + "'";
            default -> throw new IllegalArgumentException(engine);
        };
    }

    /**
     * Checkpoints every 10 s, stored in files: with the MiniCluster's default (the JobManager's
     * memory, 5 MB a state handle), stock Flink's window state fails its checkpoints and the job
     * restarts, writing rows again through the at-least-once JDBC sink.
     */
    static final String CHECKPOINTS = "SET 'execution.checkpointing.interval' = '10 s';\n"
            + "SET 'execution.checkpointing.storage' = 'filesystem';\n"
            + "SET 'execution.checkpointing.dir' = '" + Path.of("build", "bench-checkpoints").toAbsolutePath().toUri() + "';\n";

    static final String COPY_COLUMNS = "auction integer, bidder bigint, price bigint, ts timestamp(3)";
    static final String WINDOW_COLUMNS = "auction integer, window_start timestamp(3), window_end timestamp(3), "
            + "c bigint, s bigint, mx bigint, av bigint";

    /** Parquet → filter/projection → PostgreSQL. */
    static Function<Path, String> copy(String engine) {
        String table = "bench_copy_" + engine.replace('-', '_');
        return dir -> reset(table, COPY_COLUMNS) + CHECKPOINTS + ParquetBenchmark.table(dir, false)
                + "CREATE TABLE snk (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) WITH ("
                + sink(engine, table) + ");\n"
                + "INSERT INTO snk SELECT auction, bidder, price * 2 + 1, ts FROM bids WHERE MOD(price, 10) < 9\n";
    }

    /** Parquet → 10 s TUMBLE → PostgreSQL. */
    static Function<Path, String> window(String engine) {
        String table = "bench_window_" + engine.replace('-', '_');
        return dir -> reset(table, WINDOW_COLUMNS) + CHECKPOINTS + ParquetBenchmark.table(dir, true)
                + "CREATE TABLE snk (auction INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), "
                + "c BIGINT, s BIGINT, mx BIGINT, av BIGINT) WITH ("
                + sink(engine, table) + ");\n"
                + "INSERT INTO snk SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price), AVG(price) "
                + "FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end\n";
    }

    static double measure(String name, String engine, Function<Path, String> script) throws Exception {
        return ParquetBenchmark.measure(name, engine.startsWith("sluice"), script, RUNS);
    }

    /**
     * The distinct rows one table has that another has not, counted both ways ("0 | 0": the same
     * rows), and each table's rows that repeat another row ("0" for an exact result: every
     * benchmark row is unique).
     */
    static String difference(String a, String b) {
        return rows("SELECT (SELECT count(*) FROM (SELECT * FROM " + a + " EXCEPT SELECT * FROM " + b + ") x), "
                + "(SELECT count(*) FROM (SELECT * FROM " + b + " EXCEPT SELECT * FROM " + a + ") y)");
    }

    /** Rows of a table that repeat another of its rows. */
    static long repeats(String table) {
        return Long.parseLong(query("SELECT (SELECT count(*) FROM " + table + ") - (SELECT count(*) FROM (SELECT DISTINCT * FROM "
                + table + ") d)"));
    }

    static String section() throws Exception {
        double copyDocsFlink = measure("copy-docs-flink", "flink-docs", copy("flink-docs"));
        double copyFlink = measure("copy-flink", "flink", copy("flink"));
        double copySluice = measure("copy-sluice", "sluice", copy("sluice"));
        double copyEo = measure("copy-eo-sluice", "sluice-eo", copy("sluice-eo"));
        double winFlink = measure("window-flink", "flink", window("flink"));
        double winSluice = measure("window-sluice", "sluice", window("sluice"));
        if (!System.getProperty("sluice.bench.measurement", "").isEmpty()) {
            return ""; // a forked JVM measuring one of them
        }
        String copyDiff = difference("bench_copy_flink", "bench_copy_sluice");
        String copyDocsDiff = difference("bench_copy_flink_docs", "bench_copy_sluice");
        String copyEoDiff = difference("bench_copy_flink", "bench_copy_sluice_eo");
        String copyRows = query("SELECT count(*) FROM (SELECT DISTINCT * FROM bench_copy_flink) d");
        String winDiff = difference("bench_window_flink", "bench_window_sluice");
        String winRows = query("SELECT count(*) FROM (SELECT DISTINCT * FROM bench_window_flink) d");
        long sluiceRepeats = repeats("bench_copy_sluice") + repeats("bench_copy_sluice_eo") + repeats("bench_window_sluice");
        long stockCopyRepeats = repeats("bench_copy_flink") + repeats("bench_copy_flink_docs"), stockWindowRepeats = repeats("bench_window_flink");
        if (!copyDiff.equals("0 | 0") || !copyDocsDiff.equals("0 | 0") || !copyEoDiff.equals("0 | 0") || !winDiff.equals("0 | 0") || sluiceRepeats != 0) {
            System.err.println("the engines' tables differ: copy " + copyDiff + ", docs-tuned copy " + copyDocsDiff + ", exactly-once copy " + copyEoDiff
                    + ", window " + winDiff + "; rows Sluice wrote twice: " + sluiceRepeats);
            System.exit(1);
        }
        StringBuilder md = new StringBuilder();
        md.append("## ADBC: bids in Parquet → Calc or 10 s TUMBLE → PostgreSQL\n\n");
        md.append(Benchmarks.format("The Parquet bids above (%,d rows) into a table of a local PostgreSQL 15 server (the one\n",
                ParquetBenchmark.ROWS));
        md.append(Benchmarks.format("`make bench` starts: `bin/sluice-postgres`, fsync off), parallelism 2, median of %d runs after warm-ups.\n",
                Measurements.RUNS));
        md.append("Stock Flink writes through Flink's JDBC connector (flink-connector-jdbc-postgres 4.0.0-2.0, at least once, as it\n");
        md.append(Benchmarks.format("flushes on checkpoints), with its batch option tuned as its documentation suggests: `sink.buffer-flush.max-rows` = %d\n", JDBC_BATCH));
        md.append("(default 100), and in a second configuration also with PgJDBC's `reWriteBatchedInserts=true` (multi-row INSERTs,\n");
        md.append("a driver setting Flink's documentation does not mention). Sluice's chain hands Arrow batches to the ADBC sink\n");
        md.append("(`SluiceSink`), whose Go writer COPYs them through ADBC's PostgreSQL driver (65,536 rows a flush, the next\n");
        md.append("buffer filling while one is copied), at least once like the JDBC sink, and in another run exactly once (with a\n");
        md.append("`sink.transactional-id-prefix`, by prepared transactions: each checkpoint's rows in one transaction, prepared\n");
        md.append("before the barrier and committed when the checkpoint completes). Checkpoints every 10 s, stored in files. After the runs the last run's tables are compared (`EXCEPT` both ways):\n");
        md.append(Benchmarks.format("the copies hold the same %s distinct rows, the window tables the same %s; Sluice wrote no row twice.\n",
                copyRows, winRows));
        if (stockCopyRepeats + stockWindowRepeats > 0) {
            md.append(Benchmarks.format("Stock Flink's JDBC sink (at least once) wrote %,d rows of the copy and %,d window rows twice in its\n"
                    + "last run (every benchmark row is unique; not investigated: a restart replaying rows since a checkpoint\n"
                    + "would do it).\n", stockCopyRepeats, stockWindowRepeats));
        }
        md.append("\n");
        md.append("| job | stock Flink rows/s | Sluice rows/s | Sluice / Flink | Sluice / fastest stock run |\n");
        md.append("|---|---|---|---|---|\n");
        RUNS.row(md, "Parquet → Calc copy → PostgreSQL (at least once), JDBC sink tuned per Flink's docs", "copy-docs", copyDocsFlink, copySluice);
        md.append(Benchmarks.format("| Parquet → Calc copy → PostgreSQL, Sluice exactly once, JDBC sink tuned per Flink's docs | %,.0f | %,.0f | %.2fx | |%n",
                copyDocsFlink, copyEo, copyEo / copyDocsFlink));
        RUNS.row(md, "Parquet → Calc copy → PostgreSQL (at least once), JDBC sink also with reWriteBatchedInserts", "copy", copyFlink, copySluice);
        md.append(Benchmarks.format("| Parquet → Calc copy → PostgreSQL, Sluice exactly once, JDBC sink also with reWriteBatchedInserts | %,.0f | %,.0f | %.2fx | |%n",
                copyFlink, copyEo, copyEo / copyFlink));
        RUNS.row(md, "Parquet → TUMBLE 10 s (COUNT, SUM, MAX, AVG) → PostgreSQL, JDBC sink with reWriteBatchedInserts", "window", winFlink, winSluice);
        RUNS.spread(md);
        return md.toString();
    }
}
