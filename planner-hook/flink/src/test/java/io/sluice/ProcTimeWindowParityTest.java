package io.sluice;

import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Processing-time windows against Flink's own window operator. A processing-time result
 * depends on when each row arrives and when each timer fires, so a job-level comparison is not
 * deterministic; here the operators are driven by one clock instead. Each query is planned by
 * stock Flink and by Sluice; the keyed operator of each plan (Flink's WindowAggOperator, and
 * Sluice's native chain) runs in a Flink test harness that receives the same rows at the same
 * processing times, with its clock moved in the same steps, including rows that arrive in a
 * window's last millisecond after its timer fired. Both must emit the same rows.
 */
class ProcTimeWindowParityTest {
    static final String SCHEMA = "k STRING, v BIGINT, pt AS PROCTIME()";

    /**
     * A case: the window TVF over t, the session time zone, and the harness's clock: where it
     * starts, its mean step between rows and its steps after the last row (ms).
     */
    static ParityCase procCase(String name, String window, String zone, long start, long step, long tail) {
        return ParityCase.nativeCase(name, SCHEMA, List.of(), "").with("table.local-time-zone", zone)
                .withVars(Map.of("window", window, "start", String.valueOf(start), "step", String.valueOf(step),
                        "tail", String.valueOf(tail)));
    }

    static List<ParityCase> cases() {
        return List.of(
                procCase("tumble", "TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '5' SECOND)", "UTC", 1_700_000_001_000L, 137, 6_000),
                procCase("tumble-offset", "TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '5' SECOND, INTERVAL '2' SECOND)", "UTC",
                        1_700_000_001_000L, 137, 6_000),
                procCase("hop", "HOP(TABLE t, DESCRIPTOR(pt), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "UTC", 1_700_000_001_000L, 137, 6_000),
                procCase("cumulate", "CUMULATE(TABLE t, DESCRIPTOR(pt), INTERVAL '2' SECOND, INTERVAL '6' SECOND)", "UTC",
                        1_700_000_001_000L, 137, 6_000),
                // Hour windows in a zone half an hour off UTC: a slower clock and hour-long steps at the end.
                procCase("tumble-hour-ist", "TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '1' HOUR)", "GMT+05:30",
                        1_700_000_000_000L, 97_000, 3_600_000));
    }

    static String query(ParityCase c) {
        return "INSERT INTO snk SELECT k, COUNT(*) AS c, SUM(v) AS s, MAX(v) AS mx, window_start, window_end "
                + "FROM TABLE(" + c.var("window", "") + ") GROUP BY k, window_start, window_end";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlinksOperator(ParityCase c) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> flink = harness(c, false);
        long batches = NativeChainOperator.batches("stream-exec-window-aggregate_1");
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> sluice = harness(c, true);
        try {
            List<String> expected = drive(flink, c);
            List<String> actual = drive(sluice, c);
            assertFalse(expected.isEmpty(), "Flink's operator fired no window");
            assertEquals(expected, actual, () -> firstDifference(expected, actual));
            assertTrue(NativeChainOperator.batches("stream-exec-window-aggregate_1") > batches, "no batch ran natively");
        } finally {
            flink.close();
            sluice.close();
        }
    }

    /**
     * A processing-time job in a running cluster (parallelism 2, rows reaching the window
     * through the columnar exchange): which windows fire depends on timing, so this checks what
     * holds for any timing. The job is native, windows fire while it runs, every fired window
     * holds rows, and no row is counted twice. (Windows still open when the bounded input ends
     * are dropped, by Flink and by Sluice.)
     */
    @org.junit.jupiter.api.Test
    void firesWindowsInARunningJob() {
        List<org.apache.flink.types.Row> rows = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            rows.add(org.apache.flink.types.Row.of("k" + (i % 7), (long) i));
        }
        ParityCase pc = ParityCase.nativeCase("running", SCHEMA, rows, "").withParallelism(2);
        StreamTableEnvironment tEnv = ParityHarness.newEnv(pc, true, ", 'delay-ms' = '2'");
        String q = "SELECT k, COUNT(*) AS c, SUM(v) AS s, window_start, window_end "
                + "FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end";
        assertTrue(Sluice.verdict(tEnv, q).isNative(), () -> Sluice.verdict(tEnv, q).toString());
        long exchanged = NativeChainOperator.EXCHANGE_BATCHES.get();
        ParityHarness.Outcome out = ParityHarness.collect(tEnv, q);
        assertTrue(out.failure() == null, () -> "the job failed: " + out.failure());
        assertFalse(out.rows().isEmpty(), "no window fired while the job ran");
        long counted = 0;
        java.util.Set<String> windows = new java.util.HashSet<>();
        for (org.apache.flink.types.Row r : out.rows()) {
            assertTrue((Long) r.getField(1) > 0, () -> "an empty window: " + r);
            counted += (Long) r.getField(1);
            assertTrue(windows.add(r.getField(0) + "@" + r.getField(3)), () -> "a window fired twice: " + r);
        }
        assertTrue(counted <= rows.size(), "rows were counted more than once");
        assertTrue(NativeChainOperator.EXCHANGE_BATCHES.get() > exchanged, "no batch crossed the columnar exchange");
    }

    /**
     * Feeds the same rows at the same processing times to an operator and returns what it emits
     * (after each firing, sorted: the order of keys within one firing is an implementation detail).
     */
    static List<String> drive(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> h, ParityCase c) throws Exception {
        RowType in = inputType;
        RowDataSerializer serializer = new RowDataSerializer(in);
        Random rnd = new Random(7);
        long start = Long.parseLong(c.var("start", ""));
        long step = Long.parseLong(c.var("step", ""));
        List<String> out = new ArrayList<>();
        long now = start;
        h.setProcessingTime(now);
        for (int i = 0; i < 300; i++) {
            // Time moves in uneven steps; now and then it stops at a window's last millisecond
            // (timers fire) and a row arrives right after, still in that millisecond.
            long next = now + rnd.nextInt((int) step * 2);
            long edge = (next / 2000) * 2000 - 1;
            if (i % 17 == 5 && edge > now) {
                next = edge;
            }
            now = next;
            h.setProcessingTime(now);
            collect(h, out);
            for (int r = rnd.nextInt(4); r >= 0; r--) {
                GenericRowData row = new GenericRowData(in.getFieldCount());
                for (int f = 0; f < in.getFieldCount(); f++) {
                    String name = in.getFieldNames().get(f);
                    if (name.equals("k")) {
                        int k = rnd.nextInt(6);
                        row.setField(f, k == 0 ? null : StringData.fromString("k" + k));
                    } else if (name.equals("v")) {
                        row.setField(f, rnd.nextInt(10) == 0 ? null : (long) rnd.nextInt(1000));
                    }
                }
                h.processElement(new StreamRecord<>(serializer.toBinaryRow(row)));
            }
        }
        for (int i = 1; i <= 3; i++) {
            h.setProcessingTime(now + i * Long.parseLong(c.var("tail", "")));
            collect(h, out);
        }
        return out;
    }

    static String firstDifference(List<String> expected, List<String> actual) {
        int i = 0;
        while (i < Math.min(expected.size(), actual.size()) && expected.get(i).equals(actual.get(i))) {
            i++;
        }
        return "Flink emitted " + expected.size() + " rows, Sluice " + actual.size() + "; first difference at row " + i
                + ": Flink " + expected.subList(i, Math.min(i + 3, expected.size()))
                + ", Sluice " + actual.subList(i, Math.min(i + 3, actual.size()));
    }

    private static void collect(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> h, List<String> out) {
        List<String> fired = new ArrayList<>();
        for (RowData r : h.extractOutputValues()) {
            fired.add(format(r));
        }
        h.getOutput().clear();
        fired.sort(null);
        out.addAll(fired);
    }

    static RowType outputType;
    static RowType inputType;

    static String format(RowData r) {
        StringBuilder sb = new StringBuilder(r.getRowKind().shortString()).append('(');
        for (int i = 0; i < outputType.getFieldCount(); i++) {
            Object v = RowData.createFieldGetter(outputType.getTypeAt(i), i).getFieldOrNull(r);
            sb.append(i == 0 ? "" : ", ").append(v);
        }
        return sb.append(')').toString();
    }

    /** The keyed operator of the query's plan (stock Flink's or Sluice's) in a test harness. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(ParityCase c, boolean sluice) throws Exception {
        StreamTableEnvironment tEnv = ParityHarness.newEnv(c, sluice);
        tEnv.executeSql("CREATE TABLE snk (k STRING, c BIGINT, s BIGINT, mx BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3)) "
                + "WITH ('connector' = 'blackhole')");
        if (sluice) {
            assertTrue(Sluice.verdict(tEnv, query(c)).isNative(), () -> Sluice.verdict(tEnv, query(c)).toString());
        }
        TableEnvironmentImpl impl = (TableEnvironmentImpl) tEnv;
        ModifyOperation op = (ModifyOperation) impl.getParser().parse(query(c)).get(0);
        List<Transformation<?>> roots = impl.getPlanner().translate(List.of(op));
        OneInputTransformation<RowData, RowData> keyed = findKeyed(roots.get(0));
        if (!sluice) {
            inputType = ((InternalTypeInfo<RowData>) keyed.getInputType()).toRowType();
        }
        outputType = RowType.of(keyed.getOutputType() instanceof InternalTypeInfo
                ? ((InternalTypeInfo<RowData>) keyed.getOutputType()).toRowType().getChildren().toArray(new LogicalType[0])
                : outputType.getChildren().toArray(new LogicalType[0]));
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> h = new KeyedOneInputStreamOperatorTestHarness<>(
                keyed.getOperatorFactory(), (KeySelector<RowData, RowData>) keyed.getStateKeySelector(),
                (org.apache.flink.api.common.typeinfo.TypeInformation<RowData>) keyed.getStateKeyType());
        h.setup(new RowDataSerializer(outputType));
        h.open();
        return h;
    }

    /** The one keyed one-input transformation of a plan (the window aggregation). */
    @SuppressWarnings("unchecked")
    static OneInputTransformation<RowData, RowData> findKeyed(Transformation<?> t) {
        Map<Integer, Transformation<?>> seen = new TreeMap<>();
        List<Transformation<?>> todo = new ArrayList<>(List.of(t));
        OneInputTransformation<RowData, RowData> found = null;
        while (!todo.isEmpty()) {
            Transformation<?> x = todo.remove(todo.size() - 1);
            if (seen.put(x.getId(), x) != null) {
                continue;
            }
            if (x instanceof OneInputTransformation && ((OneInputTransformation<?, ?>) x).getStateKeySelector() != null) {
                assertTrue(found == null, "the plan has several keyed operators");
                found = (OneInputTransformation<RowData, RowData>) x;
            }
            todo.addAll(x.getInputs());
        }
        assertTrue(found != null, "the plan has no keyed operator");
        return found;
    }
}
