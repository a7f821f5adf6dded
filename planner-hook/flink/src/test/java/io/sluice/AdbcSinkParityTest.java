package io.sluice;

import io.sluice.cli.LocalPostgres;
import io.sluice.planner.Verdict;
import io.sluice.sinks.adbc.AdbcNativeSink;
import io.sluice.sinks.adbc.AdbcSink;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The ADBC sink against stock Flink's JDBC connector: the same INSERT runs on stock Flink into a
 * 'jdbc' table and on Sluice into an 'adbc' table, two tables of one PostgreSQL server with the
 * same DDL; both are read back through PostgreSQL's JDBC driver as the server renders every value
 * (numeric scale, timestamp precision, bytea, NULLs) and must hold the same rows. The Sluice side
 * is asserted native from the chain to the sink. The server is the one `make test` starts
 * (bin/sluice-postgres, SLUICE_PG_URI); the ADBC driver comes from SLUICE_ADBC_DRIVER_DIR.
 */
class AdbcSinkParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    /** The PostgreSQL URI of the tests' server (ADBC's form: postgresql://user@host:port/db). */
    static String pgUri() {
        return LocalPostgres.uri();
    }

    /** The same server as a JDBC URL. */
    static String jdbcUrl() {
        return LocalPostgres.jdbcUrl(false);
    }

    static void pg(String... statements) throws SQLException {
        LocalPostgres.execute(statements);
    }

    /** A table's rows as PostgreSQL renders them, sorted. */
    static List<String> rows(String table) throws SQLException {
        List<String> out = new ArrayList<>(LocalPostgres.rows("SELECT * FROM " + table));
        out.sort(null);
        return out;
    }

    static StreamTableEnvironment env(int parallelism, boolean sluice, String flinkSchema, List<Row> rows, String sourceOptions) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(tEnv);
        }
        tEnv.executeSql("CREATE TABLE t (" + flinkSchema + ") WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(rows) + "'" + sourceOptions + ")");
        return tEnv;
    }

    /**
     * One case: t's Flink schema and rows, the warehouse table's columns in Flink
     * ({@code sinkColumns}) and in PostgreSQL ({@code pgColumns}), and the query whose rows are
     * inserted; it must run natively unless {@link ParityCase#expecting} says otherwise (a
     * fallback, or {@link Expectation#edge} for a native island whose sink takes rows).
     */
    static ParityCase sinkCase(String name, String flinkSchema, List<Row> rows, String sinkColumns, String pgColumns, String query,
            int parallelism) {
        return new ParityCase(name, flinkSchema, rows, query, Expectation.nativeRun(), parallelism, false, Map.of(), List.of(),
                Map.of("sinkColumns", sinkColumns, "pgColumns", pgColumns));
    }

    /**
     * Runs a case on both engines into tables {name}_stock and {name}_sluice; returns the rows
     * both hold. {@code sluiceSetup} configures the Sluice environment; the case's expectation
     * says how the Sluice job must run.
     */
    static List<String> insertBoth(ParityCase c, String sourceOptions, Consumer<StreamTableEnvironment> sluiceSetup,
            String sinkOptions) throws Exception {
        boolean expectNative = c.expect().run() == Expectation.Run.NATIVE;
        String stockTable = c.name() + "_stock", sluiceTable = c.name() + "_sluice";
        pg("DROP TABLE IF EXISTS " + stockTable, "DROP TABLE IF EXISTS " + sluiceTable,
                "CREATE TABLE " + stockTable + " (" + c.var("pgColumns", "") + ")",
                "CREATE TABLE " + sluiceTable + " (" + c.var("pgColumns", "") + ")");

        StreamTableEnvironment stock = env(c.parallelism(), false, c.schema(), c.rows(), "");
        stock.executeSql("CREATE TABLE snk (" + c.var("sinkColumns", "") + ") WITH ('connector' = 'jdbc', 'url' = '" + jdbcUrl()
                + "', 'table-name' = '" + stockTable + "')");
        stock.executeSql("INSERT INTO snk " + c.query()).await();

        StreamTableEnvironment tEnv = env(c.parallelism(), true, c.schema(), c.rows(), sourceOptions);
        sluiceSetup.accept(tEnv);
        tEnv.executeSql("CREATE TABLE snk (" + c.var("sinkColumns", "") + ") WITH ('connector' = 'adbc', 'driver' = 'postgresql', "
                + "'uri' = '" + pgUri() + "', 'table-name' = '" + sluiceTable + "'" + sinkOptions + ")");
        String insert = "INSERT INTO snk " + c.query();
        Verdict verdict = Sluice.verdict(tEnv, insert);
        long batches = AdbcNativeSink.BATCHES.get();
        if (expectNative) {
            assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), () -> c.name() + ": expected native, got\n" + verdict);
            String plan = tEnv.explainSql(insert);
            assertTrue(plan.contains("SluiceSink("), () -> c.name() + ": the sink is not native:\n" + plan);
        } else if (c.expect().run() == Expectation.Run.EDGE) {
            assertTrue(verdict.isNative() && String.join("\n", verdict.edgeNotes()).contains(c.reason()),
                    () -> c.name() + ": expected a native island with the sink on rows, got\n" + verdict);
        } else {
            assertFalse(verdict.isNative(), () -> c.name() + ": expected a fallback, got\n" + verdict);
            assertTrue(String.join("\n", verdict.reasons()).contains(c.reason()),
                    () -> c.name() + ": the fallback does not mention '" + c.reason() + "':\n" + verdict);
        }
        tEnv.executeSql(insert).await();
        if (expectNative) {
            assertTrue(AdbcNativeSink.BATCHES.get() > batches, c.name() + ": no batch was written natively");
        } else {
            assertEquals(batches, AdbcNativeSink.BATCHES.get(), c.name() + ": a fallback job wrote native batches");
        }
        List<String> want = rows(stockTable);
        assertFalse(want.isEmpty(), c.name() + ": stock Flink wrote no rows");
        assertEquals(String.join("\n", want), String.join("\n", rows(sluiceTable)), c.name() + ": the tables differ");
        return want;
    }

    static final String TYPES_FLINK = "b BOOLEAN, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, n DECIMAL(10, 2), "
            + "n2 DECIMAL(38, 10), v VARCHAR(20), t STRING, bin BYTES, dt DATE, tm TIME(0), ts TIMESTAMP(3), "
            + "ts6 TIMESTAMP(6)";
    static final String TYPES_PG = "b boolean, s smallint, i integer, l bigint, f real, d double precision, n numeric(10, 2), "
            + "n2 numeric(38, 10), v varchar(20), t text, bin bytea, dt date, tm time(0), ts timestamp(3), "
            + "ts6 timestamp(6)";

    static List<Row> typedRows() {
        List<Row> rows = new ArrayList<>();
        rows.add(Row.of(true, (short) 1, 1, 1L, 1.5f, 1.25, new BigDecimal("12345678.91"), new BigDecimal("1234567890123456789012345678.0123456789"),
                "héllo wörld", "日本語のテキスト", new byte[] {1, 2, 3}, LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 58),
                LocalDateTime.of(2024, 1, 1, 12, 0, 0, 123_000_000), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)));
        rows.add(Row.of(false, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE, -0.0f, Double.MAX_VALUE, new BigDecimal("-0.01"),
                new BigDecimal("-0.0000000001"), "", "", new byte[0], LocalDate.of(1, 1, 1), LocalTime.MIDNIGHT,
                LocalDateTime.of(1900, 3, 1, 0, 0, 0, 1_000_000), LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_000)));
        rows.add(Row.of(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        rows.add(Row.of(true, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Float.MIN_VALUE, -Double.MIN_VALUE,
                new BigDecimal("99999999.99"), new BigDecimal("-9999999999999999999999999999.9999999999"), "a'b\"c\\d", "emoji 🚀",
                new byte[] {(byte) 0xff, 0}, LocalDate.of(9999, 12, 31), LocalTime.of(12, 30, 15),
                LocalDateTime.of(2000, 2, 29, 6, 7, 8, 9_000_000), LocalDateTime.of(2024, 6, 30, 1, 2, 3, 456_789_000)));
        return rows;
    }

    /** Every type the sink writes, with NULLs, extremes and non-ASCII text, through a native Calc. */
    @Test
    void everyTypeIsWrittenAsFlinksJdbcSinkWritesIt() throws Exception {
        ParityCase c = sinkCase("adbc_types", TYPES_FLINK, typedRows(), TYPES_FLINK, TYPES_PG,
                "SELECT * FROM t WHERE i IS NULL OR i <> 7", 1);
        assertEquals(4, insertBoth(c, "", e -> {}, "").size());
    }

    /** A filtered, computed copy at parallelism 2, buffers flushed by size. */
    @Test
    void computedColumnsAtParallelismTwo() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(Row.of(i, (long) i * 31 % 1000, "name-" + (i % 97)));
        }
        ParityCase c = sinkCase("adbc_computed", "k INT, v BIGINT, s STRING", rows,
                "k INT, twice BIGINT, label STRING, share DECIMAL(12, 3)",
                "k integer, twice bigint, label text, share numeric(12, 3)",
                "SELECT k, v * 2, UPPER(s), CAST(v AS DECIMAL(12, 3)) / 7 FROM t WHERE k % 3 <> 0", 2);
        assertEquals(3333, insertBoth(c, "", e -> {}, ", 'sink.buffer-flush.max-rows' = '500'").size());
    }

    /** A job that falls back writes Flink's rows through the same writer (the row path). */
    @Test
    void aJobOnFlinkWritesRowsThroughTheSameSink() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(Row.of(i, i / 8.0));
        }
        ParityCase c = sinkCase("adbc_rowpath", "k INT, d DOUBLE", rows, "k INT, e DOUBLE", "k integer, e double precision",
                "SELECT k, EXP(d) FROM t", 1).expecting(Expectation.fallback("EXP"));
        assertEquals(300, insertBoth(c, "", e -> {}, "").size());
    }

    /**
     * Exactly once across failures, in both commit modes as 'sink.commit-mode' = 'auto' chooses
     * them: prepared transactions for a sink with a transactional-id prefix (the server allows
     * them), stage tables without one. The Sluice job fails three times (Go panics and a Java
     * exception) while checkpoints commit; the table holds each row once, as stock Flink's
     * failure-free run.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"two-phase", "stage"})
    void exactlyOnceAcrossInjectedFailures(String commitMode) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add(Row.of(i, "r" + i));
        }
        ParityCase c = sinkCase("adbc_failures_" + commitMode.replace('-', '_'), "k INT, s STRING", rows, "k INT, s STRING", "k integer, s text",
                "SELECT k, CONCAT(s, '!') FROM t WHERE k >= 0", 1);
        long opened = AdbcSink.WRITERS_OPENED.get(), restored = AdbcSink.WRITERS_RESTORED.get();
        // Each failing attempt reads about 150 rows at 2 ms a row, time for checkpoints (every
        // 100 ms) to complete before it fails: restarts then restore the writer from one.
        List<String> got = insertBoth(c, ", 'delay-ms' = '2'",
                e -> ParityHarness.injectFailures(e, 15, 0),
                ", 'sink.buffer-flush.max-rows' = '7', 'sink.commit-mode' = 'auto'"
                        + (commitMode.equals("two-phase") ? ", 'sink.transactional-id-prefix' = 'adbc-failures'" : ""));
        assertEquals(400, got.size());
        assertTrue(AdbcSink.WRITERS_OPENED.get() - opened >= 4, "three failures should have restarted the sink's writer three times");
        assertTrue(AdbcSink.WRITERS_RESTORED.get() > restored, "restarts should have restored the writer from checkpoints");
        String table = c.name() + "_sluice";
        long commits = Long.parseLong(LocalPostgres.value("SELECT count(*) FROM sluice_commits WHERE target_table = '" + table + "'"));
        assertTrue(commits > 1, "expected several checkpoints committed, got " + commits);
        // Which mode committed: prepared transactions are named sluice_txn_*, stages sluice_stage_*.
        String prefix = commitMode.equals("two-phase") ? "sluice_txn_" : "sluice_stage_";
        assertEquals(String.valueOf(commits), LocalPostgres.value("SELECT count(*) FROM sluice_commits WHERE target_table = '"
                + table + "' AND stage LIKE '" + prefix + "%'"), "commits of another mode than " + commitMode);
        assertEquals("0", LocalPostgres.value("SELECT count(*) FROM pg_prepared_xacts WHERE gid LIKE 'sluice_txn_%'"),
                "prepared transactions left behind");
    }

    /**
     * An aggregation's updates into a table with a primary key, upserted as Flink's JDBC sink
     * upserts them: the group aggregation runs natively, its changes reach the native sink as
     * Arrow batches with their RowKinds.
     */
    @Test
    void aggregationUpdatesAreUpsertedByThePrimaryKey() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            rows.add(Row.of(i % 97, (long) i * 13 % 1000));
        }
        ParityCase c = sinkCase("adbc_upsert_agg", "k INT, v BIGINT", rows,
                "k INT, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                "k integer PRIMARY KEY, n bigint, total bigint", "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k", 1);
        assertEquals(97, insertBoth(c, "", e -> {}, ", 'sink.buffer-flush.max-rows' = '100'").size());
    }

    /**
     * 'table.exec.sink.keyed-shuffle' = 'FORCE' puts Flink's shuffle by primary key in front of
     * an upsert table, which the native sink does not reproduce: Flink's sink takes the chain's
     * rows, and the verdict says why.
     */
    @Test
    void aForcedShuffleByKeyKeepsFlinksSink() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            rows.add(Row.of(i % 13, (long) i));
        }
        ParityCase c = sinkCase("adbc_upsert_forced_shuffle", "k INT, v BIGINT", rows,
                "k INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED", "k integer PRIMARY KEY, n bigint",
                "SELECT k, COUNT(*) FROM t GROUP BY k", 2).expecting(Expectation.edge("keyed-shuffle"));
        assertEquals(13, insertBoth(c, "", e -> e.getConfig().set("table.exec.sink.keyed-shuffle", "FORCE"), "").size());
    }

    /**
     * A changelog source (+I, -U, +U, -D) through a native Calc into an upsert table: the source
     * declares no upsert key, so Flink materializes the changes in front of its sink
     * (SinkUpsertMaterializer), which the native sink does not reproduce; the verdict says so
     * and Flink's sink takes the rows with their RowKinds.
     */
    @Test
    void changelogThroughANativeCalcIsUpserted() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < 30; k++) {
                String v = "v" + round + "-" + k;
                if (round == 0) {
                    rows.add(Row.ofKind(RowKind.INSERT, k, v));
                } else if ((k + round) % 7 == 0) {
                    rows.add(Row.ofKind(RowKind.DELETE, k, "gone"));
                } else if ((k + round) % 7 == 1) {
                    rows.add(Row.ofKind(RowKind.INSERT, k, v));
                } else {
                    rows.add(Row.ofKind(RowKind.UPDATE_BEFORE, k, "old"));
                    rows.add(Row.ofKind(RowKind.UPDATE_AFTER, k, v));
                }
            }
        }
        ParityCase c = sinkCase("adbc_upsert_changelog", "k INT, s STRING", rows,
                "k INT, s STRING, PRIMARY KEY (k) NOT ENFORCED", "k integer PRIMARY KEY, s text",
                "SELECT k, UPPER(s) FROM t WHERE k >= 0", 1).expecting(Expectation.edge("SinkUpsertMaterializer"));
        List<String> got = insertBoth(c, "", e -> {}, ", 'sink.buffer-flush.max-rows' = '50'");
        assertFalse(got.isEmpty());
    }

    /** The messages of an exception and its causes. */
    static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append('\n');
        }
        return b.toString();
    }

    /** Runs an INSERT into an adbc table (columns k INT, s STRING) and returns its failure. */
    static String failure(String sinkOptions, String query, boolean sluice) {
        List<Row> rows = List.of(Row.of(1, "a"), Row.of(2, "b"), Row.of(1, "c"));
        StreamTableEnvironment tEnv = env(1, sluice, "k INT, s STRING", rows, "");
        try {
            tEnv.executeSql("CREATE TABLE snk (k INT, s STRING) WITH ('connector' = 'adbc', 'driver' = 'postgresql'"
                    + sinkOptions + ")");
            tEnv.executeSql("INSERT INTO snk " + query).await();
        } catch (Exception e) {
            return chain(e);
        }
        return fail("expected a failure of " + query + " with" + sinkOptions);
    }

    /** Configuration mistakes fail at planning with the option named. */
    @Test
    void badOptionsFailAtPlanning() {
        String base = ", 'uri' = '" + pgUri() + "', 'table-name' = 'bad_options'";
        String unknown = failure(base + ", 'sink.bogus' = '1'", "SELECT * FROM t", true);
        assertTrue(unknown.contains("sink.bogus"), unknown);
        String guarantee = failure(base + ", 'sink.delivery-guarantee' = 'twice'", "SELECT * FROM t", true);
        assertTrue(guarantee.contains("sink.delivery-guarantee") && guarantee.contains("twice"), guarantee);
        String rowsOption = failure(base + ", 'sink.buffer-flush.max-rows' = '0'", "SELECT * FROM t", true);
        assertTrue(rowsOption.contains("sink.buffer-flush.max-rows"), rowsOption);
        String missing = failure(", 'table-name' = 'x'", "SELECT * FROM t", true);
        assertTrue(missing.contains("uri"), missing);
    }

    /** An aggregation's updates into an append table fail at planning, as into Flink's JDBC sink without a key. */
    @Test
    void updatesIntoAnAppendTableFailAtPlanning() {
        String msg = failure(", 'uri' = '" + pgUri() + "', 'table-name' = 'bad_updates'",
                "SELECT k, CAST(COUNT(*) AS STRING) FROM t GROUP BY k", true);
        assertTrue(msg.contains("no PRIMARY KEY") && msg.contains("snk"), msg);
    }

    /** A missing table, a value the column cannot hold, an unknown role: the job fails naming the table and the cause. */
    @Test
    void databaseErrorsFailTheJobNamingTheTable() throws Exception {
        String missing = failure(", 'uri' = '" + pgUri() + "', 'table-name' = 'no_such_table'", "SELECT * FROM t WHERE k > 0", true);
        assertTrue(missing.contains("no_such_table") && missing.contains("does not exist"), missing);

        pg("DROP TABLE IF EXISTS narrow", "CREATE TABLE narrow (k integer, s varchar(1))");
        String tooLong = failure(", 'uri' = '" + pgUri() + "', 'table-name' = 'narrow'", "SELECT k, CONCAT(s, 'xyz') FROM t WHERE k > 0", true);
        assertTrue(tooLong.contains("narrow") && tooLong.contains("value too long"), tooLong);
        assertEquals(List.of(), rows("narrow"), "nothing of the failed job is committed");

        // A column type the table cannot take, and a DECIMAL the column cannot hold.
        pg("DROP TABLE IF EXISTS typed_wrong", "CREATE TABLE typed_wrong (k integer, s integer)");
        String wrongType = failure(", 'uri' = '" + pgUri() + "', 'table-name' = 'typed_wrong'", "SELECT * FROM t WHERE k > 0", true);
        assertTrue(wrongType.contains("typed_wrong") && wrongType.contains("column s"), wrongType);
        pg("DROP TABLE IF EXISTS tight", "CREATE TABLE tight (k integer, d numeric(4, 2))");
        StreamTableEnvironment e = env(1, true, "k INT, s STRING", List.of(Row.of(1, "a"), Row.of(200, "b")), "");
        e.executeSql("CREATE TABLE snk (k INT, d DECIMAL(10, 2)) WITH ('connector' = 'adbc', 'driver' = 'postgresql', "
                + "'uri' = '" + pgUri() + "', 'table-name' = 'tight')");
        String overflow;
        try {
            e.executeSql("INSERT INTO snk SELECT k, CAST(k * 1.25 AS DECIMAL(10, 2)) FROM t WHERE k > 0").await();
            overflow = fail("a DECIMAL overflowing numeric(4, 2) was written");
        } catch (Exception x) {
            overflow = chain(x);
        }
        String o = overflow;
        assertTrue(o.contains("tight") && o.contains("numeric field overflow"), o);
        assertEquals(List.of(), rows("tight"), "nothing of the failed job is committed");

        java.net.URI u = java.net.URI.create(pgUri());
        String role = failure(", 'uri' = 'postgresql://nobody:secret@" + u.getHost() + ":" + u.getPort() + u.getPath()
                + "', 'table-name' = 'narrow'", "SELECT * FROM t WHERE k > 0", true);
        assertTrue(role.contains("nobody") && !role.contains("secret"), role);
    }
}
