package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.sources.NativeParquetFormat;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityCases;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native Parquet source against Flink's own filesystem connector and Parquet format, on the
 * same files (written by Flink): every row and field of the same queries, with the scan verified
 * native (batches read by Go reached a native chain).
 */
class ParquetParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    /** Every type the native reader supports. */
    static final String SCHEMA = "i INT, l BIGINT, d DOUBLE, s STRING, b BOOLEAN, dc DECIMAL(10, 2), "
            + "dw DECIMAL(30, 8), ts TIMESTAMP(3), ti TINYINT, sm SMALLINT, f FLOAT, dt DATE, tm TIME(0), "
            + "bs BYTES, lt TIMESTAMP_LTZ(3), d5 DECIMAL(5, 1), t6 TIMESTAMP(6)";

    /** The columns of SCHEMA. */
    static final String NATIVE = "i, l, d, s, b, dc, dw, ts, ti, sm, f, dt, tm, bs, lt, d5, t6";

    /** TIMESTAMP(7..9) columns: Flink's TimestampData with nanoseconds. */
    static final String NANOS = "i INT, t9 TIMESTAMP(9), l9 TIMESTAMP_LTZ(9), t7 TIMESTAMP(7)";

    /**
     * Rows of NANOS: nanoseconds, whole seconds, NULLs, years 1970 to 2261 (INT64 nanoseconds
     * end in 2262), a Berlin gap.
     */
    static List<Row> nanoRows() {
        Random rnd = new Random(11);
        List<Row> rows = new ArrayList<>();
        LocalDateTime t0 = LocalDateTime.of(1970, 1, 1, 0, 0);
        for (int k = 0; k < 3000; k++) {
            LocalDateTime t = t0.plusSeconds(rnd.nextLong(9_000_000_000L)).plusNanos(k % 4 == 0 ? 0 : rnd.nextInt(1_000_000_000));
            if (k % 7 == 1) {
                t = LocalDateTime.of(2024, 3, 31, 2, 30, 0, k);
            }
            rows.add(Row.of(k, k % 11 == 3 ? null : t, k % 13 == 5 ? null : t.plusNanos(7).toInstant(java.time.ZoneOffset.UTC),
                    k % 5 == 2 ? null : t.withNano(t.getNano() / 100 * 100)));
        }
        return rows;
    }

    /** Nested columns: rows, arrays and maps inside each other, of the leaf types read natively. */
    static final String NESTED = "id INT, r ROW<a INT, b STRING, c ROW<x DOUBLE, y ARRAY<BIGINT>>>, ai ARRAY<INT>, "
            + "ast ARRAY<STRING>, ad ARRAY<DECIMAL(10, 2)>, m MAP<STRING, INT>, mr MAP<INT, ROW<p BOOLEAN, q DECIMAL(30, 8)>>, "
            + "ar ARRAY<ROW<u INT, v STRING>>, aa ARRAY<ARRAY<INT>>, dw DATE";

    /**
     * Random rows of NESTED with NULLs at every level (rows, fields, arrays, elements, maps,
     * values; map keys are never NULL in Parquet) and empty arrays and maps.
     */
    static List<Row> nestedRows() {
        Random rnd = new Random(11);
        List<Row> rows = new ArrayList<>();
        for (int k = 0; k < 3000; k++) {
            rows.add(Row.of(k,
                    rnd.nextInt(8) == 0 ? null : Row.of(nullOr(rnd, rnd.nextInt()), nullOr(rnd, "s" + rnd.nextInt(50)),
                            rnd.nextInt(6) == 0 ? null : Row.of(nullOr(rnd, rnd.nextGaussian()), array(rnd, Long[]::new, () -> rnd.nextLong()))),
                    array(rnd, Integer[]::new, () -> rnd.nextInt(1000) - 500),
                    array(rnd, String[]::new, () -> rnd.nextInt(3) == 0 ? "" : "é" + rnd.nextInt(9)),
                    array(rnd, BigDecimal[]::new, () -> BigDecimal.valueOf(rnd.nextInt(2_000_000) - 1_000_000, 2)),
                    map(rnd, () -> "k" + rnd.nextInt(20), () -> rnd.nextInt(100)),
                    map(rnd, () -> rnd.nextInt(50), () -> Row.of(nullOr(rnd, rnd.nextBoolean()),
                            nullOr(rnd, new BigDecimal(rnd.nextLong() + "." + (10_000_000 + rnd.nextInt(90_000_000)))))),
                    array(rnd, Row[]::new, () -> Row.of(nullOr(rnd, rnd.nextInt(7)), nullOr(rnd, "v" + rnd.nextInt(5)))),
                    array(rnd, Integer[][]::new, () -> array(rnd, Integer[]::new, () -> rnd.nextInt(10))),
                    rnd.nextInt(5) == 0 ? null : LocalDate.ofEpochDay(rnd.nextInt(40_000) - 20_000)));
        }
        return rows;
    }

    static <T> T nullOr(Random rnd, T v) {
        return rnd.nextInt(7) == 0 ? null : v;
    }

    /** NULL, empty, or up to 4 elements (some NULL). */
    static <T> T[] array(Random rnd, java.util.function.IntFunction<T[]> make, java.util.function.Supplier<T> element) {
        int n = rnd.nextInt(7) - 2;
        if (n == -2) {
            return null;
        }
        T[] a = make.apply(Math.max(n, 0));
        for (int i = 0; i < a.length; i++) {
            a[i] = nullOr(rnd, element.get());
        }
        return a;
    }

    /** NULL, empty, or up to 3 entries (values may be NULL, keys not). */
    static <K, V> java.util.Map<K, V> map(Random rnd, java.util.function.Supplier<K> key, java.util.function.Supplier<V> value) {
        int n = rnd.nextInt(6) - 2;
        if (n == -2) {
            return null;
        }
        java.util.Map<K, V> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(key.get(), nullOr(rnd, value.get()));
        }
        return m;
    }

    /** The JVM zone while the files are written and read: Flink's reader shows timestamps in it. */
    static final TimeZone ZONE = TimeZone.getTimeZone("GMT+05:30");

    @TempDir
    static Path dir;

    static TimeZone savedZone;
    static String files;
    static String oneFile;
    static String int64Files;
    static String int64Negative;
    static String nanoFiles;
    static String nanoInt64Files;
    static String int96Negative;
    static String events;
    static String nested;

    /**
     * Events for windows: ascending time with some rows out of order by less than the watermark
     * delay (so that no row is late: with late rows a two-phase plan at parallelism 2 drops them
     * or not depending on how the subtasks' watermarks interleave, on stock Flink too), null keys
     * and values.
     */
    static final String EVENTS = "k INT, v BIGINT, price DOUBLE, ts TIMESTAMP(3)";

    static List<Row> eventRows() {
        Random rnd = new Random(7);
        List<Row> rows = new ArrayList<>();
        LocalDateTime t0 = LocalDateTime.of(2024, 3, 1, 12, 0);
        for (int k = 0; k < 20000; k++) {
            long ms = k * 37L + (rnd.nextInt(10) == 0 ? -rnd.nextInt(1500) : 0);
            rows.add(Row.of(rnd.nextInt(20) == 0 ? null : rnd.nextInt(50), rnd.nextInt(30) == 0 ? null : (long) rnd.nextInt(1000),
                    rnd.nextGaussian() * 100, t0.plusNanos(ms * 1_000_000L)));
        }
        return rows;
    }

    @BeforeAll
    static void writeFiles() throws Exception {
        savedZone = TimeZone.getDefault();
        TimeZone.setDefault(ZONE);
        TableEnvironment w = writer(SCHEMA, rows());
        // Small row groups: several per file, so splits and restores cross row groups.
        files = parquetTable(w, "pq", SCHEMA, ", 'parquet.block.size' = '16384'");
        oneFile = parquetTable(w, "pq1", SCHEMA, ", 'parquet.block.size' = '16384'");
        w.executeSql("INSERT INTO pq1 SELECT * FROM t").await();
        // Flink cannot read back a pre-1970 INT96 timestamp with a fraction of a second that it
        // wrote in a zone east of UTC (java.sql.Timestamp#setNanos rejects the negative nanos).
        String negative = "SELECT i, l, d, s, b, dc, dw, TIMESTAMP '1969-12-31 23:59:59.999', ti, sm, f, dt, tm, bs, lt, d5, t6 "
                + "FROM t WHERE i = 1";
        int96Negative = parquetTable(w, "pq96neg", SCHEMA, "");
        w.executeSql("INSERT INTO pq96neg " + negative).await();
        TableEnvironment n9 = writer(NANOS, nanoRows());
        nanoFiles = parquetTable(n9, "pq9", NANOS, ", 'parquet.block.size' = '16384'");
        n9.executeSql("INSERT INTO pq9 SELECT * FROM t").await();
        nanoInt64Files = parquetTable(n9, "pq9i64", NANOS, ", 'parquet.write.int64.timestamp' = 'true', 'parquet.timestamp.time.unit' = 'nanos'");
        n9.executeSql("INSERT INTO pq9i64 SELECT * FROM t").await();
        TableEnvironment nw = writer(NESTED, nestedRows());
        nested = parquetTable(nw, "pqn", NESTED, ", 'parquet.block.size' = '16384'");
        nw.executeSql("INSERT INTO pqn SELECT * FROM t").await();
        TableEnvironment ew = writer(EVENTS, eventRows());
        events = parquetTable(ew, "ev", EVENTS, ", 'parquet.block.size' = '65536'");
        ew.executeSql("INSERT INTO ev SELECT * FROM t").await();
        int64Files = parquetTable(w, "pq64", SCHEMA, ", 'parquet.write.int64.timestamp' = 'true'");
        w.executeSql("INSERT INTO pq64 SELECT * FROM t WHERE (ts IS NULL OR ts >= TIMESTAMP '1970-01-01 00:00:00') "
                + "AND (lt IS NULL OR lt >= TO_TIMESTAMP_LTZ(0, 3)) AND (t6 IS NULL OR t6 >= TIMESTAMP '1970-01-01 00:00:00')").await();
        int64Negative = parquetTable(w, "pq64neg", SCHEMA, ", 'parquet.write.int64.timestamp' = 'true'");
        w.executeSql("INSERT INTO pq64neg " + negative).await();
        // Two jobs, two files.
        w.executeSql("INSERT INTO pq SELECT * FROM t WHERE i IS NULL OR MOD(i, 2) = 0").await();
        w.executeSql("INSERT INTO pq SELECT * FROM t WHERE MOD(i, 2) <> 0").await();
        try (Stream<Path> s = Files.walk(dir.resolve("pq"))) {
            assertTrue(s.filter(p -> p.getFileName().toString().startsWith("part-")).count() >= 2,
                    () -> "Flink wrote no Parquet part files under " + files + ": " + listing());
        }
    }

    /** Creates a filesystem Parquet table named after its directory under dir; returns the path. */
    static String parquetTable(TableEnvironment w, String name, String schema, String extraOptions) {
        String path = dir.resolve(name).toString();
        w.executeSql("CREATE TABLE " + name + " (" + schema + ") WITH ('connector' = 'filesystem', 'path' = '" + path
                + "', 'format' = 'parquet'" + extraOptions + ")");
        return path;
    }

    /**
     * A batch environment with table t of the given rows (a batch job's filesystem sink commits
     * its files when it finishes).
     */
    static TableEnvironment writer(String schema, List<Row> rows) {
        TableEnvironment w = TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode().build());
        w.getConfig().getConfiguration().setString("parallelism.default", "2");
        w.executeSql("CREATE TABLE t (" + schema + ") WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
                + "', 'data-id' = '" + RowsTableFactory.register(rows) + "')");
        return w;
    }

    static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String listing() {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(Path::toString).collect(java.util.stream.Collectors.joining(", "));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @AfterAll
    static void restoreZone() {
        TimeZone.setDefault(savedZone);
    }

    static Row r(Object... f) {
        return Row.of(f);
    }

    /** Edge rows, then deterministic random rows (with nulls in every column). */
    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        rows.add(r(1, 10L, 1.5, "abc", true, new BigDecimal("12.34"), new BigDecimal("1234567890123456789012.12345678"),
                LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_000_000), (byte) 1, (short) 2, 1.5f, LocalDate.of(2020, 1, 1),
                LocalTime.of(12, 0, 0), new byte[] {1, 2, 3}, Instant.ofEpochMilli(1_600_000_000_123L), new BigDecimal("1.5"),
                LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_456_000)));
        rows.add(r(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        rows.add(r(Integer.MAX_VALUE, Long.MAX_VALUE, Double.NaN, "", false, new BigDecimal("-99999999.99"),
                new BigDecimal("-0.00000001"), LocalDateTime.of(1969, 12, 31, 23, 59, 59), Byte.MAX_VALUE,
                Short.MIN_VALUE, Float.NaN, LocalDate.of(1969, 12, 31), LocalTime.of(0, 0, 1), new byte[0],
                Instant.ofEpochMilli(-1000L), new BigDecimal("-9999.9"), LocalDateTime.of(1969, 12, 31, 23, 59, 59)));
        rows.add(r(Integer.MIN_VALUE, Long.MIN_VALUE, -0.0, "Grüße, 世界 🌍", true, new BigDecimal("0.00"), new BigDecimal("0E-8"),
                LocalDateTime.of(2024, 2, 29, 12, 30, 0), Byte.MIN_VALUE, Short.MAX_VALUE, -0.0f, LocalDate.of(2024, 2, 29),
                LocalTime.of(23, 59, 59), new byte[] {-1, 0, 127}, Instant.ofEpochMilli(0L), new BigDecimal("0.0"),
                LocalDateTime.of(2024, 2, 29, 12, 30, 0, 1_000)));
        rows.add(r(-7, -3L, Double.POSITIVE_INFINITY, "  padded  ", false, new BigDecimal("0.05"),
                new BigDecimal("99999999999999999999.99999999"), LocalDateTime.of(1500, 3, 1, 10, 0, 0), (byte) -5,
                (short) 300, 3.4e38f, LocalDate.of(1, 1, 1), LocalTime.of(6, 30, 0), new byte[] {9},
                Instant.parse("1600-01-01T00:00:00Z"), new BigDecimal("9999.9"), LocalDateTime.of(1500, 3, 1, 10, 0, 0)));
        Random rnd = new Random(42);
        for (int k = 0; k < 6000; k++) {
            Object[] f = new Object[] {
                rnd.nextInt(1000) - 500, rnd.nextLong(), rnd.nextGaussian() * 1e6, "s" + rnd.nextInt(50),
                rnd.nextBoolean(), BigDecimal.valueOf(rnd.nextInt(2_000_000) - 1_000_000, 2),
                new BigDecimal(new java.math.BigInteger(90, rnd), 8).negate(),
                LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(rnd.nextLong() % 100_000_000_000_000_000L),
                (byte) rnd.nextInt(), (short) rnd.nextInt(), rnd.nextFloat(), LocalDate.ofEpochDay(rnd.nextInt(40000) - 20000),
                LocalTime.ofSecondOfDay(rnd.nextInt(86400)), new byte[] {(byte) rnd.nextInt(), (byte) k},
                Instant.ofEpochMilli(1_700_000_000_000L + rnd.nextInt(1_000_000_000)),
                BigDecimal.valueOf(rnd.nextInt(199_999) - 99_999, 1),
                // After the epoch: Flink's reader fails on pre-1970 fractions it wrote itself.
                LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(Math.abs(rnd.nextLong() % 1_500_000_000_000_000_000L))
                        .truncatedTo(java.time.temporal.ChronoUnit.MICROS)
            };
            f[rnd.nextInt(f.length)] = null;
            rows.add(Row.of(f));
        }
        return rows;
    }

    static final String WINDOW_QUERY = "SELECT k, window_start, window_end, COUNT(*), SUM(v), MAX(price), AVG(v) "
            + "FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end";

    /** The cases of {@link #parity}, from parity/parquet.json. */
    static List<ParityCase> cases() {
        return ParityCases.load("parity/parquet.json",
                Map.of("SCHEMA", SCHEMA, "NATIVE", NATIVE, "NESTED", NESTED, "NANOS", NANOS, "WINDOW_QUERY", WINDOW_QUERY));
    }

    /**
     * A case of the Parquet sink: rows selected from the scan tables into table out_t of
     * {@code columns} (with extra WITH {@code options}) under Flink's not-null enforcer.
     */
    static ParityCase sinkCase(String name, String columns, String select, String notNullEnforcer, String options) {
        return new ParityCase(name, "", List.of(), select, Expectation.nativeRun(), 1, true,
                Map.of("table.exec.sink.not-null-enforcer", notNullEnforcer), List.of(), Map.of("columns", columns, "options", options));
    }

    static ParityCase sinkCase(String name, String columns, String select, String notNullEnforcer) {
        return sinkCase(name, columns, select, notNullEnforcer, "");
    }

    static ParityCase sinkCase(String name, String columns, String select) {
        return sinkCase(name, columns, select, "ERROR", "");
    }

    /** Bad input: table {@code name} of {@code schema} over the files at {@code path}, which both engines fail to read; Sluice's error names {@code named}. */
    static ParityCase badCase(String name, String schema, String path, String named) {
        return new ParityCase(name, "", List.of(), "SELECT i, s FROM " + name, Expectation.nativeRun().failing(named), 1, false, Map.of(),
                List.of(), Map.of("schema", schema, "path", path));
    }

    /** A case of a partitioned Parquet sink: {@code insert} (or a SELECT into it) into out_t of {@code columns}, partitioned by {@code partitionKeys}. */
    static ParityCase partitionedCase(String name, String columns, String partitionKeys, String options, String insert) {
        return new ParityCase(name, "", List.of(), insert, Expectation.nativeRun(), 2, true, Map.of(), List.of(),
                Map.of("columns", columns, "partitionKeys", partitionKeys, "options", options));
    }

    /** A case over the tables of SCHEMA, for the tests below that build their own. */
    static ParityCase scanCase(String name, String query, int parallelism) {
        return new ParityCase(name, "", List.of(), query, Expectation.nativeRun(), parallelism, true, Map.of(), List.of(),
                Map.of("schema", SCHEMA, "nestedSchema", NESTED, "tableOptions", ""));
    }

    static StreamTableEnvironment env(ParityCase c, boolean sluice) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(c.parallelism());
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (sluice) {
            Sluice.install(tEnv);
        }
        for (String[] t : new String[][] {{"pq", files}, {"pq1", oneFile}, {"pq64", int64Files}, {"pq64neg", int64Negative}, {"pq96neg", int96Negative}}) {
            tEnv.executeSql("CREATE TABLE " + t[0] + " (" + c.var("schema", SCHEMA) + ") WITH ('connector' = 'filesystem', 'path' = '"
                    + t[1] + "', 'format' = 'parquet'" + c.var("tableOptions", "") + ")");
        }
        for (String[] t : new String[][] {{"pq9", nanoFiles}, {"pq9i64", nanoInt64Files}}) {
            tEnv.executeSql("CREATE TABLE " + t[0] + " (" + NANOS + ") WITH ('connector' = 'filesystem', 'path' = '"
                    + t[1] + "', 'format' = 'parquet'" + c.var("tableOptions", "") + ")");
        }
        tEnv.executeSql("CREATE TABLE pqn (" + c.var("nestedSchema", NESTED)
                + ") WITH ('connector' = 'filesystem', 'path' = '" + nested + "', 'format' = 'parquet'" + c.var("tableOptions", "") + ")");
        tEnv.executeSql("CREATE TABLE ev (" + EVENTS + ", WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ("
                + "'connector' = 'filesystem', 'path' = '" + events + "', 'format' = 'parquet'" + c.var("tableOptions", "") + ")");
        return tEnv;
    }

    @TestFactory
    Stream<DynamicTest> parity() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    static void check(ParityCase c) {
        ParityHarness.Outcome flink = ParityHarness.collect(env(c, false), c.query());
        StreamTableEnvironment tEnv = env(c, true);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        assertTrue(verdict.isNative(), () -> c.name() + ": expected native, got\n" + verdict);
        if (c.var("sharedChain", "false").equals("true")) {
            String plan = tEnv.explainSql(c.query());
            assertTrue(plan.matches("(?s).*SluiceChain\\(nodes=\\[TableSourceScan\\([^\\n]*-> WatermarkAssigner.*"),
                    () -> c.name() + ": the scan and the watermark assigner should share a chain:\n" + plan);
        }
        long before = NativeChainOperator.batches("stream-exec-table-source-scan_1");
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        if (c.expect().run() == Expectation.Run.EDGE) {
            assertTrue(String.join("\n", verdict.edgeNotes()).contains(c.reason()),
                    () -> c.name() + ": expected the scan to stay Flink's, with a reason:\n" + verdict);
            assertEquals(before, NativeChainOperator.batches("stream-exec-table-source-scan_1"), c.name());
        } else if (c.expect().fails()) {
            assertTrue(flink.failed() && sluice.failed(), () -> c.name() + ": both engines must fail");
            assertTrue(String.valueOf(rootCause(sluice.failure()).getMessage()).contains(c.expect().failure()),
                    () -> c.name() + ": Sluice failed for another reason: " + rootCause(sluice.failure()));
        } else {
            assertFalse(flink.failed(), () -> c.name() + ": stock Flink failed: " + rootCause(flink.failure()));
            assertTrue(verdict.edgeNotes().isEmpty(), () -> c.name() + ": the scan is not native:\n" + verdict);
            assertFalse(flink.rows().isEmpty(), c.name() + ": Flink read no rows");
            assertTrue(NativeChainOperator.batches("stream-exec-table-source-scan_1") > before,
                    () -> c.name() + ": no batch of the native scan reached a native chain"
                            + (sluice.failed() ? "; Sluice failed: " + rootCause(sluice.failure()) : ""));
        }
        // Files are read in the enumerator's order on both engines, but which split a reader
        // gets first is not fixed: tables of several files compare as multisets.
        ParityHarness.compareOutcomes(c.name(), flink, sluice, c.unordered() || c.parallelism() > 1);
    }

    /**
     * Without operator chaining the scan's batches cross a network edge to the chain: the
     * NativeBatch serializer writes and reads them as Arrow IPC streams, with the same rows.
     */
    @Test
    void nativeBatchesCrossANetworkEdge() {
        ParityCase c = scanCase("unchained", "SELECT " + NATIVE + " FROM pq WHERE i > 0", 2);
        ParityHarness.Outcome flink = ParityHarness.collect(env(c, false), c.query());
        StreamTableEnvironment tEnv = env(c, true);
        tEnv.getConfig().set("pipeline.operator-chaining.enabled", "false");
        long before = NativeChainOperator.batches("stream-exec-table-source-scan_1");
        long deserialized = io.sluice.runtime.NativeBatchSerializer.DESERIALIZED.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertFalse(flink.failed() || flink.rows().isEmpty(), "stock Flink read no rows");
        assertTrue(NativeChainOperator.batches("stream-exec-table-source-scan_1") > before, "not native");
        assertTrue(io.sluice.runtime.NativeBatchSerializer.DESERIALIZED.get() > deserialized,
                "no batch crossed a network edge");
        ParityHarness.compareOutcomes(c.name(), flink, sluice, true);
    }

    /**
     * Failures while splits are half read: checkpoints every 100 ms, batches of 10 rows slowed
     * down, and three injected failures (Go panic, Java exception, Go panic). Flink restores the
     * FileSource's split positions (rows emitted per split) and the native reader skips exactly
     * those rows: the exactly-once output equals a failure-free stock read, no row lost or
     * repeated.
     */
    @Test
    void restoredSplitsNeitherRepeatNorLoseRows() {
        ParityCase c = scanCase("recovery", "SELECT i, s, dw, ts FROM pq WHERE i IS NOT NULL", 1);
        ParityHarness.Outcome flink = ParityHarness.collect(env(c, false), c.query());
        assertFalse(flink.failed(), () -> "stock Flink failed: " + rootCause(flink.failure()));
        StreamTableEnvironment tEnv = env(c, true);
        ParityHarness.injectFailures(tEnv, 150, 1);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        assertTrue(verdict.isNative() && verdict.edgeNotes().isEmpty(), verdict::toString);
        long restored = NativeParquetFormat.SPLITS_RESTORED_MID_WAY.get();
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        ParityHarness.Outcome sluice = ParityHarness.collect(tEnv, c.query());
        assertFalse(sluice.failed(), () -> "the job should recover: " + rootCause(sluice.failure()));
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4, "three failures should restart the job");
        assertTrue(NativeParquetFormat.SPLITS_RESTORED_MID_WAY.get() > restored,
                "a restore should have resumed a split in the middle");
        assertEquals(flink.rows().size(), sluice.rows().size(), "rows lost or repeated");
        ParityHarness.compareOutcomes("recovery", flink, sluice, true);
    }

    /**
     * Streaming read with 'source.monitor-interval': files that appear while the job runs are
     * read once each, natively; the rows equal a bounded stock read of the final directory.
     */
    @Test
    void monitoredDirectoryPicksUpNewFiles() throws Exception {
        Path watched = dir.resolve("watched");
        Files.createDirectories(watched);
        List<Path> parts;
        try (Stream<Path> s = Files.list(dir.resolve("pq"))) {
            parts = s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
        // The expected rows, from bounded stock reads of the same files (before the streaming
        // job takes the slots).
        Path expectFirst = Files.createDirectories(dir.resolve("expect1"));
        Path expectAll = Files.createDirectories(dir.resolve("expect2"));
        publish(parts.get(0), expectFirst.resolve("part-a"));
        publish(parts.get(0), expectAll.resolve("part-a"));
        publish(parts.get(1), expectAll.resolve("part-b"));
        String query = "SELECT i, s, dw, ts FROM watched WHERE i IS NOT NULL";
        long first = bounded(expectFirst, query).size();
        List<Row> all = bounded(expectAll, query);

        publish(parts.get(0), watched.resolve("part-a"));
        String sink = "watched-" + java.util.UUID.randomUUID();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment sl = StreamTableEnvironment.create(env);
        Sluice.install(sl);
        sl.executeSql("CREATE TABLE watched (" + SCHEMA + ") WITH ('connector' = 'filesystem', 'path' = '" + watched
                + "', 'format' = 'parquet', 'source.monitor-interval' = '100 ms')");
        sl.executeSql("CREATE TABLE results (i INT, s STRING, dw DECIMAL(30, 8), ts TIMESTAMP(3)) WITH ('connector' = '"
                + io.sluice.testing.RowsSinkFactory.IDENTIFIER + "', 'sink-id' = '" + sink + "')");
        Verdict v = Sluice.verdict(sl, "INSERT INTO results " + query);
        assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
        long before = NativeChainOperator.batches("stream-exec-table-source-scan_1");
        org.apache.flink.table.api.TableResult job = sl.executeSql("INSERT INTO results " + query);
        try {
            awaitRows(sink, first);
            publish(parts.get(1), watched.resolve("part-b"));
            awaitRows(sink, all.size());
            Thread.sleep(500); // nothing more may come: each file is read once
            assertTrue(NativeChainOperator.batches("stream-exec-table-source-scan_1") > before, "not native");
            ParityHarness.compareOutcomes("monitored", new ParityHarness.Outcome(all, null),
                    new ParityHarness.Outcome(io.sluice.testing.RowsSinkFactory.rows(sink), null), true);
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
    }

    /** Makes a file appear in a watched directory at once (copied under a hidden name, then renamed). */
    static void publish(Path from, Path to) throws Exception {
        Path hidden = to.resolveSibling("." + to.getFileName());
        Files.copy(from, hidden);
        Files.move(hidden, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The rows of a bounded stock read of a directory. */
    static List<Row> bounded(Path watched, String query) {
        StreamTableEnvironment stock = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        stock.executeSql("CREATE TABLE watched (" + SCHEMA + ") WITH ('connector' = 'filesystem', 'path' = '" + watched
                + "', 'format' = 'parquet')");
        ParityHarness.Outcome o = ParityHarness.collect(stock, query);
        assertFalse(o.failed(), () -> "stock read failed: " + rootCause(o.failure()));
        return o.rows();
    }

    static void awaitRows(String sink, long rows) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (io.sluice.testing.RowsSinkFactory.rows(sink).size() < rows) {
            assertTrue(System.currentTimeMillis() < deadline,
                    "timed out waiting for " + rows + " rows, got " + io.sluice.testing.RowsSinkFactory.rows(sink).size());
            Thread.sleep(50);
        }
    }

    /**
     * The native Parquet sink: the same INSERT on stock Flink and on Sluice into two tables,
     * then both read back by stock Flink: the same rows. The Sluice plan must write natively
     * (SluiceSink fed by a native chain) and leave only committed part files.
     */
    @TestFactory
    Stream<DynamicTest> parquetSink() {
        return Stream.of(
                sinkCase("copy", SCHEMA, "SELECT * FROM pq"),
                // NOT NULL columns: Flink's not-null enforcer checks the rows in front of the sink,
                // Sluice's NOT NULL check in front of the native writer; DROP drops rows with NULLs.
                sinkCase("not-null-columns", "i INT NOT NULL, s STRING NOT NULL, dw DECIMAL(30, 8)",
                        "SELECT i, s, dw FROM pq WHERE i IS NOT NULL AND s IS NOT NULL"),
                sinkCase("not-null-dropped", "i INT NOT NULL, s STRING NOT NULL, dw DECIMAL(30, 8)", "SELECT i, s, dw FROM pq", "DROP"),
                sinkCase("nano-timestamps", NANOS, "SELECT * FROM pq9"),
                // INT64 TIMESTAMP(NANOS), also of TIMESTAMP(3) and TIMESTAMP(6) values.
                sinkCase("int64-nanos", NANOS, "SELECT * FROM pq9", "ERROR",
                        ", 'parquet.write.int64.timestamp' = 'true', 'parquet.timestamp.time.unit' = 'nanos'"),
                sinkCase("int64-nanos-of-millis-and-micros", "i INT, ts TIMESTAMP(3), lt TIMESTAMP_LTZ(3), t6 TIMESTAMP(6)",
                        // Flink's reader rejects the pre-1970 fractions its INT64 writer writes.
                        "SELECT i, ts, lt, t6 FROM pq WHERE (ts IS NULL OR ts >= TIMESTAMP '1970-01-01 00:00:00.000') "
                                + "AND (lt IS NULL OR lt >= TO_TIMESTAMP_LTZ(0, 3)) AND (t6 IS NULL OR t6 >= TIMESTAMP '1970-01-01 00:00:00.000000')", "ERROR",
                        ", 'parquet.write.int64.timestamp' = 'true', 'parquet.timestamp.time.unit' = 'nanos'"),
                // ROW, ARRAY and MAP columns (also inside each other), NULL and empty at every level
                sinkCase("copy-nested-columns", NESTED, "SELECT * FROM pqn"),
                sinkCase("filtered-nested-columns", "id INT, m MAP<STRING, INT>, ar ARRAY<ROW<u INT, v STRING>>, aa ARRAY<ARRAY<INT>>, r ROW<a INT, b STRING>",
                        "SELECT id, m, ar, aa, ROW(r.a, r.b) FROM pqn WHERE MOD(id, 3) = 0"),
                sinkCase("timestamps-in-nested-columns", "i INT, ta ARRAY<TIMESTAMP(3)>, rt ROW<a TIMESTAMP(6), b TIMESTAMP_LTZ(3)>, mt MAP<STRING, TIMESTAMP(3)>",
                        "SELECT i, ARRAY[ts, CAST(NULL AS TIMESTAMP(3))], ROW(t6, lt), MAP['k', ts] FROM pq"),
                sinkCase("filter-and-projection", "i INT, s STRING, dw DECIMAL(30, 8), ts TIMESTAMP(3), x DOUBLE",
                        "SELECT i + 1, UPPER(s), dw, ts, d * 2 FROM pq WHERE i > 0 OR s LIKE 's1%'"),
                sinkCase("window", "k INT, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, sv BIGINT, mx DOUBLE",
                        "SELECT k, window_start, window_end, COUNT(*), SUM(v), MAX(price) "
                                + "FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end"))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    String stockDir = dir.resolve("out-stock-" + c.name()).toString();
                    String sluiceDir = dir.resolve("out-sluice-" + c.name()).toString();
                    for (boolean sluice : new boolean[] {false, true}) {
                        ParityCase base = scanCase(c.name(), c.query(), 1);
                        StreamTableEnvironment tEnv = env(base, sluice);
                        tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
                        c.config().forEach((k, v) -> tEnv.getConfig().set(k, v));
                        tEnv.executeSql("CREATE TABLE out_t (" + c.var("columns", "") + ") WITH ('connector' = 'filesystem', "
                                + "'path' = '" + (sluice ? sluiceDir : stockDir) + "', 'format' = 'parquet'" + c.var("options", "") + ")");
                        String insert = "INSERT INTO out_t " + c.query();
                        if (sluice) {
                            Verdict v = Sluice.verdict(tEnv, insert);
                            assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
                            String plan = tEnv.explainSql(insert);
                            assertTrue(plan.contains("SluiceSink("), () -> "the sink is not native:\n" + plan);
                        }
                        tEnv.executeSql(insert).await();
                    }
                    try (Stream<Path> files = Files.list(Path.of(sluiceDir))) {
                        List<String> names = files.map(f -> f.getFileName().toString()).toList();
                        assertTrue(!names.isEmpty() && names.stream().allMatch(n -> n.startsWith("part-")),
                                () -> "Sluice left other files than committed part files: " + names);
                    }
                    ParityHarness.Outcome stock = readBack(stockDir, c.var("columns", ""));
                    if (c.config().getOrDefault("table.exec.sink.not-null-enforcer", "ERROR").equals("DROP")) {
                        int all = ParityHarness.collect(env(scanCase(c.name(), "", 1), false), c.query()).rows().size();
                        assertTrue(stock.rows().size() < all, "stock Flink dropped no row");
                    }
                    ParityHarness.compareOutcomes(c.name(), stock, readBack(sluiceDir, c.var("columns", "")), true);
                }));
    }

    /**
     * Bad input fails both engines, and Sluice's error names what and where: a truncated Parquet
     * file (the file), a column declared with a type its file values cannot be read as (the
     * column).
     */
    @Test
    void badInputFailsAndNamesWhatAndWhere() throws Exception {
        Path broken = dir.resolve("broken");
        Files.createDirectories(broken);
        Path part;
        try (Stream<Path> ps = Files.walk(Path.of(oneFile))) {
            part = ps.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(part);
        Path truncated = broken.resolve("part-truncated.parquet");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        for (ParityCase b : List.of(
                badCase("truncated", SCHEMA, broken.toString(), truncated.getFileName().toString()),
                badCase("mistyped", "i INT, l BIGINT, d DOUBLE, s INT", oneFile, "column s"))) {
            ParityHarness.Outcome[] outcomes = new ParityHarness.Outcome[2];
            for (boolean sluice : new boolean[] {false, true}) {
                StreamTableEnvironment tEnv = env(scanCase(b.name(), "", 1), sluice);
                tEnv.executeSql("CREATE TABLE " + b.name() + " (" + b.var("schema", "") + ") WITH ('connector' = 'filesystem', 'path' = '"
                        + b.var("path", "") + "', 'format' = 'parquet')");
                if (sluice) {
                    Verdict v = Sluice.verdict(tEnv, b.query());
                    assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
                }
                outcomes[sluice ? 1 : 0] = ParityHarness.collect(tEnv, b.query());
            }
            assertTrue(outcomes[0].failed(), () -> b.name() + ": stock Flink read it: " + outcomes[0].rows());
            assertTrue(outcomes[1].failed(), () -> b.name() + ": Sluice read it: " + outcomes[1].rows());
            String message = String.valueOf(rootCause(outcomes[1].failure()).getMessage());
            assertTrue(message.contains(b.expect().failure()), () -> b.name() + ": Sluice's error does not name " + b.expect().failure() + ": " + message);
        }
    }

    /**
     * A NULL written into a NOT NULL column under Flink's default 'table.exec.sink.not-null-enforcer'
     * (ERROR): both engines fail the job with Flink's message naming the column.
     */
    @Test
    void nullInNotNullColumnFailsTheJob() {
        String message = "Column 's' is NOT NULL, however, a null value is being written into it.";
        for (boolean sluice : new boolean[] {false, true}) {
            StreamTableEnvironment tEnv = env(scanCase("not-null-error", "", 1), sluice);
            tEnv.executeSql("CREATE TABLE out_t (i INT, s STRING NOT NULL) WITH ('connector' = 'filesystem', "
                    + "'path' = '" + dir.resolve("out-not-null-" + sluice) + "', 'format' = 'parquet')");
            String insert = "INSERT INTO out_t SELECT i, s FROM pq";
            if (sluice) {
                Verdict v = Sluice.verdict(tEnv, insert);
                assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
            }
            Throwable failure = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> tEnv.executeSql(insert).await(),
                    (sluice ? "Sluice" : "stock Flink") + " wrote a NULL into a NOT NULL column");
            boolean named = false;
            for (Throwable t = failure; t != null; t = t.getCause()) {
                named |= String.valueOf(t.getMessage()).contains(message);
            }
            assertTrue(named, () -> (sluice ? "Sluice" : "stock Flink") + " failed otherwise: " + rootCause(failure));
        }
    }

    /**
     * The native sink across failures: three injected failures while part files are open;
     * Flink's file writer discards in-progress files and commits only checkpointed ones, so the
     * committed output equals a failure-free stock read: no row lost or written twice.
     */
    @Test
    void nativeSinkIsExactlyOnceAcrossFailures() throws Exception {
        String query = "SELECT i, s, dw, ts FROM pq WHERE i IS NOT NULL";
        String columns = "i INT, s STRING, dw DECIMAL(30, 8), ts TIMESTAMP(3)";
        ParityCase c = scanCase("sink-recovery", query, 1);
        ParityHarness.Outcome expected = ParityHarness.collect(env(c, false), query);
        assertFalse(expected.failed(), () -> "stock Flink failed: " + rootCause(expected.failure()));
        String out = dir.resolve("out-recovery").toString();
        StreamTableEnvironment tEnv = env(c, true);
        ParityHarness.injectFailures(tEnv, 150, 1);
        tEnv.executeSql("CREATE TABLE out_t (" + columns + ") WITH ('connector' = 'filesystem', 'path' = '" + out
                + "', 'format' = 'parquet')");
        String insert = "INSERT INTO out_t " + query;
        assertTrue(tEnv.explainSql(insert).contains("SluiceSink("), "the sink is not native");
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        tEnv.executeSql(insert).await();
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4, "three failures should restart the job");
        try (Stream<Path> files = Files.list(Path.of(out))) {
            List<String> visible = files.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith(".")).toList();
            assertTrue(visible.size() > 1 && visible.stream().allMatch(n -> n.startsWith("part-")), visible::toString);
        }
        ParityHarness.Outcome written = readBack(out, columns);
        assertEquals(expected.rows().size(), written.rows().size(), "rows lost or written twice");
        ParityHarness.compareOutcomes("sink-recovery", expected, written, true);
    }

    /**
     * Partitioned sink tables: the same INSERT on stock Flink and on Sluice (at parallelism 2);
     * the same partition directories (named as Flink names them: escaped values, NULL and ''
     * as the default partition, DATE as its epoch day, DECIMAL and TIMESTAMP as Java prints
     * them), the same rows in each, and the same partition commits (success files). The Sluice
     * plan must split and write natively.
     */
    @TestFactory
    Stream<DynamicTest> partitionedParquetSink() {
        String commit = ", 'sink.partition-commit.policy.kind' = 'success-file'";
        return Stream.of(
                // Strings (escaped, empty, NULL, non-ASCII) and booleans, two levels.
                partitionedCase("string-and-boolean", "i INT, d DOUBLE, s STRING, b BOOLEAN", "s, b", commit,
                        "SELECT i, d, CASE WHEN MOD(i, 5) = 0 THEN 'a/b=c%:#' ELSE SUBSTRING(s, 1, 2) END, b FROM pq"),
                // Partition keys in the middle and at the end, of the other supported types.
                partitionedCase("typed-keys", "i INT, dc DECIMAL(5, 2), ti TINYINT, ts TIMESTAMP(3), dt DATE, l BIGINT, t6 TIMESTAMP(6)",
                        "dc, ts, dt, t6", commit,
                        "SELECT i, CAST(MOD(i, 3) AS DECIMAL(5, 2)), ti, CASE MOD(i, 2) WHEN 0 THEN TIMESTAMP '2024-02-29 23:59:59.5' "
                                + "WHEN 1 THEN TIMESTAMP '2024-03-01 00:00:00' END, "
                                + "CASE WHEN MOD(i, 2) = 0 THEN DATE '1969-12-31' ELSE DATE '2024-02-29' END, l, "
                                + "CASE WHEN MOD(i, 2) = 0 THEN TIMESTAMP '0999-01-01 00:00:00.000001' ELSE TIMESTAMP '0999-01-01 00:01:00' END FROM pq"),
                // DOUBLE and FLOAT keys, named by Double/Float#toString (Java 8 to 18): -0.0
                // apart from 0.0, NaN, the exponent form, infinities, NULL.
                partitionedCase("float-and-double-keys", "i INT, s STRING, d DOUBLE, f FLOAT", "d, f", commit,
                        "SELECT i, s, CASE MOD(i, 7) WHEN 0 THEN -CAST(0 AS DOUBLE) WHEN 1 THEN CAST('NaN' AS DOUBLE) WHEN 2 THEN 1.0E7 "
                                + "WHEN 3 THEN 1.0E-4 WHEN 4 THEN 2.82879384806159E17 WHEN 5 THEN CAST(0 AS DOUBLE) END, "
                                + "CAST(CASE MOD(i, 3) WHEN 0 THEN 0.1 WHEN 1 THEN -3.4E38 ELSE 1.0E-5 END AS FLOAT) FROM pq"),
                // A static partition: the planner puts its value into every row.
                partitionedCase("static-partition", "i INT, s STRING, k INT", "k", "",
                        "INSERT INTO out_t PARTITION (k = 7) SELECT i, s FROM pq"),
                // Commits on partition time: a partition is committed once the watermark passes
                // its time (from the directory name) plus the delay; the end of input commits all.
                partitionedCase("partition-time-commit", "k INT, v BIGINT, m STRING", "m",
                        commit + ", 'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 s', "
                                + "'partition.time-extractor.timestamp-pattern' = '$m'",
                        "SELECT k, v, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:00') FROM ev"))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    String stockDir = dir.resolve("parted-stock-" + c.name()).toString();
                    String sluiceDir = dir.resolve("parted-sluice-" + c.name()).toString();
                    for (boolean sluice : new boolean[] {false, true}) {
                        StreamTableEnvironment tEnv = env(scanCase(c.name(), "", 2), sluice);
                        tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
                        tEnv.executeSql("CREATE TABLE out_t (" + c.var("columns", "") + ") PARTITIONED BY (" + c.var("partitionKeys", "")
                                + ") WITH ('connector' = 'filesystem', 'path' = '" + (sluice ? sluiceDir : stockDir)
                                + "', 'format' = 'parquet'" + c.var("options", "") + ")");
                        String insert = c.query().startsWith("INSERT") ? c.query() : "INSERT INTO out_t " + c.query();
                        if (sluice) {
                            Verdict v = Sluice.verdict(tEnv, insert);
                            assertTrue(v.isNative() && v.edgeNotes().isEmpty(), () -> v + " " + v.edgeNotes());
                            String plan = tEnv.explainSql(insert);
                            assertTrue(plan.contains("SluiceSink("), () -> "the sink is not native:\n" + plan);
                        }
                        tEnv.executeSql(insert).await();
                    }
                    List<String> stockFiles = partitionFiles(stockDir);
                    List<String> sluiceFiles = partitionFiles(sluiceDir);
                    assertTrue(stockFiles.stream().anyMatch(f -> f.contains("=")), () -> "stock Flink wrote no partitions: " + stockFiles);
                    assertEquals(stockFiles, sluiceFiles, "partition directories and their non-part files");
                    String dataColumns = dataColumns(c.var("columns", ""), c.var("partitionKeys", ""));
                    ParityHarness.compareOutcomes(c.name(), readBackPartitioned(stockDir, dataColumns),
                            readBackPartitioned(sluiceDir, dataColumns), true);
                }));
    }

    /**
     * The partitioned native sink across failures: Go splits each batch by partition while
     * three injected failures restart the job; the committed partitions, their success files
     * and rows equal a failure-free stock Flink run of the same INSERT.
     */
    @Test
    void partitionedNativeSinkIsExactlyOnceAcrossFailures() throws Exception {
        String columns = "i INT, s STRING, dw DECIMAL(30, 8), k INT, b BOOLEAN";
        String insert = "INSERT INTO out_t SELECT i, s, dw, MOD(i, 3), MOD(i, 2) = 0 FROM pq WHERE i IS NOT NULL";
        String stockDir = dir.resolve("parted-recovery-stock").toString();
        String sluiceDir = dir.resolve("parted-recovery-sluice").toString();
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        for (boolean sluice : new boolean[] {false, true}) {
            StreamTableEnvironment tEnv = env(scanCase("parted-recovery", "", 1), sluice);
            if (sluice) {
                ParityHarness.injectFailures(tEnv, 150, 1);
            } else {
                tEnv.getConfig().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
            }
            tEnv.executeSql("CREATE TABLE out_t (" + columns + ") PARTITIONED BY (k, b) WITH ('connector' = 'filesystem', "
                    + "'path' = '" + (sluice ? sluiceDir : stockDir) + "', 'format' = 'parquet', "
                    + "'sink.partition-commit.policy.kind' = 'success-file')");
            if (sluice) {
                String plan = tEnv.explainSql(insert);
                assertTrue(plan.contains("SluiceSink("), () -> "the sink is not native:\n" + plan);
            }
            tEnv.executeSql(insert).await();
        }
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4, "three failures should restart the job");
        List<String> stockFiles = partitionFiles(stockDir);
        assertTrue(stockFiles.stream().anyMatch(f -> f.endsWith("_SUCCESS")), () -> "no partition was committed: " + stockFiles);
        assertEquals(stockFiles, partitionFiles(sluiceDir), "partition directories and their success files");
        String dataColumns = dataColumns(columns, "k, b");
        ParityHarness.Outcome expected = readBackPartitioned(stockDir, dataColumns);
        ParityHarness.Outcome written = readBackPartitioned(sluiceDir, dataColumns);
        assertEquals(expected.rows().size(), written.rows().size(), "rows lost or written twice");
        ParityHarness.compareOutcomes("parted-recovery", expected, written, true);
    }

    /** A partition key type whose directory name Sluice does not reproduce: the sink stays Flink's, with the reason. */
    /**
     * The files of a partitioned table directory other than part files, and every partition
     * directory, relative to the table (sorted); in-progress files (hidden) are left out.
     */
    static List<String> partitionFiles(String table) throws java.io.IOException {
        Path root = Path.of(table);
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(f -> !f.equals(root))
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .filter(f -> Files.isDirectory(f) || !f.getFileName().toString().startsWith("part-"))
                    .map(f -> root.relativize(f).toString())
                    .sorted()
                    .toList();
        }
    }

    /** The columns of a DDL column list that are not partition keys. */
    static String dataColumns(String columns, String partitionKeys) {
        List<String> keys = List.of(partitionKeys.split(",\\s*"));
        return Stream.of(columns.split(",\\s*(?![^(]*\\))"))
                .filter(col -> !keys.contains(col.trim().split("\\s+")[0]))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * The rows of a partitioned Parquet directory, read by stock Flink as one table without
     * partitions (its reader cannot read back every partition value Flink writes: NULLs,
     * DATEs): the data columns and, last, the file's partition directory.
     */
    static ParityHarness.Outcome readBackPartitioned(String path, String dataColumns) {
        StreamTableEnvironment stock = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        stock.executeSql("CREATE TABLE back (" + dataColumns + ", fp STRING METADATA FROM 'file.path') WITH ("
                + "'connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'parquet')");
        ParityHarness.Outcome o = ParityHarness.collect(stock, "SELECT * FROM back");
        assertFalse(o.failed(), () -> "reading " + path + " failed: " + rootCause(o.failure()));
        assertFalse(o.rows().isEmpty(), "nothing was written to " + path);
        String dirPath = Path.of(path).toUri().getPath();
        String root = dirPath.endsWith("/") ? dirPath : dirPath + "/";
        List<Row> rows = new ArrayList<>();
        for (Row r : o.rows()) {
            Row copy = Row.copy(r);
            String file = new org.apache.flink.core.fs.Path((String) r.getField(r.getArity() - 1)).toUri().getPath();
            assertTrue(file.startsWith(root), () -> file + " is not under " + root);
            copy.setField(r.getArity() - 1, file.substring(root.length(), file.lastIndexOf('/') + 1));
            rows.add(copy);
        }
        return new ParityHarness.Outcome(rows, null);
    }

    /** The rows of a Parquet directory, read by stock Flink. */
    static ParityHarness.Outcome readBack(String path, String columns) {
        StreamTableEnvironment stock = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        stock.executeSql("CREATE TABLE back (" + columns + ") WITH ('connector' = 'filesystem', 'path' = '" + path
                + "', 'format' = 'parquet')");
        ParityHarness.Outcome o = ParityHarness.collect(stock, "SELECT * FROM back");
        assertFalse(o.failed(), () -> "reading " + path + " failed: " + rootCause(o.failure()));
        assertFalse(o.rows().isEmpty(), "nothing was written to " + path);
        return o;
    }

    /** Partition columns come from the directory names, as Flink's filesystem source reads them. */
    @TestFactory
    Stream<DynamicTest> partitionedTables() throws Exception {
        String one = dir.resolve("parted").toString();
        String two = dir.resolve("parted2").toString();
        String nulls = dir.resolve("partednull").toString();
        String ddl1 = "CREATE TABLE parted (i INT, s STRING, d DOUBLE) PARTITIONED BY (s) WITH ('connector' = 'filesystem', "
                + "'path' = '" + one + "', 'format' = 'parquet')";
        // Partition keys in the middle of the schema, of two types, two levels.
        String ddl2 = "CREATE TABLE parted2 (i INT, n INT, d DOUBLE, s STRING, b BOOLEAN) PARTITIONED BY (n, s) WITH ("
                + "'connector' = 'filesystem', 'path' = '" + two + "', 'format' = 'parquet')";
        // Flink writes a DATE partition as its epoch day ("19723") and cannot parse it back.
        String dates = dir.resolve("parteddate").toString();
        String ddl4 = "CREATE TABLE parteddate (i INT, dt DATE) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', "
                + "'path' = '" + dates + "', 'format' = 'parquet')";
        String ddl3 = "CREATE TABLE partednull (i INT, s STRING) PARTITIONED BY (s) WITH ('connector' = 'filesystem', "
                + "'path' = '" + nulls + "', 'format' = 'parquet')";
        TableEnvironment w = writer("i INT, s STRING, d DOUBLE, dt DATE, n INT, b BOOLEAN", List.of(
                r(1, "a", 1.5, LocalDate.of(2024, 1, 1), 1, true), r(2, "b c/d", null, LocalDate.of(2024, 1, 1), 2, false),
                r(3, "a", -0.0, LocalDate.of(1969, 12, 31), 1, null), r(null, "é=%", 2.5, LocalDate.of(2024, 1, 2), -7, true),
                r(5, "", 3.5, LocalDate.of(2024, 1, 2), 2, true), r(6, null, 4.5, LocalDate.of(2024, 1, 2), 2, false)));
        for (String ddl : List.of(ddl1, ddl2, ddl3, ddl4)) {
            w.executeSql(ddl);
        }
        w.executeSql("INSERT INTO parted SELECT i, s, d FROM t WHERE s IS NOT NULL AND s <> ''").await();
        w.executeSql("INSERT INTO parted2 SELECT i, n, d, s, b FROM t WHERE s IS NOT NULL AND s <> ''").await();
        w.executeSql("INSERT INTO parteddate SELECT i, dt FROM t").await();
        w.executeSql("INSERT INTO partednull SELECT i, s FROM t").await();
        List<ParityCase> cases = List.of(
                scanCase("by-string", "SELECT i * 10, s, d FROM parted", 1),
                scanCase("partition-only", "SELECT s FROM parted", 1),
                scanCase("two-levels", "SELECT * FROM parted2", 1),
                scanCase("pruned", "SELECT i, s, b FROM parted2 WHERE n = 2", 1),
                scanCase("pruned-by-string", "SELECT i, n FROM parted2 WHERE s = 'a'", 1),
                scanCase("date-partition", "SELECT i, dt FROM parteddate", 1).fails(),
                // A NULL partition value is written as __DEFAULT_PARTITION__, which Flink's source
                // cannot turn back into a path: both engines fail.
                scanCase("default-partition", "SELECT i, s FROM partednull", 1).fails());
        return cases.stream().map(pc -> DynamicTest.dynamicTest(pc.name(), () -> {
            StreamTableEnvironment stock = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
            StreamTableEnvironment sl = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
            Sluice.install(sl);
            for (String ddl : List.of(ddl1, ddl2, ddl3, ddl4)) {
                stock.executeSql(ddl);
                sl.executeSql(ddl);
            }
            ParityHarness.Outcome flink = ParityHarness.collect(stock, pc.query());
            if (pc.expect().fails()) {
                ParityHarness.Outcome sluice;
                try {
                    sluice = ParityHarness.collect(sl, pc.query());
                } catch (RuntimeException e) {
                    sluice = new ParityHarness.Outcome(List.of(), e);
                }
                assertTrue(flink.failed() && sluice.failed(), pc.name() + ": both engines must fail");
                return;
            }
            assertFalse(flink.failed(), () -> pc.name() + ": stock Flink failed: " + rootCause(flink.failure()));
            assertFalse(flink.rows().isEmpty(), pc.name());
            Verdict v = Sluice.verdict(sl, pc.query());
            assertTrue(v.isNative() && v.edgeNotes().isEmpty(), v::toString);
            long before = NativeChainOperator.batches("stream-exec-table-source-scan_1");
            ParityHarness.Outcome sluice = ParityHarness.collect(sl, pc.query());
            assertTrue(NativeChainOperator.batches("stream-exec-table-source-scan_1") > before, pc.name() + ": not native");
            ParityHarness.compareOutcomes(pc.name(), flink, sluice, true);
        }));
    }
}
