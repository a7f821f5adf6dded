package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.FlussCluster;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsSinkFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Fluss tables on a real Fluss cluster (bin/sluice-fluss), read by Flink's own Fluss connector:
 * a log table of every type the tests write and a primary-key table's changelog, each read in
 * streaming mode by stock Flink and by Sluice into a test sink, the outputs compared row by row
 * (RowKinds included). Fluss's source itself is not native yet: its rows enter the native chain
 * at a row edge, which the verdict shows, and what runs after it (a Calc over inserts or over
 * the changelog) runs natively.
 */
class FlussParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String DATABASE = "fluss.sluice_tests";
    static final int LOG_ROWS = 300;
    static final int KEYS = 20;
    static final int UPSERTS = 120;
    static String log;
    static String pk;
    /** The log table's rows the filter of {@link #logTableFilteredAndProjected} keeps. */
    static int kept;

    /** Writes the two tables through Flink's Fluss sink (stock Flink), each in one bucket. */
    @BeforeAll
    static void writeTables() throws Exception {
        StreamTableEnvironment t = env(false);
        t.executeSql("CREATE DATABASE IF NOT EXISTS " + DATABASE).await();
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        log = DATABASE + ".bids_" + suffix;
        pk = DATABASE + ".items_" + suffix;
        t.executeSql("CREATE TABLE " + log + " (id INT, name STRING, price DECIMAL(10, 2), amount BIGINT NOT NULL,"
                + " ok BOOLEAN, score DOUBLE, d DATE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), b BYTES)"
                + " WITH ('bucket.num' = '1')").await();
        Random rnd = new Random(7);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < LOG_ROWS; i++) {
            long amount = rnd.nextInt(1000);
            if (amount % 3 != 0) {
                kept++;
            }
            byte[] bytes = new byte[rnd.nextInt(4)];
            rnd.nextBytes(bytes);
            rows.add(String.format(Locale.ROOT, "(%d, %s, %s, %d, %s, %s, DATE '2024-01-%02d',"
                            + " TIMESTAMP '2024-01-01 10:%02d:%02d.%03d', TO_TIMESTAMP_LTZ(%d, 3), %s)",
                    i, i % 7 == 0 ? "CAST(NULL AS STRING)" : "'n" + rnd.nextInt(50) + "'",
                    i % 11 == 0 ? "CAST(NULL AS DECIMAL(10, 2))" : "CAST(" + (rnd.nextInt(200000) - 100000) / 100.0 + " AS DECIMAL(10, 2))",
                    amount, i % 5 == 0 ? "CAST(NULL AS BOOLEAN)" : String.valueOf(rnd.nextBoolean()),
                    i % 13 == 0 ? "CAST(NULL AS DOUBLE)" : "CAST(" + rnd.nextInt(100000) / 8.0 + " AS DOUBLE)",
                    1 + i % 28, i / 60, i % 60, rnd.nextInt(1000), 1_700_000_000_000L + i * 1234L,
                    i % 9 == 0 ? "CAST(NULL AS BYTES)" : "X'" + HexFormat.of().formatHex(bytes) + "'"));
        }
        t.executeSql("INSERT INTO " + log + " VALUES " + String.join(", ", rows)).await();
        t.executeSql("CREATE TABLE " + pk + " (id INT, name STRING, v BIGINT, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('bucket.num' = '1')").await();
        rows.clear();
        for (int i = 0; i < UPSERTS; i++) {
            int id = i < KEYS ? i : rnd.nextInt(KEYS);
            rows.add(String.format(Locale.ROOT, "(%d, 'n%d', %d)", id, rnd.nextInt(5), i));
        }
        t.executeSql("INSERT INTO " + pk + " VALUES " + String.join(", ", rows)).await();
    }

    static StreamTableEnvironment env(boolean sluice) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(t);
        }
        t.executeSql(FlussCluster.catalogDdl("fluss"));
        return t;
    }

    /**
     * Runs {@code INSERT INTO results SELECT ...} on an unbounded Fluss read until the sink has
     * {@code rows} rows, then half a second more (nothing else may come), and cancels the job.
     */
    static List<Row> stream(boolean sluice, String sinkColumns, String changelog, String select, int rows) throws Exception {
        StreamTableEnvironment t = env(sluice);
        String sink = "fluss-" + UUID.randomUUID();
        t.executeSql("CREATE TABLE results (" + sinkColumns + ") WITH ('connector' = '" + RowsSinkFactory.IDENTIFIER
                + "', 'sink-id' = '" + sink + "', 'changelog' = '" + changelog + "')");
        String insert = "INSERT INTO results " + select;
        if (sluice) {
            Verdict v = Sluice.verdict(t, insert);
            assertTrue(v.isNative(), v::toString);
            assertTrue(v.edgeNotes().stream().anyMatch(n -> n.contains("Fluss's source is not native yet")), () -> "no row edge at Fluss's source: " + v);
        }
        TableResult job = t.executeSql(insert);
        try {
            long deadline = System.currentTimeMillis() + 120_000;
            while (RowsSinkFactory.rows(sink).size() < rows) {
                JobStatus status = job.getJobClient().orElseThrow().getJobStatus().get();
                assertTrue(!status.isTerminalState() && System.currentTimeMillis() < deadline,
                        () -> "job " + status + ", " + RowsSinkFactory.rows(sink).size() + " of " + rows + " rows");
                Thread.sleep(50);
            }
            Thread.sleep(500);
            return RowsSinkFactory.rows(sink);
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
    }

    /** Stock Flink's and Sluice's outputs of one streaming read, compared in order. */
    static void check(String name, String sinkColumns, String changelog, String select, int rows) throws Exception {
        List<Row> stock = stream(false, sinkColumns, changelog, select, rows);
        long before = NativeChainOperator.batches();
        List<Row> sluice = stream(true, sinkColumns, changelog, select, rows);
        assertTrue(NativeChainOperator.batches() > before, name + ": no native batch ran");
        assertEquals(rows, stock.size(), name + ": stock Flink's rows " + stock);
        ParityHarness.compareOutcomes(name, new ParityHarness.Outcome(stock, null), new ParityHarness.Outcome(sluice, null), false);
    }

    /** A log table of every type written, filtered and projected natively behind Fluss's source. */
    @Test
    void logTableFilteredAndProjected() throws Exception {
        check("fluss log", "id INT, name STRING, p2 DECIMAL(12, 2), a1 BIGINT, ok BOOLEAN, score DOUBLE, d DATE,"
                        + " ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), b BYTES", "insert-only",
                "SELECT id, UPPER(name), CAST(price * 2 AS DECIMAL(12, 2)), amount + 1, ok, score, d, ts, ltz, b FROM " + log
                        + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE amount % 3 <> 0", kept);
    }

    /**
     * A primary-key table's changelog from its first write (+I for a key's first row, -U/+U for
     * each later one), projected natively: the same changes in the same order.
     */
    @Test
    void primaryKeyTableChangelog() throws Exception {
        check("fluss changelog", "id INT, name STRING, v10 BIGINT", "all",
                "SELECT id, UPPER(name), v * 10 FROM " + pk + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */",
                KEYS + 2 * (UPSERTS - KEYS));
    }
}
