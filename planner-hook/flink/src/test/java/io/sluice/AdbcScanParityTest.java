package io.sluice;

import io.sluice.cli.LocalPostgres;
import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityCases;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ADBC source against stock Flink's JDBC source on the same PostgreSQL table: the same
 * query runs on stock Flink over a 'jdbc' table and on Sluice over an 'adbc' table (or a table of
 * an ADBC catalog), and both must return the same rows, every field of the same Java class and
 * value. The Sluice side is asserted native from the scan (Go read the batches into a native
 * chain), or, for the cases that must fall back, run on Flink with the same Go reader.
 */
class AdbcScanParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    /** The table's columns in PostgreSQL. */
    static final String PG_COLUMNS = "id integer NOT NULL, b boolean, s smallint, i integer, l bigint, f real, "
            + "d double precision, n numeric(10, 2), nw numeric(30, 8), c char(3), v varchar(20), t text, bt bytea, "
            + "dt date, tm time(0), tf time(3), ts3 timestamp(3), ts timestamp, ev timestamp(3)";

    /** The same columns in Flink, as Flink's JDBC catalog maps them. */
    static final String FLINK_COLUMNS = "id INT NOT NULL, b BOOLEAN, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, "
            + "n DECIMAL(10, 2), nw DECIMAL(30, 8), c CHAR(3), v VARCHAR(20), t STRING, bt BYTES, dt DATE, tm TIME(0), "
            + "tf TIME(3), ts3 TIMESTAMP(3), ts TIMESTAMP(6), ev TIMESTAMP(3)";

    static final int ROWS = 3000;

    @BeforeAll
    static void fill() throws Exception {
        LocalPostgres.execute("DROP TABLE IF EXISTS scan_src", "CREATE TABLE scan_src (" + PG_COLUMNS + ")",
                // NULLs in every nullable column now and then, non-ASCII text, negative and
                // pre-1970 values, fractions the types round or cut.
                "INSERT INTO scan_src SELECT g,"
                        + " CASE WHEN g % 7 = 0 THEN NULL ELSE g % 2 = 0 END,"
                        + " CASE WHEN g % 11 = 0 THEN NULL ELSE (g % 30000 - 15000)::smallint END,"
                        + " CASE WHEN g % 13 = 0 THEN NULL ELSE g * 7919 - 9000000 END,"
                        + " CASE WHEN g % 17 = 0 THEN NULL ELSE g::bigint * 1000000007 - 5000000000000 END,"
                        + " CASE WHEN g % 19 = 0 THEN NULL ELSE (g / 7.0)::real END,"
                        + " CASE WHEN g % 23 = 0 THEN NULL ELSE g / 3.0 - 500 END,"
                        + " CASE WHEN g % 29 = 0 THEN NULL ELSE (g * 1.237 - 1000)::numeric(10, 2) END,"
                        + " CASE WHEN g % 31 = 0 THEN NULL ELSE (g::numeric * 123456789.12345678) END,"
                        + " CASE WHEN g % 37 = 0 THEN NULL ELSE chr(97 + g % 26) END,"
                        + " CASE WHEN g % 41 = 0 THEN NULL WHEN g % 5 = 0 THEN 'é€' || g ELSE 'v' || g END,"
                        + " CASE WHEN g % 43 = 0 THEN NULL ELSE repeat('ß', g % 4) || '漢' || g END,"
                        + " CASE WHEN g % 47 = 0 THEN NULL ELSE decode(lpad(to_hex(g), 8, '0'), 'hex') END,"
                        + " CASE WHEN g % 53 = 0 THEN NULL ELSE date '1965-03-01' + g * 7 END,"
                        + " CASE WHEN g % 59 = 0 THEN NULL ELSE time '00:00:00' + g * interval '17 seconds' END,"
                        + " CASE WHEN g % 71 = 0 THEN NULL ELSE time '00:00:00' + g * interval '17.123 seconds' END,"
                        + " CASE WHEN g % 61 = 0 THEN NULL ELSE timestamp '1969-12-31 23:00:00' + g * interval '1.237 seconds' END,"
                        + " CASE WHEN g % 67 = 0 THEN NULL ELSE timestamp '1999-12-31 23:59:59' + g * interval '3.000017 seconds' END,"
                        + " timestamp '2024-01-01 00:00:00' + g * interval '10 milliseconds' * 37"
                        + " FROM generate_series(1, " + ROWS + ") g");
    }

    static StreamTableEnvironment env(boolean sluice, int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(tEnv);
        }
        return tEnv;
    }

    /** Options of a read split into BETWEEN ranges of id. */
    static final String PARTITIONED = ", 'scan.partition.column' = 'id', 'scan.partition.num' = '4', "
            + "'scan.partition.lower-bound' = '-5', 'scan.partition.upper-bound' = '2500'";

    /**
     * The cases of {@link #parity}, from parity/adbc-scan.json: a query over table src (with the
     * case's watermark clause and the scan options both tables take).
     */
    static List<ParityCase> cases() {
        return ParityCases.load("parity/adbc-scan.json", Map.of("PARTITIONED", PARTITIONED));
    }

    @TestFactory
    Stream<DynamicTest> parity() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    static void check(ParityCase c) {
        String watermark = c.var("watermark", "");
        StreamTableEnvironment stock = env(false, c.parallelism());
        stock.executeSql("CREATE TABLE src (" + FLINK_COLUMNS + watermark + ") WITH ('connector' = 'jdbc', 'url' = '"
                + LocalPostgres.jdbcUrl(false) + "', 'table-name' = 'scan_src'" + c.var("scanOptions", "") + ")");
        ParityHarness.Outcome flink = ParityHarness.collect(stock, c.query());
        assertFalse(flink.failed(), () -> c.name() + ": stock Flink failed: " + flink.failure());
        assertFalse(flink.rows().isEmpty(), c.name() + ": no rows");

        StreamTableEnvironment tEnv = env(true, c.parallelism());
        tEnv.executeSql("CREATE TABLE src (" + FLINK_COLUMNS + watermark + ") WITH ('connector' = 'adbc', 'driver' = 'postgresql', "
                + "'uri' = '" + LocalPostgres.uri() + "', 'table-name' = 'scan_src'" + c.var("scanOptions", "") + ")");
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        long before = NativeChainOperator.batches("sluice-adbc-scan_1");
        if (c.expectNative()) {
            assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), () -> c.name() + ": expected native, got\n" + verdict);
            assertTrue(verdict.nodes().stream().anyMatch(n -> n.type().equals("sluice-adbc-scan_1") && n.supported()),
                    () -> c.name() + ": the scan is not native:\n" + verdict);
        } else {
            assertFalse(verdict.isNative() && verdict.edgeNotes().isEmpty(), () -> c.name() + ": expected a fallback, got\n" + verdict);
            String why = String.join("\n", verdict.reasons()) + "\n" + String.join("\n", verdict.edgeNotes());
            assertTrue(why.contains(c.reason()), () -> c.name() + ": the fallback does not mention '" + c.reason() + "':\n" + verdict);
        }
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        ParityHarness.compareOutcomes(c.name(), flink, sluice, c.unordered() || c.parallelism() > 1);
        if (c.expectNative()) {
            assertTrue(NativeChainOperator.batches("sluice-adbc-scan_1") > before, c.name() + ": no batch came from the native scan");
        } else {
            assertEquals(before, NativeChainOperator.batches("sluice-adbc-scan_1"), c.name() + ": a fallback job read native batches");
        }
    }

    @Test
    void catalogTablesReadAsFlinksJdbcCatalogTables() throws Exception {
        String query = "SELECT id, n, nw, c, v, ts FROM %s WHERE id %% 3 = 0";
        StreamTableEnvironment stock = env(false, 1);
        java.net.URI u = java.net.URI.create(LocalPostgres.uri());
        String database = u.getPath().substring(1);
        stock.executeSql("CREATE CATALOG pg WITH ('type' = 'jdbc', 'base-url' = 'jdbc:postgresql://" + u.getHost() + ":"
                + u.getPort() + "', 'default-database' = '" + database + "', 'username' = '" + u.getUserInfo()
                + "', 'password' = 'unused')");
        ParityHarness.Outcome flink = ParityHarness.collect(stock, String.format(query, "pg.`" + database + "`.`public.scan_src`"));
        assertFalse(flink.failed(), () -> "stock Flink failed: " + flink.failure());

        StreamTableEnvironment tEnv = env(true, 1);
        tEnv.executeSql("CREATE CATALOG wh WITH ('type' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + LocalPostgres.uri() + "')");
        tEnv.useCatalog("wh");
        tEnv.useDatabase("public");
        Verdict verdict = Sluice.verdict(tEnv, String.format(query, "scan_src"));
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
        ParityHarness.compareOutcomes("catalog", flink, ParityHarness.collect(tEnv, String.format(query, "scan_src")), true);
    }

    /**
     * Warehouse to warehouse, exactly once across failures: an ADBC scan (four ranges at
     * parallelism 2) through a native Calc into an ADBC sink, one native chain, fails three times
     * while checkpoints commit; restored splits skip the rows they emitted, and the table holds
     * each row once, as stock Flink's JDBC source and sink write it without failures.
     */
    @Test
    void warehouseToWarehouseExactlyOnceAcrossFailures() throws Exception {
        String flinkColumns = "id INT NOT NULL, v VARCHAR(20), n DECIMAL(10, 2), ts TIMESTAMP(6)";
        String pgColumns = "id integer NOT NULL, v varchar(20), n numeric(10, 2), ts timestamp";
        LocalPostgres.execute("DROP TABLE IF EXISTS copy_stock", "DROP TABLE IF EXISTS copy_sluice",
                "CREATE TABLE copy_stock (" + pgColumns + ")", "CREATE TABLE copy_sluice (" + pgColumns + ")");
        String partitioned = ", 'scan.partition.column' = 'id', 'scan.partition.num' = '4', "
                + "'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '" + ROWS + "'";
        String insert = "INSERT INTO snk SELECT id, UPPER(v), n * 3, ts FROM src WHERE id % 5 <> 0";

        StreamTableEnvironment stock = env(false, 2);
        stock.executeSql("CREATE TABLE src (" + flinkColumns + ") WITH ('connector' = 'jdbc', 'url' = '"
                + LocalPostgres.jdbcUrl(false) + "', 'table-name' = 'scan_src'" + partitioned + ")");
        stock.executeSql("CREATE TABLE snk (" + flinkColumns + ") WITH ('connector' = 'jdbc', 'url' = '"
                + LocalPostgres.jdbcUrl(false) + "', 'table-name' = 'copy_stock')");
        stock.executeSql(insert).await();

        StreamTableEnvironment tEnv = env(true, 2);
        ParityHarness.injectFailures(tEnv, 40, 2);
        String adbc = "'connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + LocalPostgres.uri() + "', ";
        tEnv.executeSql("CREATE TABLE src (" + flinkColumns + ") WITH (" + adbc + "'table-name' = 'scan_src'" + partitioned + ")");
        tEnv.executeSql("CREATE TABLE snk (" + flinkColumns + ") WITH (" + adbc + "'table-name' = 'copy_sluice', "
                + "'sink.buffer-flush.max-rows' = '50')");
        Verdict verdict = Sluice.verdict(tEnv, insert);
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
        long restored = io.sluice.sources.adbc.AdbcSourceReader.SPLITS_RESTORED_MID_WAY.get();
        tEnv.executeSql(insert).await();

        List<String> want = LocalPostgres.rows("SELECT * FROM copy_stock ORDER BY id");
        assertEquals(ROWS - ROWS / 5, want.size());
        assertEquals(want, LocalPostgres.rows("SELECT * FROM copy_sluice ORDER BY id"));
        assertTrue(io.sluice.sources.adbc.AdbcSourceReader.SPLITS_RESTORED_MID_WAY.get() > restored,
                "the failures should have restored a split at a position inside it");
    }

    @Test
    void badOptionsAndTypesFailNamingTheTableAndColumn() throws Exception {
        StreamTableEnvironment tEnv = env(true, 1);
        String base = "'connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + LocalPostgres.uri() + "', 'table-name' = 'scan_src'";
        tEnv.executeSql("CREATE TABLE half_partitioned (id INT) WITH (" + base + ", 'scan.partition.column' = 'id')");
        Exception e = assertThrows(Exception.class, () -> tEnv.explainSql("SELECT * FROM half_partitioned"));
        assertTrue(messages(e).contains("must all be set, or none"), () -> messages(e));

        tEnv.executeSql("CREATE TABLE nested (id INT, a ARRAY<INT>) WITH (" + base + ")");
        Exception e2 = assertThrows(Exception.class, () -> tEnv.explainSql("SELECT * FROM nested"));
        assertTrue(messages(e2).contains("column a: type ARRAY<INT> is not read by the adbc source yet"), () -> messages(e2));

        // A column declared with a type the database column does not hold: the job fails naming it.
        tEnv.executeSql("CREATE TABLE wrong (id INT, t INT) WITH (" + base + ")");
        ParityHarness.Outcome o = ParityHarness.collect(tEnv, "SELECT * FROM wrong");
        assertTrue(o.failed(), "reading text as INT did not fail");
        assertTrue(messages(o.failure()).contains("adbc scan scan_src: column t: the database column is PostgreSQL text"),
                () -> messages(o.failure()));

        tEnv.executeSql("CREATE TABLE missing (id INT) WITH ('connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '"
                + LocalPostgres.uri() + "', 'table-name' = 'no_such_table')");
        ParityHarness.Outcome m = ParityHarness.collect(tEnv, "SELECT * FROM missing");
        assertTrue(m.failed() && messages(m.failure()).contains("no_such_table"), () -> messages(m.failure()));
    }

    static String messages(Throwable t) {
        List<String> out = new ArrayList<>();
        for (; t != null; t = t.getCause()) {
            out.add(String.valueOf(t.getMessage()));
        }
        return String.join("\n", out);
    }
}
