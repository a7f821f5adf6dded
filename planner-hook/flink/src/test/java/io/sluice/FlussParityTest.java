package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.planner.SluiceProgram;
import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.sources.fluss.BucketFetchEmitter;
import io.sluice.testing.FlussCluster;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsSinkFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fluss tables on a real Fluss cluster (bin/sluice-fluss), read by Flink's own Fluss connector:
 * a log table of every type the tests write and a primary-key table's changelog, each read in
 * streaming mode by stock Flink and by Sluice into a test sink, the outputs compared row by row
 * (RowKinds included). The scans run natively (Fluss's enumerator and splits, each bucket's log
 * fetched raw and its Arrow batches decoded in Go, no Java row in between: the verdict has no
 * edge and the emitter counts the rows it decoded), and so does what runs after them; a
 * primary-key table read from its snapshot stays on Fluss's reader, with the reason.
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
        return env(sluice, 1);
    }

    static StreamTableEnvironment env(boolean sluice, int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(t);
        }
        t.executeSql(FlussCluster.catalogDdl("fluss"));
        return t;
    }

    /**
     * Runs an unbounded SELECT over Fluss tables, collects its first {@code rows} rows, checks that
     * no other row comes within a second, and cancels the job (closing the result's iterator).
     */
    static List<Row> stream(boolean sluice, String select, int rows, String edge, int parallelism) throws Exception {
        StreamTableEnvironment t = env(sluice, parallelism);
        List<Row> out = new ArrayList<>();
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        SluiceProgram.clearLastVerdict();
        try (CloseableIterator<Row> it = t.executeSql(select).collect()) {
            if (sluice) {
                // The verdict of the plan that runs (into the result's collect sink).
                Verdict v = SluiceProgram.lastVerdict();
                assertTrue(v != null && v.isNative(), () -> String.valueOf(v));
                if (edge == null) {
                    assertTrue(v.edgeNotes().isEmpty(), () -> "the Fluss scan is not native: " + v);
                } else {
                    assertTrue(v.edgeNotes().stream().anyMatch(n -> n.contains(edge)), () -> "no row edge with '" + edge + "' at Fluss's source: " + v);
                }
            }
            Future<Boolean> next = null;
            while (out.size() < rows) {
                next = waiter.submit(it::hasNext);
                assertTrue(next.get(120, TimeUnit.SECONDS), "the job ended after " + out.size() + " of " + rows + " rows");
                out.add(it.next());
            }
            Future<Boolean> more = waiter.submit(it::hasNext);
            try {
                more.get(1, TimeUnit.SECONDS);
                fail("a row after the " + rows + " expected: " + it.next());
            } catch (TimeoutException expected) {
                // nothing more came
            }
        } finally {
            waiter.shutdownNow();
        }
        return out;
    }

    /**
     * Stock Flink's and Sluice's outputs of one streaming read, compared in order; edge is null
     * when the scan must be native (all its rows decoded in Go), else what the verdict's row edge
     * at Fluss's source says.
     */
    static void check(String name, String select, int rows, String edge) throws Exception {
        check(name, select, rows, edge, 1);
    }

    /** As above, at a parallelism; above 1 the outputs are compared as multisets. */
    static void check(String name, String select, int rows, String edge, int parallelism) throws Exception {
        List<Row> stock = stream(false, select, rows, edge, parallelism);
        long before = NativeChainOperator.batches();
        long decoded = BucketFetchEmitter.rowsDecodedNatively();
        List<Row> sluice = stream(true, select, rows, edge, parallelism);
        assertTrue(NativeChainOperator.batches() > before, name + ": no native batch ran");
        if (edge == null) {
            assertTrue(BucketFetchEmitter.rowsDecodedNatively() - decoded >= rows, name + ": "
                    + (BucketFetchEmitter.rowsDecodedNatively() - decoded) + " rows decoded natively, expected at least " + rows);
        } else {
            assertEquals(decoded, BucketFetchEmitter.rowsDecodedNatively(), name + ": rows decoded natively behind a row edge");
        }
        assertEquals(rows, stock.size(), name + ": stock Flink's rows " + stock);
        ParityHarness.compareOutcomes(name, new ParityHarness.Outcome(stock, null), new ParityHarness.Outcome(sluice, null), parallelism > 1);
    }

    /**
     * A log table of three buckets written in five INSERTs, read at parallelism 2: a reader with
     * two buckets fetches both from their leader in one request; the rows of all buckets,
     * filtered and projected natively.
     */
    @Test
    void severalBucketsAtParallelismTwo() throws Exception {
        String table = DATABASE + ".buckets_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        StreamTableEnvironment t = env(false);
        t.executeSql("CREATE TABLE " + table + " (id INT, grp STRING, amount BIGINT) WITH ('bucket.num' = '3')").await();
        Random rnd = new Random(5);
        int passing = 0;
        for (int insert = 0; insert < 5; insert++) {
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                long amount = rnd.nextInt(100);
                passing += amount > 10 ? 1 : 0;
                rows.add(String.format(Locale.ROOT, "(%d, 'g%d', %d)", insert * 200 + i, rnd.nextInt(7), amount));
            }
            t.executeSql("INSERT INTO " + table + " VALUES " + String.join(", ", rows)).await();
        }
        check("fluss buckets", "SELECT id, grp, amount * 2 FROM " + table + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE amount > 10",
                passing, null, 2);
    }

    /** A log table of every type written, filtered and projected natively behind Fluss's source. */
    @Test
    void logTableFilteredAndProjected() throws Exception {
        check("fluss log", "SELECT id, UPPER(name), CAST(price * 2 AS DECIMAL(12, 2)), amount + 1, ok, score, d, ts, ltz, b FROM " + log
                        + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE amount % 3 <> 0", kept, null);
    }

    /**
     * Columns projected out of the table's order: the tablet server sends them in the table's
     * order and Go puts them into the query's.
     */
    @Test
    void logTableProjectedOutOfOrder() throws Exception {
        check("fluss projection", "SELECT b, ltz, id, name FROM " + log + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE id >= 0", LOG_ROWS, null);
    }

    /**
     * A primary-key table's changelog from its first write (+I for a key's first row, -U/+U for
     * each later one), projected natively: the same changes in the same order.
     */
    @Test
    void primaryKeyTableChangelog() throws Exception {
        check("fluss changelog", "SELECT id, UPPER(name), v * 10 FROM " + pk + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */",
                KEYS + 2 * (UPSERTS - KEYS), null);
    }

    /**
     * A primary-key table read from its snapshot (the default 'full' startup): the snapshot is
     * rows of Fluss's key-value store, not Arrow batches, so the scan stays Fluss's reader and the
     * verdict says why; the rest runs natively all the same.
     */
    @Test
    void primaryKeyTableFromItsSnapshotKeepsFlussReader() throws Exception {
        check("fluss snapshot", "SELECT id, UPPER(name), v * 10 FROM " + pk,
                KEYS + 2 * (UPSERTS - KEYS), "'scan.startup.mode' = 'full'");
    }

    /**
     * The changelog into a sink that takes upserts by key (no update-befores): the planner drops
     * the -U rows in front of it (DropUpdateBefore), which runs natively; the sink may read record
     * timestamps, so Fluss's reader decodes the log (a row edge). The sink's rows in order, as
     * stock Flink's.
     */
    @Test
    void upsertsIntoAKeyedSinkDropTheirUpdateBefores() throws Exception {
        List<List<Row>> outputs = new ArrayList<>();
        for (boolean sluice : new boolean[] {false, true}) {
            StreamTableEnvironment t = env(sluice);
            String sink = "fluss-upserts-" + UUID.randomUUID();
            t.executeSql("CREATE TABLE results (id INT NOT NULL, name STRING, v10 BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = '"
                    + RowsSinkFactory.IDENTIFIER + "', 'sink-id' = '" + sink + "', 'changelog' = 'upsert')");
            String insert = "INSERT INTO results SELECT id, UPPER(name), v * 10 FROM " + pk + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */";
            if (sluice) {
                Verdict v = Sluice.verdict(t, insert);
                assertTrue(v.isNative() && v.toString().contains("[native]   DropUpdateBefore"), v::toString);
            }
            var job = t.executeSql(insert);
            try {
                long deadline = System.currentTimeMillis() + 120_000;
                while (RowsSinkFactory.rows(sink).size() < UPSERTS) {
                    assertTrue(System.currentTimeMillis() < deadline, () -> RowsSinkFactory.rows(sink).size() + " of " + UPSERTS + " rows");
                    Thread.sleep(50);
                }
                Thread.sleep(1000); // nothing more may come
                outputs.add(RowsSinkFactory.rows(sink));
            } finally {
                job.getJobClient().orElseThrow().cancel().get();
            }
        }
        assertEquals(UPSERTS, outputs.get(0).size(), "stock Flink's rows " + outputs.get(0));
        assertTrue(outputs.get(0).stream().noneMatch(r -> r.getKind() == org.apache.flink.types.RowKind.UPDATE_BEFORE), "update-befores in " + outputs.get(0));
        ParityHarness.compareOutcomes("fluss upserts", new ParityHarness.Outcome(outputs.get(0), null),
                new ParityHarness.Outcome(outputs.get(1), null), false);
    }
}
