package io.sluice;

import io.sluice.cli.LocalPostgres;
import io.sluice.planner.Verdict;
import io.sluice.sinks.adbc.AdbcNativeSink;
import io.sluice.testing.PostgresServer;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The warehouse dies under a running exactly-once ADBC sink: a PostgreSQL server of the test's
 * own is killed (immediate shutdown, as a crash) twice while checkpoints are being committed,
 * and started again. The job fails, restarts from its checkpoints (its writers cannot connect
 * until the server is back), and its table must hold every row once: the rows stock Flink's JDBC
 * sink writes without failures into the tests' shared server.
 */
class AdbcServerFailureTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int PORT = 54339;
    static PostgresServer server;

    @BeforeAll
    static void start() throws Exception {
        server = PostgresServer.start(PORT);
        // A server that acknowledges commits before their WAL is written loses them when killed,
        // and no sink can be exactly once over that.
        assertEquals("on", value(server.jdbcUrl(), "SHOW synchronous_commit"), "the killed server must keep acknowledged commits");
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    static String value(String jdbcUrl, String query) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static List<String> rows(String jdbcUrl, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT k, s FROM " + table + " ORDER BY k, s")) {
            while (rs.next()) {
                out.add(rs.getString(1) + " | " + rs.getString(2));
            }
        }
        return out;
    }

    /** Commits recorded for a table on the killed server (0 while it is down). */
    static long commits(String table) {
        try {
            return Long.parseLong(value(server.jdbcUrl(), "SELECT count(*) FROM sluice_commits WHERE target_table = '" + table + "'"));
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    static void awaitCommits(String table, long atLeast, TableResult job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (commits(table) < atLeast) {
            assertTrue(System.nanoTime() < deadline, "no " + atLeast + " commits of " + table + " within a minute");
            assertTrue(!job.getJobClient().orElseThrow().getJobStatus().get().isGloballyTerminalState(),
                    "the job ended before the server was killed");
            Thread.sleep(50);
        }
    }

    /**
     * Rows of the killed job's input, 2 ms apart: the job must still run when its second kill
     * comes, after six commits and a restart, also on a loaded machine (3,000 rows were once
     * not enough).
     */
    static final int ROWS = 6000;

    @ParameterizedTest
    @ValueSource(strings = {"two-phase", "stage"})
    void serverKilledWhileCheckpointsCommit(String commitMode) throws Exception {
        String table = "killed_" + commitMode.replace('-', '_');
        List<Row> input = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            input.add(Row.of(i, "r" + i));
        }
        String stockTable = table + "_stock";
        LocalPostgres.execute("DROP TABLE IF EXISTS " + stockTable, "CREATE TABLE " + stockTable + " (k integer, s text)");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
            s.execute("CREATE TABLE " + table + " (k integer, s text)");
            s.execute("DELETE FROM sluice_commits WHERE target_table = '" + table + "'");
        } catch (SQLException e) {
            // The commit table does not exist yet on a fresh server.
        }
        String insert = "INSERT INTO snk SELECT k, CONCAT(s, '!') FROM t WHERE k >= 0";

        StreamExecutionEnvironment stockEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        stockEnv.setParallelism(1);
        StreamTableEnvironment stock = StreamTableEnvironment.create(stockEnv);
        stock.executeSql("CREATE TABLE t (k INT, s STRING) WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(input) + "')");
        stock.executeSql("CREATE TABLE snk (k INT, s STRING) WITH ('connector' = 'jdbc', 'url' = '"
                + LocalPostgres.jdbcUrl(false) + "', 'table-name' = '" + stockTable + "')");
        stock.executeSql(insert).await();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        Sluice.install(tEnv);
        tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
        tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 200);
        tEnv.getConfig().set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        tEnv.executeSql("CREATE TABLE t (k INT, s STRING) WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(input) + "', 'delay-ms' = '2')");
        tEnv.executeSql("CREATE TABLE snk (k INT, s STRING) WITH ('connector' = 'adbc', 'driver' = 'postgresql', 'uri' = '"
                + server.uri() + "', 'table-name' = '" + table + "', 'sink.commit-mode' = '" + commitMode + "', "
                + "'sink.buffer-flush.max-rows' = '25')");
        Verdict verdict = Sluice.verdict(tEnv, insert);
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
        long batches = AdbcNativeSink.BATCHES.get();
        long restored = io.sluice.sinks.adbc.AdbcSink.WRITERS_RESTORED.get();

        TableResult job = tEnv.executeSql(insert);
        for (int kill = 1; kill <= 2; kill++) {
            awaitCommits(table, 3L * kill, job);
            server.kill();
            Thread.sleep(1000);
            server.restart();
        }
        try {
            job.await(3, TimeUnit.MINUTES);
        } catch (TableException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new AssertionError("the job failed after the server crashes: " + root, e);
        }

        assertTrue(AdbcNativeSink.BATCHES.get() > batches, "no batch was written natively");
        assertTrue(io.sluice.sinks.adbc.AdbcSink.WRITERS_RESTORED.get() >= restored + 2,
                "both crashes should have restarted the job from a checkpoint");
        String prefix = commitMode.equals("two-phase") ? "sluice_txn_" : "sluice_stage_";
        assertEquals("0", value(server.jdbcUrl(), "SELECT count(*) FROM sluice_commits WHERE target_table = '" + table
                + "' AND stage NOT LIKE '" + prefix + "%'"), "commits of another mode than " + commitMode);
        List<String> want = rows(LocalPostgres.jdbcUrl(false), stockTable);
        assertEquals(ROWS, want.size());
        assertEquals(want, rows(server.jdbcUrl(), table), "the table after two server crashes");
        assertEquals("0", value(server.jdbcUrl(), "SELECT count(*) FROM pg_prepared_xacts"), "prepared transactions left behind");
        assertEquals("0", value(server.jdbcUrl(), "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'sluice_stage_%'"),
                "stage tables left behind");
    }
}
