package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.sinks.iceberg.NativeIcebergTaskWriter;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native Iceberg sink against Flink's own Iceberg connector: the same INSERT on stock Flink
 * and on Sluice into two tables of one Hadoop catalog; both tables read back by stock Flink hold
 * the same rows, and the data files Go wrote carry the Parquet schema and the metrics Flink's
 * Iceberg writer gives the same rows. The sink is verified native (SluiceSink in the plan, data
 * files completed by the native task writer).
 */
class IcebergSinkParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    @TempDir
    static Path warehouse;

    static StreamTableEnvironment env(int parallelism, boolean sluice, boolean v2Sink) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        // Flink's v1 Iceberg sink (1.11 on Flink 2.1) needs object reuse: without it Kryo copies
        // its committables and fails (docs/connectors/iceberg.md).
        tEnv.getConfig().set("pipeline.object-reuse", "true");
        tEnv.getConfig().set("table.exec.iceberg.use-v2-sink", String.valueOf(v2Sink));
        if (sluice) {
            Sluice.install(tEnv);
        }
        tEnv.executeSql("CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '"
                + warehouse.toUri() + "')");
        tEnv.executeSql("CREATE TABLE IF NOT EXISTS events (auction INT, price BIGINT, bidder STRING, ts TIMESTAMP(6), "
                + "ts3 AS CAST(ts AS TIMESTAMP(3)), WATERMARK FOR ts3 AS ts3 - INTERVAL '1' SECOND) WITH ("
                + "'connector' = 'iceberg', 'catalog-name' = 'lake', 'catalog-type' = 'hadoop', 'warehouse' = '"
                + warehouse.toUri() + "', 'catalog-database' = 'db', 'catalog-table' = 'events')");
        return tEnv;
    }

    @BeforeAll
    static void writeSources() throws Exception {
        StreamTableEnvironment w = env(1, false, false);
        w.executeSql("CREATE DATABASE lake.db");
        w.executeSql("CREATE TABLE lake.db.src (" + IcebergParityTest.SCHEMA + ")");
        w.executeSql("INSERT INTO lake.db.src VALUES " + IcebergParityTest.ROWS_1 + ", " + IcebergParityTest.ROWS_2).await();
        w.executeSql("CREATE TABLE lake.db.nested_src (k INT, " + IcebergParityTest.NESTED + ")");
        w.executeSql("INSERT INTO lake.db.nested_src VALUES " + IcebergParityTest.NESTED_ROWS_1).await();
        w.executeSql("CREATE TABLE lake.db.big (k INT, v BIGINT, s STRING, f DOUBLE)");
        w.executeSql("CREATE TEMPORARY TABLE gen (x BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.x.kind' = 'sequence', 'fields.x.start' = '0', 'fields.x.end' = '19999')");
        w.executeSql("INSERT INTO lake.db.big SELECT CAST(x AS INT), x * 7, CONCAT('s', CAST(x % 13 AS STRING)), "
                + "CAST(x AS DOUBLE) / 8 - 100 FROM gen WHERE x < 15000").await();
        w.executeSql("CREATE TABLE lake.db.events (auction INT, price BIGINT, bidder STRING, ts TIMESTAMP(6))");
        w.executeSql("INSERT INTO lake.db.events SELECT CAST(x % 50 AS INT), x % 97, CONCAT('b', CAST(x % 11 AS STRING)), "
                + "CAST(TO_TIMESTAMP_LTZ(1704067200000 + x * 37 - (x % 7) * 500, 3) AS TIMESTAMP(6)) FROM gen").await();
    }

    static Table table(String name) {
        HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        return catalog.loadTable(TableIdentifier.of("db", name));
    }

    /** Runs the same INSERT (with %s for the target) on stock Flink and on Sluice, asserting the sink native. */
    static void insertBoth(String query, String stockTable, String sluiceTable, int parallelism, boolean v2Sink) throws Exception {
        insertBoth(query, stockTable, sluiceTable, parallelism, v2Sink, Map.of());
    }

    /** insertBoth with more configuration for both jobs. */
    static void insertBoth(String query, String stockTable, String sluiceTable, int parallelism, boolean v2Sink,
            Map<String, String> config) throws Exception {
        StreamTableEnvironment stock = env(parallelism, false, v2Sink);
        config.forEach(stock.getConfig()::set);
        stock.executeSql(String.format(query, "lake.db." + stockTable)).await();
        StreamTableEnvironment tEnv = env(parallelism, true, v2Sink);
        config.forEach(tEnv.getConfig()::set);
        String insert = String.format(query, "lake.db." + sluiceTable);
        Verdict verdict = Sluice.verdict(tEnv, insert);
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), () -> "expected a native job, got\n" + verdict);
        String plan = tEnv.explainSql(insert);
        assertTrue(plan.contains("SluiceSink("), () -> "the sink is not native:\n" + plan);
        long files = NativeIcebergTaskWriter.DATA_FILES.get();
        tEnv.executeSql(insert).await();
        assertTrue(NativeIcebergTaskWriter.DATA_FILES.get() > files, "no data file was written natively");
    }

    /** Both tables read back by stock Flink hold the same rows; returns how many. */
    static int sameRows(String name, String stockTable, String sluiceTable) {
        String q = "SELECT * FROM lake.db.%s";
        ParityHarness.Outcome stock = ParityHarness.collect(env(1, false, false), String.format(q, stockTable));
        ParityHarness.Outcome sluice = ParityHarness.collect(env(1, false, false), String.format(q, sluiceTable));
        assertFalse(stock.failed(), () -> "stock Flink failed: " + stock.failure());
        assertFalse(stock.rows().isEmpty(), name + ": stock Flink wrote no rows");
        ParityHarness.compareOutcomes(name, stock, sluice, true);
        return sluice.rows().size();
    }

    /**
     * A case of the sink: {@code insert} (its table as %s) through the v1 sink (Flink SQL's
     * default) or the v2 sink ('table.exec.iceberg.use-v2-sink'), at a parallelism.
     */
    static ParityCase variant(String name, String insert, boolean v2, int parallelism) {
        return new ParityCase(name, "", List.of(), insert, Expectation.nativeRun(), parallelism, true,
                Map.of("table.exec.iceberg.use-v2-sink", String.valueOf(v2)), List.of(), Map.of());
    }

    static boolean v2(ParityCase c) {
        return Boolean.parseBoolean(c.config().get("table.exec.iceberg.use-v2-sink"));
    }

    /** Every type, through the v1 sink (Flink SQL's default) and the v2 sink, at parallelism 1 and 2. */
    @TestFactory
    Stream<DynamicTest> everyTypeIsWrittenAsFlinkWritesIt() {
        String insert = "INSERT INTO %s SELECT * FROM lake.db.src WHERE i IS NULL OR i <> 42";
        return Stream.of(variant("v1_p1", insert, false, 1), variant("v2_p1", insert, true, 1), variant("v2_p2", insert, true, 2))
                .map(v -> DynamicTest.dynamicTest(v.name(), () -> {
                    String stock = "types_stock_" + v.name(), sluice = "types_sluice_" + v.name();
                    StreamTableEnvironment ddl = env(1, false, false);
                    ddl.executeSql("CREATE TABLE lake.db." + stock + " (" + IcebergParityTest.SCHEMA + ")");
                    ddl.executeSql("CREATE TABLE lake.db." + sluice + " (" + IcebergParityTest.SCHEMA + ")");
                    insertBoth(v.query(), stock, sluice, v.parallelism(), v2(v));
                    sameRows(v.name(), stock, sluice);
                    Snapshot a = table(stock).currentSnapshot();
                    Snapshot b = table(sluice).currentSnapshot();
                    for (String key : List.of("flink.job-id", "flink.max-committed-checkpoint-id", "added-records")) {
                        assertNotNull(a.summary().get(key), key + " missing from stock Flink's snapshot " + a.summary());
                        assertNotNull(b.summary().get(key), key + " missing from Sluice's snapshot " + b.summary());
                    }
                    assertEquals(a.summary().get("added-records"), b.summary().get("added-records"));
                    if (v.parallelism() == 1) {
                        sameDataFile(table(stock), table(sluice));
                    }
                }));
    }

    /**
     * Nested columns (ROW, ARRAY, MAP, inside each other, NULL and empty at every level), and
     * column names Iceberg changes in the Parquet schema: the same rows, the same Parquet schema
     * (field ids on every part, Iceberg's group names) and the same metrics as stock Flink's file.
     */
    @Test
    void nestedColumnsAreWrittenAsFlinkWritesThem() throws Exception {
        String columns = "k INT, " + IcebergParityTest.NESTED + ", `a-b` ROW<`1x` DOUBLE, `é` STRING>";
        StreamTableEnvironment ddl = env(1, false, false);
        ddl.executeSql("CREATE TABLE lake.db.nested_stock (" + columns + ")");
        ddl.executeSql("CREATE TABLE lake.db.nested_sluice (" + columns + ")");
        insertBoth("INSERT INTO %s SELECT *, ROW(k / 2.0E0, CAST(k AS STRING)) FROM lake.db.nested_src",
                "nested_stock", "nested_sluice", 1, false);
        sameRows("nested", "nested_stock", "nested_sluice");
        sameDataFile(table("nested_stock"), table("nested_sluice"));
    }

    /** A uuid column (Flink's BINARY(16)): FIXED(16) with the UUID annotation, bounds as stock Flink's file has them. */
    @Test
    void uuidColumnsAreWrittenAsFlinkWritesThem() throws Exception {
        org.apache.iceberg.Schema schema = new org.apache.iceberg.Schema(
                org.apache.iceberg.types.Types.NestedField.optional(1, "k", org.apache.iceberg.types.Types.IntegerType.get()),
                org.apache.iceberg.types.Types.NestedField.optional(2, "u", org.apache.iceberg.types.Types.UUIDType.get()));
        HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        catalog.createTable(TableIdentifier.of("db", "uuid_stock"), schema);
        catalog.createTable(TableIdentifier.of("db", "uuid_sluice"), schema);
        insertBoth("INSERT INTO %s SELECT k, CASE WHEN MOD(k, 7) = 0 THEN CAST(NULL AS BINARY(16)) "
                + "ELSE CAST(CONCAT('0123456789abcd', CAST(MOD(k, 89) + 10 AS STRING)) AS BINARY(16)) END FROM lake.db.big",
                "uuid_stock", "uuid_sluice", 1, false);
        sameRows("uuid", "uuid_stock", "uuid_sluice");
        sameDataFile(table("uuid_stock"), table("uuid_sluice"));
    }

    /**
     * Required columns (NOT NULL in Flink): Flink's not-null enforcer checks the rows in front of
     * the sink, Sluice's NOT NULL check in front of the native writer. DROP drops the rows with a
     * NULL there; ERROR (Flink's default) fails the job with Flink's message.
     */
    @Test
    void requiredColumnsAreCheckedAsFlinkChecksThem() throws Exception {
        String columns = "i INT NOT NULL, s STRING NOT NULL, d DOUBLE";
        String insert = "INSERT INTO %s SELECT i, s, d FROM lake.db.src";
        StreamTableEnvironment ddl = env(1, false, false);
        for (String t : List.of("req_stock", "req_sluice", "req_error_stock", "req_error_sluice")) {
            ddl.executeSql("CREATE TABLE lake.db." + t + " (" + columns + ")");
        }
        assertTrue(table("req_sluice").schema().findField("i").isRequired(), "NOT NULL should make a required field");
        for (boolean sluice : new boolean[] {false, true}) {
            StreamTableEnvironment tEnv = env(1, sluice, false);
            tEnv.getConfig().set("table.exec.sink.not-null-enforcer", "DROP");
            String q = String.format(insert, "lake.db.req_" + (sluice ? "sluice" : "stock"));
            if (sluice) {
                Verdict verdict = Sluice.verdict(tEnv, q);
                assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
            }
            tEnv.executeSql(q).await();
        }
        int written = sameRows("required-dropped", "req_stock", "req_sluice");
        assertEquals(4, written, "the source's row with NULLs should be dropped");
        for (boolean sluice : new boolean[] {false, true}) {
            String q = String.format(insert, "lake.db.req_error_" + (sluice ? "sluice" : "stock"));
            if (sluice) {
                Verdict verdict = Sluice.verdict(env(1, true, false), q);
                assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
            }
            Exception failure = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                    () -> env(1, sluice, false).executeSql(q).await());
            boolean named = false;
            for (Throwable t = failure; t != null; t = t.getCause()) {
                named |= String.valueOf(t.getMessage()).contains("Column 'i' is NOT NULL, however, a null value is being written into it.");
            }
            assertTrue(named, () -> (sluice ? "Sluice" : "stock Flink") + " failed otherwise: " + failure);
            assertEquals(null, table("req_error_" + (sluice ? "sluice" : "stock")).currentSnapshot(), "a failed job committed");
        }
    }

    /**
     * One data file each (parallelism 1): the Parquet schema Iceberg's writer makes, and the
     * metrics Iceberg records for it (counts, NaN counts, bounds; not column sizes, which depend
     * on the encoder).
     */
    static void sameDataFile(Table stock, Table sluice) throws Exception {
        DataFile a = onlyFile(stock);
        DataFile b = onlyFile(sluice);
        assertEquals(a.recordCount(), b.recordCount(), "record count");
        assertEquals(a.valueCounts(), b.valueCounts(), "value counts");
        assertEquals(a.nullValueCounts(), b.nullValueCounts(), "null counts");
        assertEquals(a.nanValueCounts(), b.nanValueCounts(), "NaN counts");
        assertEquals(a.lowerBounds(), b.lowerBounds(), "lower bounds");
        assertEquals(a.upperBounds(), b.upperBounds(), "upper bounds");
        assertEquals(a.splitOffsets().size(), b.splitOffsets().size(), "row groups");
        assertEquals(parquetSchema(a), parquetSchema(b), "Parquet schema");
    }

    static DataFile onlyFile(Table t) {
        List<DataFile> files = new ArrayList<>();
        t.currentSnapshot().addedDataFiles(t.io()).forEach(files::add);
        assertEquals(1, files.size(), () -> "data files of " + t.name() + ": " + files);
        return files.get(0);
    }

    static String parquetSchema(DataFile f) throws Exception {
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(Path.of(new URI(f.location()))))) {
            return r.getFooter().getFileMetaData().getSchema().toString();
        }
    }

    /**
     * Failures while data files are open: checkpoints every 100 ms, batches of 10 rows, three
     * injected failures (Go panic, Java exception, Go panic). Flink restores from the last
     * checkpoint; the connector's committer commits each checkpoint's files once, so the table
     * holds exactly the rows of a failure-free stock run; for the v1 sink (Flink SQL's default)
     * and the v2 sink.
     */
    @TestFactory
    Stream<DynamicTest> exactlyOnceAcrossFailures() {
        return Stream.of(false, true).map(v2 -> DynamicTest.dynamicTest(v2 ? "v2" : "v1", () -> {
            String stock = "rec_stock_" + v2, sluice = "rec_sluice_" + v2;
            StreamTableEnvironment ddl = env(1, false, false);
            ddl.executeSql("CREATE TABLE lake.db." + stock + " (k INT, v BIGINT, s STRING, f DOUBLE)");
            ddl.executeSql("CREATE TABLE lake.db." + sluice + " (k INT, v BIGINT, s STRING, f DOUBLE)");
            String query = "INSERT INTO %s SELECT k, v, s, f FROM lake.db.big WHERE MOD(k, 2) = 0";
            env(1, false, v2).executeSql(String.format(query, "lake.db." + stock)).await();
            StreamTableEnvironment tEnv = env(1, true, v2);
            ParityHarness.injectFailures(tEnv, 150, 1);
            if (!v2) {
                // The v1 committer is chained to the writer and commits in the task thread after
                // every checkpoint: at 100 ms the Hadoop catalog's growing metadata slows the job
                // down (on stock Flink as well); 500 ms keeps it short.
                tEnv.getConfig().set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL,
                        java.time.Duration.ofMillis(500));
            }
            String insert = String.format(query, "lake.db." + sluice);
            assertTrue(tEnv.explainSql(insert).contains("SluiceSink("), "the sink is not native");
            tEnv.executeSql(insert).await();
            List<Snapshot> snapshots = new ArrayList<>();
            table(sluice).snapshots().forEach(snapshots::add);
            assertTrue(snapshots.size() > 1, "the job should have committed several checkpoints, got " + snapshots);
            assertEquals(7500, sameRows("recovery-" + v2, stock, sluice), "rows lost or repeated");
        }));
    }

    /** Iceberg -> event-time window aggregation -> Iceberg, native from the scan to the data files. */
    @Test
    void windowAggregationIntoIceberg() throws Exception {
        String columns = "(auction INT, window_start TIMESTAMP(6), window_end TIMESTAMP(6), c BIGINT, s BIGINT, m BIGINT)";
        StreamTableEnvironment ddl = env(1, false, false);
        ddl.executeSql("CREATE TABLE lake.db.win_stock " + columns);
        ddl.executeSql("CREATE TABLE lake.db.win_sluice " + columns);
        insertBoth("INSERT INTO %s SELECT auction, window_start, window_end, COUNT(*), SUM(price), MAX(price) "
                + "FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts3), INTERVAL '10' SECOND)) "
                + "GROUP BY auction, window_start, window_end", "win_stock", "win_sluice", 2, true);
        sameRows("window", "win_stock", "win_sluice");
    }

    /**
     * The incremental job users run: a streaming read of an Iceberg table (Flink SQL's FLIP-27
     * source, from the latest snapshot) through an event-time TUMBLE aggregation into an Iceberg
     * table, with two snapshots appended while it runs; on Sluice with three injected failures.
     * After all appends the watermark has passed five windows per auction (35 rows); each job is
     * cancelled once its table holds them, and both tables hold the same rows, each once.
     */
    @Test
    void incrementalWindowJobIsExactlyOnceWithFailures() throws Exception {
        StreamTableEnvironment w = env(1, false, false);
        w.executeSql("CREATE TABLE lake.db.inc_src (auction INT, price BIGINT, ts TIMESTAMP(6))");
        String columns = "(auction INT, window_start TIMESTAMP(6), window_end TIMESTAMP(6), c BIGINT, s BIGINT)";
        w.executeSql("CREATE TABLE lake.db.inc_stock " + columns);
        w.executeSql("CREATE TABLE lake.db.inc_sluice " + columns);
        List<Row> expected = incremental("inc_stock", false);
        assertEquals(35, expected.size(), "stock Flink's windows: " + expected);
        long opened = io.sluice.runtime.NativeChainOperator.PIPELINES_OPENED.get();
        List<Row> got = incremental("inc_sluice", true);
        assertTrue(io.sluice.runtime.NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4,
                "three failures should have restarted the job");
        ParityHarness.compareOutcomes("incremental", new ParityHarness.Outcome(expected, null),
                new ParityHarness.Outcome(got, null), true);
    }

    /** Appends snapshot k of the incremental source: 2,000 rows, 10 ms apart, from k * 20 s. */
    static void appendSnapshot(int k) throws Exception {
        StreamTableEnvironment w = env(1, false, false);
        w.executeSql("CREATE TEMPORARY TABLE gen_inc (x BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.x.kind' = 'sequence', 'fields.x.start' = '0', 'fields.x.end' = '5999')");
        w.executeSql("INSERT INTO lake.db.inc_src SELECT CAST(MOD(x, 7) AS INT), x, "
                + "CAST(TO_TIMESTAMP_LTZ(1704067200000 + x * 10, 3) AS TIMESTAMP(6)) FROM (SELECT x FROM gen_inc WHERE x >= "
                + (k * 2000) + " AND x < " + ((k + 1) * 2000) + ")").await();
    }

    static List<Row> incremental(String out, boolean sluice) throws Exception {
        StreamTableEnvironment w = env(1, false, false);
        // The source table starts over: its snapshots are written again for each engine.
        w.executeSql("DROP TABLE IF EXISTS lake.db.inc_src");
        w.executeSql("CREATE TABLE lake.db.inc_src (auction INT, price BIGINT, ts TIMESTAMP(6))");
        appendSnapshot(0);
        StreamTableEnvironment tEnv = env(1, sluice, true);
        tEnv.executeSql("CREATE TABLE inc (auction INT, price BIGINT, ts TIMESTAMP(6), ts3 AS CAST(ts AS TIMESTAMP(3)), "
                + "WATERMARK FOR ts3 AS ts3 - INTERVAL '1' SECOND) WITH ('connector' = 'iceberg', 'catalog-name' = 'lake', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', 'catalog-database' = 'db', "
                + "'catalog-table' = 'inc_src', 'streaming' = 'true', 'monitor-interval' = '100 ms')");
        tEnv.getConfig().set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL,
                java.time.Duration.ofMillis(200));
        if (sluice) {
            ParityHarness.injectFailures(tEnv, 120, 1);
        }
        String insert = "INSERT INTO lake.db." + out + " SELECT auction, window_start, window_end, COUNT(*), SUM(price) "
                + "FROM TABLE(TUMBLE(TABLE inc, DESCRIPTOR(ts3), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end";
        if (sluice) {
            Verdict v = Sluice.verdict(tEnv, insert);
            assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
            assertTrue(tEnv.explainSql(insert).contains("SluiceSink("), "the sink is not native");
        }
        org.apache.flink.table.api.TableResult job = tEnv.executeSql(insert);
        try {
            awaitRecords(out, 7); // the first window of each auction: the job reads snapshot 0
            appendSnapshot(1);
            appendSnapshot(2);
            awaitRecords(out, 35);
            Thread.sleep(1000); // nothing more may come: windows after the watermark stay open
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
        return ParityHarness.collect(env(1, false, false), "SELECT * FROM lake.db." + out).rows();
    }

    /** Waits until a table's current snapshot holds at least n records. */
    static void awaitRecords(String name, long n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            Snapshot s = table(name).currentSnapshot();
            long records = s == null ? 0 : Long.parseLong(s.summary().getOrDefault("total-records", "0"));
            if (records >= n) {
                return;
            }
            assertTrue(System.currentTimeMillis() < deadline, () -> "timed out waiting for " + n + " records in " + name);
            Thread.sleep(100);
        }
    }

    /** The columns of the partitioned tables, and their Iceberg schema. */
    static final String PARTED_COLUMNS = "k INT, l BIGINT, s STRING, dt DATE, ts TIMESTAMP(6), lt TIMESTAMP_LTZ(6), b BOOLEAN, v DOUBLE, "
            + "bin BYTES, fx BINARY(3), tm TIME, dc DECIMAL(20, 4), f FLOAT";

    static final org.apache.iceberg.Schema PARTED_SCHEMA = new org.apache.iceberg.Schema(
            org.apache.iceberg.types.Types.NestedField.optional(1, "k", org.apache.iceberg.types.Types.IntegerType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(2, "l", org.apache.iceberg.types.Types.LongType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(3, "s", org.apache.iceberg.types.Types.StringType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(4, "dt", org.apache.iceberg.types.Types.DateType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(5, "ts", org.apache.iceberg.types.Types.TimestampType.withoutZone()),
            org.apache.iceberg.types.Types.NestedField.optional(6, "lt", org.apache.iceberg.types.Types.TimestampType.withZone()),
            org.apache.iceberg.types.Types.NestedField.optional(7, "b", org.apache.iceberg.types.Types.BooleanType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(8, "v", org.apache.iceberg.types.Types.DoubleType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(9, "bin", org.apache.iceberg.types.Types.BinaryType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(10, "fx", org.apache.iceberg.types.Types.FixedType.ofLength(3)),
            org.apache.iceberg.types.Types.NestedField.optional(11, "tm", org.apache.iceberg.types.Types.TimeType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(12, "dc", org.apache.iceberg.types.Types.DecimalType.of(20, 4)),
            org.apache.iceberg.types.Types.NestedField.optional(13, "f", org.apache.iceberg.types.Types.FloatType.get()));

    /**
     * Partitioned tables (made with Iceberg's API: Flink SQL only declares identity partitions):
     * every transform the native writer computes, over values before and after 1970, NULLs,
     * negative numbers, multi-byte strings, binaries and times of day. The same rows, the same partitions, and per
     * partition a data file with the metrics stock Flink's file has.
     */
    @TestFactory
    Stream<DynamicTest> partitionedTablesArePartitionedAsFlinkDoes() throws Exception {
        StreamTableEnvironment w = env(1, false, false);
        w.executeSql("CREATE TABLE IF NOT EXISTS lake.db.psrc (" + PARTED_COLUMNS + ")");
        w.executeSql("INSERT INTO lake.db.psrc VALUES "
                + "(1, 10, 'apple', DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59.999999', TO_TIMESTAMP_LTZ(1709251199999, 3), TRUE, 1.5, "
                + "x'0102', x'010203', TIME '12:34:56', CAST('12.3400' AS DECIMAL(20, 4)), CAST(1.5 AS FLOAT)), "
                + "(-7, -3, 'äpfel 🍎', DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', TO_TIMESTAMP_LTZ(-1, 3), FALSE, -0.0, "
                + "x'', x'000000', TIME '00:00:00', CAST('-0.0001' AS DECIMAL(20, 4)), CAST(-0.0 AS FLOAT)), "
                + "(CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP(6)), "
                + "CAST(NULL AS TIMESTAMP_LTZ(6)), CAST(NULL AS BOOLEAN), CAST(NULL AS DOUBLE), CAST(NULL AS BYTES), CAST(NULL AS BINARY(3)), "
                + "CAST(NULL AS TIME), CAST(NULL AS DECIMAL(20, 4)), CAST(NULL AS FLOAT)), "
                + "(2147483647, 9223372036854775807, 'ap', DATE '1900-01-01', TIMESTAMP '1900-01-01 00:00:00', TO_TIMESTAMP_LTZ(-2208988800000, 3), TRUE, 2.5, "
                + "x'01020304', x'ffffff', TIME '23:59:59', CAST('9999999999999999.9999' AS DECIMAL(20, 4)), CAST(2.5 AS FLOAT)), "
                + "(4, 25, 'banana', DATE '1970-01-01', TIMESTAMP '1970-01-01 00:00:00', TO_TIMESTAMP_LTZ(0, 3), FALSE, 3.0, "
                + "x'01', x'010203', TIME '12:34:56', CAST('-1.2800' AS DECIMAL(20, 4)), CAST(0.0 AS FLOAT)), "
                + "(5, -25, 'b', DATE '2024-03-01', TIMESTAMP '2024-03-01 00:00:00.000001', TO_TIMESTAMP_LTZ(1709251200000, 3), TRUE, 4.0, "
                + "x'ff00', x'7f7f7f', TIME '06:00:00', CAST('-9999999999999999.9000' AS DECIMAL(20, 4)), CAST(1.5 AS FLOAT))").await();
        Map<String, java.util.function.UnaryOperator<org.apache.iceberg.PartitionSpec.Builder>> specs = new java.util.LinkedHashMap<>();
        specs.put("identity", b -> b.identity("s").identity("b").identity("k"));
        specs.put("days_buckets", b -> b.day("ts").bucket("k", 4).bucket("s", 3));
        specs.put("hours_truncate", b -> b.hour("lt").truncate("s", 2).truncate("l", 10));
        specs.put("months_years", b -> b.month("dt").year("ts").bucket("l", 5).bucket("dt", 7).bucket("ts", 2));
        specs.put("identity_time", b -> b.identity("dt").identity("ts").day("dt").alwaysNull("v"));
        specs.put("binary_time", b -> b.identity("fx").bucket("bin", 4).truncate("bin", 1).identity("tm").bucket("tm", 3));
        // Decimals (identity, bucket: Murmur3 of the unscaled bytes, truncate of the unscaled
        // value) and float identities (-0.0 apart from 0.0; NaN is covered by the Go test).
        specs.put("decimal_float", b -> b.identity("dc").bucket("dc", 5).truncate("dc", 100).identity("f").identity("v"));
        return specs.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            String stock = "part_stock_" + e.getKey(), sluice = "part_sluice_" + e.getKey();
            HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
            org.apache.iceberg.PartitionSpec spec = e.getValue().apply(org.apache.iceberg.PartitionSpec.builderFor(PARTED_SCHEMA)).build();
            catalog.createTable(TableIdentifier.of("db", stock), PARTED_SCHEMA, spec);
            catalog.createTable(TableIdentifier.of("db", sluice), PARTED_SCHEMA, spec);
            insertBoth("INSERT INTO %s SELECT * FROM lake.db.psrc", stock, sluice, 1, false);
            sameRows(e.getKey(), stock, sluice);
            Map<String, DataFile> a = filesByPartition(table(stock));
            Map<String, DataFile> b = filesByPartition(table(sluice));
            assertEquals(a.keySet(), b.keySet(), "partitions");
            for (String p : a.keySet()) {
                assertEquals(a.get(p).recordCount(), b.get(p).recordCount(), p + ": record count");
                assertEquals(a.get(p).nullValueCounts(), b.get(p).nullValueCounts(), p + ": null counts");
                assertEquals(a.get(p).nanValueCounts(), b.get(p).nanValueCounts(), p + ": NaN counts");
                assertEquals(a.get(p).lowerBounds(), b.get(p).lowerBounds(), () -> p + ": lower bounds " + bounds(a.get(p).lowerBounds()) + " vs " + bounds(b.get(p).lowerBounds()));
                assertEquals(a.get(p).upperBounds(), b.get(p).upperBounds(), () -> p + ": upper bounds " + bounds(a.get(p).upperBounds()) + " vs " + bounds(b.get(p).upperBounds()));
                assertTrue(b.get(p).location().contains("/data/" + p + "/"), () -> "file of " + p + " at " + b.get(p).location());
            }
        }));
    }

    /**
     * The HASH distribution mode of a partitioned table ('write.distribution-mode' = 'hash') at
     * parallelism 2: the connector shuffles rows by their partition's path, so each partition is
     * written by one writer subtask. The same rows, and each partition's files written by the
     * same subtask as stock Flink's (the subtask index starts each data file's name). With the v2
     * sink: stock Flink's v1 sink cannot run writers at parallelism 2 (Kryo fails to copy its
     * committables across the network edge to its committer), and the native v1 sink shares its
     * operators and that failure.
     */
    @TestFactory
    Stream<DynamicTest> hashDistributionRoutesPartitionsAsFlinkDoes() {
        return Stream.of(true).map(v2 -> DynamicTest.dynamicTest("v2", () -> {
            String stock = "hash_stock_" + v2, sluice = "hash_sluice_" + v2;
            StreamTableEnvironment ddl = env(1, false, false);
            for (String t : List.of(stock, sluice)) {
                ddl.executeSql("CREATE TABLE lake.db." + t + " (k INT, v BIGINT, s STRING, f DOUBLE) PARTITIONED BY (s) "
                        + "WITH ('write.distribution-mode' = 'hash')");
            }
            // The source at parallelism 2 (its inference would plan one subtask for the table's
            // one split; without it the connector takes the default parallelism of table jobs),
            // so that the writers run at 2 too.
            insertBoth("INSERT INTO %s SELECT k, v, s, f FROM lake.db.big", stock, sluice, 2, v2,
                    Map.of("table.exec.iceberg.infer-source-parallelism", "false", "table.exec.resource.default-parallelism", "2"));
            sameRows("hash-" + v2, stock, sluice);
            Map<String, java.util.Set<String>> a = writersByPartition(table(stock));
            Map<String, java.util.Set<String>> b = writersByPartition(table(sluice));
            assertEquals(13, a.size(), "partitions of stock Flink's table");
            a.forEach((p, writers) -> assertEquals(1, writers.size(), () -> "stock Flink wrote " + p + " from " + writers));
            assertTrue(a.values().stream().distinct().count() > 1, "every partition went to one subtask: " + a);
            assertEquals(a, b, "the writer subtask of each partition");
        }));
    }

    /** The writer subtasks (the first part of the data files' names) of each partition. */
    static Map<String, java.util.Set<String>> writersByPartition(Table t) throws Exception {
        Map<String, java.util.Set<String>> out = new java.util.TreeMap<>();
        try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks = t.newScan().planFiles()) {
            for (org.apache.iceberg.FileScanTask task : tasks) {
                String name = Path.of(new URI(task.file().location())).getFileName().toString();
                out.computeIfAbsent(t.spec().partitionToPath(task.file().partition()), k -> new java.util.TreeSet<>())
                        .add(name.substring(0, name.indexOf('-')));
            }
        }
        return out;
    }

    /** Bounds by field id, as hex, for failure messages. */
    static String bounds(Map<Integer, java.nio.ByteBuffer> m) {
        Map<Integer, String> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> out.put(k, java.util.HexFormat.of().formatHex(org.apache.iceberg.util.ByteBuffers.toByteArray(v))));
        return out.toString();
    }

    /** The data files of a table's current snapshot by partition path (one file each). */
    static Map<String, DataFile> filesByPartition(Table t) {
        Map<String, DataFile> out = new java.util.TreeMap<>();
        t.currentSnapshot().addedDataFiles(t.io()).forEach(f -> {
            String p = t.spec().partitionToPath(f.partition());
            assertTrue(out.put(p, f) == null, () -> t.name() + ": two files for partition " + p);
        });
        return out;
    }

    /** Inserts the native writer does not handle run on the connector's writer, and the verdict says why. */
    @Test
    void unsupportedSinksStayFlinksWithAReason() {
        StreamTableEnvironment ddl = env(1, false, false);
        ddl.executeSql("CREATE TABLE lake.db.keyed (k INT, s STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('format-version' = '2')");
        ddl.executeSql("CREATE TABLE lake.db.orc_out (k INT, s STRING) WITH ('write.format.default' = 'orc')");
        ddl.executeSql("CREATE TABLE lake.db.plain (k INT, s STRING)");
        ddl.executeSql("CREATE TABLE lake.db.bloom (k INT, s STRING) WITH ('write.parquet.bloom-filter-enabled.column.k' = 'true')");
        StreamTableEnvironment tEnv = env(1, true, true);
        String from = " SELECT k, s FROM lake.db.big WHERE k > 5";
        Map<String, String> cases = Map.of(
                "INSERT INTO lake.db.keyed" + from, "primary keys",
                "INSERT INTO lake.db.orc_out" + from, "ORC",
                "INSERT INTO lake.db.plain /*+ OPTIONS('write-parallelism' = '1') */" + from, "write-parallelism",
                "INSERT INTO lake.db.bloom" + from, "bloom-filter");
        cases.forEach((insert, reason) -> {
            Verdict v = Sluice.verdict(tEnv, insert);
            String notes = String.join("\n", v.edgeNotes());
            assertTrue(notes.contains(reason) && notes.contains("lake.db"),
                    () -> insert + ": expected the sink to stay Flink's because of " + reason + ", got\n" + v);
            assertFalse(tEnv.explainSql(insert).contains("SluiceSink("), insert);
        });
    }
}
