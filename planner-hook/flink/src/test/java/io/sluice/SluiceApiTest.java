package io.sluice;

import io.sluice.cli.SluiceCli;
import io.sluice.jni.NativeException;
import io.sluice.jni.NativeLib;
import io.sluice.cli.SqlScript;
import io.sluice.planner.Verdict;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user-facing entry points: explain, options, and the CLI. */
class SluiceApiTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final ParityCase CASE = ParityCase.nativeCase(
            "api", "i INT, s STRING", List.of(Row.of(1, "a"), Row.of(2, "b")), "SELECT i + 1, UPPER(s) FROM t WHERE i > 1");

    @Test
    void explainShowsTheNativeNodeAndTheVerdict() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        String explain = Sluice.explain(tEnv, CASE.query());
        assertTrue(explain.contains("SluiceChain("), explain);
        assertTrue(explain.contains("NATIVE: the island runs in Sluice"), explain);
    }

    @Test
    void explainNamesEveryFallbackReason() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        String explain = Sluice.explain(tEnv, "SELECT EXP(i), UUID() FROM t");
        assertFalse(explain.contains("SluiceChain("), explain);
        assertTrue(explain.contains("FALLBACK"), explain);
        assertTrue(explain.contains("EXP runs on Flink: Flink calls java.lang.Math"), explain);
        assertTrue(explain.contains("UUID runs on Flink: nondeterministic"), explain);
    }

    @Test
    void optionsSetAfterInstallStillShapeFlinksOptimizer() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        tEnv.executeSql("CREATE TABLE u (i INT, x STRING) WITH ('connector' = 'datagen')");
        tEnv.executeSql("CREATE TABLE v (i INT, y STRING) WITH ('connector' = 'datagen')");
        String join = "SELECT t.s, u.x, v.y FROM t JOIN u ON t.i = u.i JOIN v ON t.i = v.i";
        assertFalse(tEnv.explainSql(join).contains("MultiJoin"));
        tEnv.getConfig().set(OptimizerConfigOptions.TABLE_OPTIMIZER_MULTI_JOIN_ENABLED, true);
        assertTrue(tEnv.explainSql(join).contains("MultiJoin"), "Flink's program must be rebuilt from the current config");
    }

    @Test
    void sqlExplainShowsFallbackReasons() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        tEnv.executeSql("CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')");
        String plan = tEnv.executeSql("EXPLAIN INSERT INTO snk SELECT CAST(EXP(i) AS INT) FROM t").collect().next().getField(0).toString();
        assertTrue(plan.contains("SLUICE_FALLBACK"), plan);
        assertTrue(plan.contains("EXP runs on Flink: Flink calls java.lang.Math"), plan);
        String nativePlan = tEnv.executeSql("EXPLAIN INSERT INTO snk SELECT i + 1 FROM t").collect().next().getField(0).toString();
        assertTrue(nativePlan.contains("SluiceChain(") && !nativePlan.contains("SLUICE_FALLBACK"), nativePlan);
    }

    @Test
    void nativeMemoryLimitReachesTheGoRuntime() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        tEnv.getConfig().set(SluiceOptions.NATIVE_MEMORY_LIMIT, MemorySize.parse("3g"));
        ParityHarness.Outcome out = ParityHarness.collect(tEnv, CASE.query());
        assertEquals(null, out.failure());
        // The first native operator of the process set GOMEMLIMIT; later values do not change it.
        assertEquals(3L << 30, NativeLib.configureMemoryLimit(1L << 30));
        long previous = NativeLib.setMemoryLimit(5L << 30);
        assertEquals(3L << 30, previous);
        assertEquals(5L << 30, NativeLib.setMemoryLimit(previous));
        NativeException bad = org.junit.jupiter.api.Assertions.assertThrows(
                NativeException.class, () -> NativeLib.setMemoryLimit(-1));
        assertTrue(bad.getMessage().contains("must be positive"), bad.getMessage());
    }

    @Test
    void disabledRunsStockFlink() {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(CASE, true);
        tEnv.getConfig().set(SluiceOptions.ENABLED, false);
        Verdict v = Sluice.verdict(tEnv, CASE.query());
        assertFalse(v.isNative());
        assertEquals(List.of("sluice.enabled is false"), v.reasons());
    }

    @Test
    void scriptSplitterKeepsQuotedSemicolons() {
        assertEquals(List.of("SELECT 'a;b' FROM t", "SELECT \"x;\" FROM u"),
                SqlScript.split("SELECT 'a;b' FROM t; -- a comment; with a semicolon\nSELECT \"x;\" FROM u;"));
    }

    static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SluiceCli.run(args, new PrintStream(out, true), new PrintStream(err, true));
        return new String[] {String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void cliExplainsAndRunsAScript(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("job.sql");
        Files.writeString(script, """
                CREATE TABLE src (i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',
                  'fields.i.kind' = 'sequence', 'fields.i.start' = '1', 'fields.i.end' = '10');
                CREATE TABLE snk (j INT) WITH ('connector' = 'blackhole');
                INSERT INTO snk SELECT i * 2 FROM src WHERE i > 3;
                """);
        String[] explain = run("sql", "-f", script.toString(), "--explain");
        assertEquals("0", explain[0], explain[2]);
        assertTrue(explain[1].contains("SluiceChain(") && explain[1].contains("NATIVE"), explain[1]);
        String[] vanilla = run("sql", "-f", script.toString(), "--explain", "--vanilla");
        assertTrue(vanilla[1].contains("Sluice is not installed"), vanilla[1]);
        String[] exec = run("sql", "-f", script.toString(), "--parallelism", "2");
        assertEquals("0", exec[0], exec[2]);
        assertTrue(exec[1].contains("OK INSERT INTO snk"), exec[1]);
    }

    /**
     * The CLI carries the formats of a Flink distribution: a CSV file read through the
     * filesystem connector is written as JSON, Avro and raw lines (a new user's first script
     * once failed with "Could not find any format factory for identifier 'csv'").
     */
    @Test
    void cliReadsAndWritesTheDistributionsFormats(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("in.csv"), "1,a,0.5\n2,b,2.5\n3,\"c,d\",7.0\n");
        Path script = dir.resolve("formats.sql");
        String table = "CREATE TABLE %s (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s');\n";
        String cols = "id INT, name STRING, price DOUBLE";
        Files.writeString(script, String.format(table, "src", cols, dir.resolve("in.csv"), "csv")
                + String.format(table, "as_json", cols, dir.resolve("json"), "json")
                + String.format(table, "as_avro", cols, dir.resolve("avro"), "avro")
                + String.format(table, "as_raw", "line STRING", dir.resolve("raw"), "raw")
                + "INSERT INTO as_json SELECT * FROM src WHERE price > 1;\n"
                + "INSERT INTO as_avro SELECT * FROM src;\n"
                + "INSERT INTO as_raw SELECT name FROM src;\n");
        String[] exec = run("sql", "-f", script.toString());
        assertEquals("0", exec[0], exec[2]);
        assertEquals(List.of("{\"id\":2,\"name\":\"b\",\"price\":2.5}", "{\"id\":3,\"name\":\"c,d\",\"price\":7.0}"),
                lines(dir.resolve("json")));
        assertEquals(List.of("a", "b", "c,d"), lines(dir.resolve("raw")));
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("avro"))) {
            assertTrue(files.anyMatch(f -> !f.getFileName().toString().startsWith(".")), "no Avro file written");
        }
    }

    /** The lines of the visible files of a directory, sorted. */
    static List<String> lines(Path dir) throws java.io.IOException {
        List<String> out = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
                out.addAll(Files.readAllLines(f));
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void cliReportsErrorsAsFlinkDoes(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("bad.sql");
        Files.writeString(script, "SELECT nope FROM missing_table;");
        String[] r = run("sql", "-f", script.toString());
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("statement failed: SELECT nope FROM missing_table"), r[2]);
        assertTrue(r[2].contains("Object 'missing_table' not found"), r[2]);

        assertEquals("2", run("sql")[0]);
        assertEquals("2", run("sql", "-f", dir.resolve("absent.sql").toString())[0]);
        assertEquals("2", run("sql", "-f", script.toString(), "--parallelism", "zero")[0]);
        assertEquals("2", run("sql", "-f", script.toString(), "--bogus")[0]);
    }
}
