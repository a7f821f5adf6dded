package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.sinks.adbc.AdbcNativeSink;
import io.sluice.testing.FlightSqlServer;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ADBC connector through a Flight SQL server (ADBC's Go Flight SQL driver, 'driver' =
 * 'flightsql'; the server is arrow-go's example over SQLite): a native job writes a query's rows
 * into the server's table, exactly once, and a native scan reads them back; what comes back must
 * be what stock Flink computes for the same query on the same input.
 */
class AdbcFlightSqlTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static StreamTableEnvironment env(boolean sluice, List<Row> rows) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(tEnv);
        }
        tEnv.executeSql("CREATE TABLE t (k BIGINT, s STRING, d DOUBLE) WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(rows) + "')");
        return tEnv;
    }

    @Test
    void writesAndReadsThroughFlightSql(@TempDir Path dir) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(Row.of((long) i * 7919 - 100000, i % 17 == 0 ? null : "é" + i, i % 13 == 0 ? null : i / 8.0));
        }
        String query = "SELECT k, UPPER(s) AS s, d * 2 AS d FROM t WHERE MOD(k, 3) <> 0";
        ParityHarness.Outcome stock = ParityHarness.collect(env(false, rows), query);
        assertFalse(stock.failed(), () -> "stock Flink failed: " + stock.failure());

        try (FlightSqlServer server = FlightSqlServer.start(dir, "CREATE TABLE wh (k INTEGER, s TEXT, d REAL)")) {
            StreamTableEnvironment tEnv = env(true, rows);
            tEnv.executeSql("CREATE TABLE wh (k BIGINT, s STRING, d DOUBLE) WITH ('connector' = 'adbc', 'driver' = 'flightsql', "
                    + "'uri' = '" + server.uri() + "', 'table-name' = 'wh', 'sink.buffer-flush.max-rows' = '1000')");
            String insert = "INSERT INTO wh " + query;
            Verdict write = Sluice.verdict(tEnv, insert);
            assertTrue(write.isNative() && write.edgeNotes().isEmpty(), write::toString);
            long batches = AdbcNativeSink.BATCHES.get();
            tEnv.executeSql(insert).await();
            assertTrue(AdbcNativeSink.BATCHES.get() > batches, "no batch was written natively");

            Verdict read = Sluice.verdict(tEnv, "SELECT * FROM wh");
            assertTrue(read.isNative() && read.edgeNotes().isEmpty(), read::toString);
            long scanned = NativeChainOperator.batches("sluice-adbc-scan_1");
            ParityHarness.Outcome back = ParityHarness.collect(tEnv, "SELECT * FROM wh");
            assertTrue(NativeChainOperator.batches("sluice-adbc-scan_1") > scanned, "no batch came from the native scan");
            ParityHarness.compareOutcomes("flight-sql-round-trip", stock, back, true);
        }
    }
}
