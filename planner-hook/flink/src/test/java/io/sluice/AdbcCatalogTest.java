package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.sinks.adbc.AdbcNativeSink;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.stream.Collectors;

import static io.sluice.AdbcSinkParityTest.pg;
import static io.sluice.AdbcSinkParityTest.pgUri;
import static io.sluice.AdbcSinkParityTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ADBC catalog over the tests' PostgreSQL server: its tables have the schemas Flink's JDBC
 * catalog for PostgreSQL gives the same tables, they are written natively by the ADBC sink, and
 * CREATE TABLE creates the warehouse table.
 */
class AdbcCatalogTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static StreamTableEnvironment env() {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        Sluice.install(tEnv);
        tEnv.executeSql("CREATE CATALOG wh WITH ('type' = 'adbc', 'driver' = 'postgresql', 'uri' = '" + pgUri() + "')");
        return tEnv;
    }

    static String columns(ResolvedSchema schema) {
        return schema.getColumns().stream().map(Column::toString).collect(Collectors.joining(", "))
                + schema.getPrimaryKey().map(k -> " " + k).orElse("");
    }

    @Test
    void tablesHaveTheSchemasOfFlinksJdbcCatalog() throws Exception {
        pg("DROP SCHEMA IF EXISTS cat_parity CASCADE", "CREATE SCHEMA cat_parity",
                "CREATE TABLE cat_parity.typed (id bigserial PRIMARY KEY, b boolean, s smallint, i integer NOT NULL, l bigint, "
                        + "f real, d double precision, n numeric(10, 2), nn numeric, c char(3), v varchar(20), vv varchar, "
                        + "t text, bin bytea, dt date, tm time, tm3 time(3), ts timestamp, ts3 timestamp(3), tz timestamptz, "
                        + "tz2 timestamptz(2), ai integer[], at text[])");
        StreamTableEnvironment tEnv = env();
        java.net.URI u = java.net.URI.create(pgUri());
        tEnv.executeSql("CREATE CATALOG pgjdbc WITH ('type' = 'jdbc', 'base-url' = 'jdbc:postgresql://" + u.getHost() + ":"
                + u.getPort() + "', 'default-database' = '" + u.getPath().substring(1) + "', 'username' = '"
                + u.getUserInfo() + "', 'password' = 'unused')");
        ResolvedSchema jdbc = tEnv.from("pgjdbc.`" + u.getPath().substring(1) + "`.`cat_parity.typed`").getResolvedSchema();
        ResolvedSchema adbc = tEnv.from("wh.cat_parity.typed").getResolvedSchema();
        assertEquals(columns(jdbc), columns(adbc));
        assertTrue(tEnv.executeSql("SHOW DATABASES IN wh").collect().hasNext());
        List<String> dbs = new java.util.ArrayList<>(List.of(tEnv.getCatalog("wh").orElseThrow().listDatabases().toArray(String[]::new)));
        assertTrue(dbs.contains("cat_parity") && dbs.contains("public") && !dbs.contains("pg_catalog"), dbs::toString);
        assertEquals(List.of("typed"), tEnv.getCatalog("wh").orElseThrow().listTables("cat_parity"));
    }

    @Test
    void createdTablesAreWrittenNatively() throws Exception {
        pg("DROP TABLE IF EXISTS public.cat_created");
        StreamTableEnvironment tEnv = env();
        tEnv.executeSql("CREATE TABLE wh.`public`.cat_created (k INT NOT NULL, label VARCHAR(10), amount DECIMAL(12, 2), "
                + "ts TIMESTAMP(3))");
        assertEquals(List.of(), rows("public.cat_created"), "the warehouse table exists, empty");
        tEnv.executeSql("CREATE TEMPORARY TABLE gen (x BIGINT) WITH ('connector' = 'datagen', 'fields.x.kind' = 'sequence', "
                + "'fields.x.start' = '1', 'fields.x.end' = '1000')");
        String insert = "INSERT INTO wh.`public`.cat_created SELECT CAST(x AS INT), CONCAT('n', CAST(x % 7 AS STRING)), "
                + "CAST(x AS DECIMAL(12, 2)) / 4, TIMESTAMP '2024-01-01 00:00:00' + x * INTERVAL '1' SECOND FROM gen";
        Verdict verdict = Sluice.verdict(tEnv, insert);
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
        long batches = AdbcNativeSink.BATCHES.get();
        tEnv.executeSql(insert).await();
        assertTrue(AdbcNativeSink.BATCHES.get() > batches, "no batch was written natively");
        List<String> got = rows("public.cat_created");
        assertEquals(1000, got.size());
        assertTrue(got.contains("4 | n4 | 1.00 | 2024-01-01 00:00:04"), () -> got.subList(0, 5).toString());
        assertThrows(Exception.class, () -> tEnv.executeSql("CREATE TABLE wh.`public`.cat_created (k INT)"));
        tEnv.executeSql("DROP TABLE wh.`public`.cat_created");
        assertFalse(tEnv.getCatalog("wh").orElseThrow().tableExists(new org.apache.flink.table.catalog.ObjectPath("public", "cat_created")));
    }

    @Test
    void unreachableServerFailsWhenTheCatalogIsCreated() {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        Exception e = assertThrows(Exception.class, () -> tEnv.executeSql(
                "CREATE CATALOG gone WITH ('type' = 'adbc', 'driver' = 'postgresql', 'uri' = 'postgresql://x:secret@127.0.0.1:1/none')"));
        // Flink's own message lists the catalog's options; Sluice's (the cause) names the server without the password.
        Throwable cause = e;
        while (cause != null && !(cause instanceof org.apache.flink.table.catalog.exceptions.CatalogException)) {
            cause = cause.getCause();
        }
        String msg = AdbcSinkParityTest.chain(e);
        assertTrue(cause != null && cause.getMessage().contains("127.0.0.1:1") && cause.getMessage().contains("Connection refused")
                && !AdbcSinkParityTest.chain(cause).contains("secret"), msg);
    }
}
