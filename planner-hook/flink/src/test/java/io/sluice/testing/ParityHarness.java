package io.sluice.testing;

import io.sluice.Sluice;
import io.sluice.planner.Verdict;
import io.sluice.runtime.NativeChainOperator;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a {@link ParityCase} on stock Flink and on Flink with Sluice, in the same MiniCluster, and
 * asserts that both produce the same changelog (every row, RowKind and field; in order) or both
 * fail, and that the Sluice run was native (or fell back) as the case demands.
 */
public final class ParityHarness {
    private ParityHarness() {}

    /** What one engine produced: rows, or the failure. */
    public record Outcome(List<Row> rows, Throwable failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    public static void check(ParityCase c) {
        Outcome flink = run(c, false);
        // Both engines failing also compares equal: only cases that expect it may fail on Flink.
        boolean mayFail = c.expect().fails();
        if (flink.failed() != mayFail) {
            fail(c.name() + (mayFail ? ": expected to fail, but Flink ran it: " : ": Flink failed on it: ") + describe(flink));
        }
        StreamTableEnvironment tEnv = newEnv(c, true);
        Verdict verdict = Sluice.verdict(tEnv, c.query());
        if (c.expectNative()) {
            assertTrue(verdict.isNative(), () -> c.name() + ": expected native, got\n" + verdict);
        } else {
            assertFalse(verdict.isNative(), () -> c.name() + ": expected a fallback, got\n" + verdict);
            String reasons = String.join("\n", verdict.reasons());
            assertTrue(reasons.contains(c.reason()),
                    () -> c.name() + ": fallback reasons do not mention '" + c.reason() + "':\n" + verdict);
        }
        long before = nativeBatches();
        Outcome sluice = collect(tEnv, c.query());
        long batches = nativeBatches() - before;
        if (c.expectNative() && !c.rows().isEmpty()) {
            assertTrue(batches > 0, c.name() + ": plan was native but no batch ran natively");
        }
        if (!c.expectNative()) {
            assertEquals(0, batches, c.name() + ": fallback case ran native batches");
        }
        if (!c.expect().rowsDefined()) {
            assertFalse(sluice.failed(), () -> c.name() + ": the fallback run failed: " + describe(sluice));
            return;
        }
        compare(c.name(), flink, sluice, c.parallelism() > 1 || c.unordered());
        checkFailure(c, sluice);
    }

    /** For a case on which both engines fail: Sluice's failure names what the case expects. */
    public static void checkFailure(ParityCase c, Outcome sluice) {
        if (!c.expect().fails()) {
            return;
        }
        assertTrue(sluice.failed(), () -> c.name() + ": Sluice did not fail");
        String text = c.expect().failure();
        StringBuilder chain = new StringBuilder();
        for (Throwable t = sluice.failure(); t != null; t = t.getCause()) {
            chain.append(t).append('\n');
        }
        assertTrue(chain.toString().contains(text),
                () -> c.name() + ": Sluice failed without '" + text + "':\n" + chain);
    }

    /**
     * Makes a Sluice job fail three times (a Go panic, a Java exception, a Go panic), each time
     * after {@code afterBatches} native batches of 10 rows of an attempt, with checkpoints every
     * 100 ms and restarts, so that recovery from Flink's checkpoints is exercised.
     */
    public static void injectFailures(StreamTableEnvironment tEnv, int afterBatches, int batchDelayMs) {
        tEnv.getConfig().set(io.sluice.SluiceOptions.BATCH_ROWS, 10);
        tEnv.getConfig().set(io.sluice.SluiceOptions.DEBUG_BATCH_DELAY_MS, batchDelayMs);
        tEnv.getConfig().set(io.sluice.SluiceOptions.DEBUG_PANIC_AFTER_BATCHES, afterBatches);
        tEnv.getConfig().set(io.sluice.SluiceOptions.DEBUG_FAIL_ATTEMPTS, 3);
        tEnv.getConfig().set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL,
                java.time.Duration.ofMillis(100));
        tEnv.getConfig().set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        tEnv.getConfig().set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        tEnv.getConfig().set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                java.time.Duration.ofMillis(10));
    }

    /** Batches run by native operators in this JVM so far. */
    public static long nativeBatches() {
        return NativeChainOperator.batches();
    }

    /** Asserts that both engines failed, or produced the same rows (as multisets when unordered). */
    public static void compareOutcomes(String name, Outcome flink, Outcome sluice, boolean unordered) {
        compare(name, flink, sluice, unordered);
    }

    static void compare(String name, Outcome flink, Outcome sluice, boolean unordered) {
        if (flink.failed() || sluice.failed()) {
            if (flink.failed() && sluice.failed()) {
                return;
            }
            fail(name + ": one engine failed.\nFlink: " + describe(flink) + "\nSluice: " + describe(sluice));
        }
        String want = render(flink.rows());
        String got = render(sluice.rows());
        if (unordered && (retracts(flink.rows()) || retracts(sluice.rows()))) {
            // How a changelog of two inputs or of several subtasks interleaves differs from run to
            // run (in Flink too: an outer join pads a row or not as the other input's rows come
            // first or later); its final table does not.
            want = render(materialized(flink.rows()));
            got = render(materialized(sluice.rows()));
        }
        if (unordered) {
            want = sortedLines(want);
            got = sortedLines(got);
        }
        assertEquals(want, got, name + ": outputs differ");
    }

    private static String sortedLines(String s) {
        return java.util.Arrays.stream(s.split("\n")).sorted().collect(java.util.stream.Collectors.joining("\n"));
    }

    private static String describe(Outcome o) {
        if (o.failed()) {
            Throwable t = o.failure();
            while (t.getCause() != null) {
                t = t.getCause();
            }
            // The root cause with where it was thrown (a bare NullPointerException says little).
            StringBuilder where = new StringBuilder();
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(6, frames.length); i++) {
                where.append("\n\tat ").append(frames[i]);
            }
            return "failed: " + t + where;
        }
        return o.rows().size() + " rows " + render(o.rows());
    }

    /** Renders rows exactly: kind, and every field with its Java class, doubles by their bits. */
    /** Whether a changelog has rows that retract (-U, -D). */
    static boolean retracts(List<Row> rows) {
        return rows.stream().anyMatch(r -> r.getKind() == org.apache.flink.types.RowKind.UPDATE_BEFORE
                || r.getKind() == org.apache.flink.types.RowKind.DELETE);
    }

    /** The final table of a changelog: each -U/-D takes back one equal row that came before. */
    public static List<Row> materialized(List<Row> changelog) {
        java.util.Map<String, java.util.ArrayDeque<Row>> live = new java.util.LinkedHashMap<>();
        List<Row> unmatched = new java.util.ArrayList<>();
        for (Row r : changelog) {
            Row plain = Row.copy(r);
            plain.setKind(org.apache.flink.types.RowKind.INSERT);
            String key = render(List.of(plain));
            boolean retract = r.getKind() == org.apache.flink.types.RowKind.UPDATE_BEFORE
                    || r.getKind() == org.apache.flink.types.RowKind.DELETE;
            if (!retract) {
                live.computeIfAbsent(key, k -> new java.util.ArrayDeque<>()).add(plain);
            } else if (live.containsKey(key) && !live.get(key).isEmpty()) {
                live.get(key).pop();
            } else {
                unmatched.add(r); // a retraction of nothing: kept, so that it shows in a diff
            }
        }
        List<Row> out = new java.util.ArrayList<>(unmatched);
        live.values().forEach(out::addAll);
        return out;
    }

    static String render(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        for (Row r : rows) {
            sb.append(r.getKind().shortString()).append('(');
            for (int i = 0; i < r.getArity(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(renderValue(r.getField(i)));
            }
            sb.append(")\n");
        }
        return sb.toString();
    }

    /**
     * Renders one field exactly: its Java class, doubles and floats by their bits. NaNs render
     * without their bits: Java leaves open which NaN an operation returns (the interpreter and
     * the JIT differ, e.g. Math.abs on JDK 17), so Flink itself is not consistent about them
     * (docs/divergences.md).
     */
    public static String renderValue(Object v) {
        if (v == null) {
            return "null";
        } else if (v instanceof Double d && d.isNaN()) {
            return "NaN:Double";
        } else if (v instanceof Float f && f.isNaN()) {
            return "NaN:Float";
        } else if (v instanceof Double d) {
            return d + "d#" + Long.toHexString(Double.doubleToRawLongBits(d));
        } else if (v instanceof Float f) {
            return f + "f#" + Integer.toHexString(Float.floatToRawIntBits(f));
        } else if (v instanceof byte[] bytes) {
            return java.util.Arrays.toString(bytes) + ":bytes";
        } else if (v instanceof java.math.BigDecimal b) {
            return b.toPlainString() + "@" + b.scale();
        } else if (v instanceof Object[] elements) {
            // ARRAY: every element rendered exactly, in order.
            return java.util.Arrays.stream(elements).map(ParityHarness::renderValue)
                    .collect(java.util.stream.Collectors.joining(", ", "[", "]:array"));
        } else if (v instanceof java.util.Map<?, ?> map) {
            // MAP: the external conversion is a HashMap, so entries are compared as a set.
            return map.entrySet().stream().map(e -> renderValue(e.getKey()) + "=" + renderValue(e.getValue()))
                    .sorted().collect(java.util.stream.Collectors.joining(", ", "{", "}:map"));
        } else if (v instanceof Row row) {
            StringBuilder sb = new StringBuilder(row.getKind().shortString()).append('(');
            for (int i = 0; i < row.getArity(); i++) {
                sb.append(i > 0 ? ", " : "").append(renderValue(row.getField(i)));
            }
            return sb.append("):row").toString();
        }
        return v + ":" + v.getClass().getSimpleName();
    }

    public static Outcome run(ParityCase c, boolean sluice) {
        return collect(newEnv(c, sluice), c.query());
    }

    public static StreamTableEnvironment newEnv(ParityCase c, boolean sluice) {
        return newEnv(c, sluice, "");
    }

    /** A table environment with table t of the case; extraOptions are appended to t's WITH clause. */
    public static StreamTableEnvironment newEnv(ParityCase c, boolean sluice, String extraOptions) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(c.parallelism());
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        c.config().forEach((k, v) -> tEnv.getConfig().getConfiguration().setString(k, v));
        if (sluice) {
            Sluice.install(tEnv);
        }
        if (!c.schema().isEmpty()) {
            String id = RowsTableFactory.register(c.rows());
            tEnv.executeSql("CREATE TABLE t (" + c.schema() + ") WITH ('connector' = '"
                    + RowsTableFactory.IDENTIFIER + "', 'data-id' = '" + id + "'" + extraOptions + ")");
        }
        for (String statement : c.ddl(java.util.Map.of())) {
            tEnv.executeSql(statement);
        }
        return tEnv;
    }

    public static Outcome collect(StreamTableEnvironment tEnv, String query) {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(out::add);
            return new Outcome(out, null);
        } catch (Exception e) {
            return new Outcome(out, e);
        }
    }
}
