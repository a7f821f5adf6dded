package io.sluice.runtime;

import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Batch boundaries of a native chain (a Calc): rows are flushed when the batch is full, before a
 * watermark is forwarded, before a checkpoint barrier and at end of input; record timestamps and
 * RowKinds survive; watermarks pass through unchanged and in order.
 */
class NativeChainOperatorTest {
    static final RowType TYPE = RowType.of(new IntType());

    /** SELECT a + 1 FROM t WHERE a > 0, as Flink's exec-node JSON. */
    static final String ISLAND = "{\"version\":1,\"nodes\":[{\"name\":\"Calc\",\"inputType\":\"ROW<`a` INT>\",\"exec\":"
            + "{\"id\":1,\"type\":\"stream-exec-calc_1\",\"projection\":[{\"kind\":\"CALL\",\"internalName\":\"$+$1\","
            + "\"operands\":[{\"kind\":\"INPUT_REF\",\"inputIndex\":0,\"type\":\"INT\"},{\"kind\":\"LITERAL\",\"value\":1,"
            + "\"type\":\"INT NOT NULL\"}],\"type\":\"INT\"}],\"condition\":{\"kind\":\"CALL\",\"internalName\":\"$>$1\","
            + "\"operands\":[{\"kind\":\"INPUT_REF\",\"inputIndex\":0,\"type\":\"INT\"},{\"kind\":\"LITERAL\",\"value\":0,"
            + "\"type\":\"INT NOT NULL\"}],\"type\":\"BOOLEAN\"},\"outputType\":\"ROW<`a` INT>\"}}],\"options\":{}}";

    static OneInputStreamOperatorTestHarness<RowData, RowData> harness(int batchRows) throws Exception {
        return harness(batchRows, 0);
    }

    static OneInputStreamOperatorTestHarness<RowData, RowData> harness(int batchRows, long maxDelay) throws Exception {
        NativeChainOperator op = new NativeChainOperator(
                ISLAND.getBytes(StandardCharsets.UTF_8), TYPE, TYPE,
                new ChainShape(java.util.List.of("stream-exec-calc_1"), false, false, true, 0, false, false, false, false, 0),
                batchRows, maxDelay, 0, 0, 0, 0);
        OneInputStreamOperatorTestHarness<RowData, RowData> h = new OneInputStreamOperatorTestHarness<>(op);
        h.setup(new RowDataSerializer(TYPE));
        h.open();
        return h;
    }

    static StreamRecord<RowData> rec(RowKind kind, int a, Long ts) {
        GenericRowData r = GenericRowData.ofKind(kind, a);
        return ts == null ? new StreamRecord<>(r) : new StreamRecord<>(r, ts);
    }

    /** Renders the output queue: rows as kind(a)@ts, watermarks as W(ts). */
    static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> h) {
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof Watermark w) {
                out.add("W(" + w.getTimestamp() + ")");
            } else {
                @SuppressWarnings("unchecked")
                StreamRecord<RowData> r = (StreamRecord<RowData>) o;
                out.add(r.getValue().getRowKind().shortString() + "(" + r.getValue().getInt(0) + ")"
                        + (r.hasTimestamp() ? "@" + r.getTimestamp() : ""));
            }
        }
        return out;
    }

    @Test
    void flushesBeforeWatermarksAndKeepsTimestampsAndKinds() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> h = harness(100)) {
            h.processElement(rec(RowKind.INSERT, 1, 10L));
            h.processElement(rec(RowKind.INSERT, -1, 11L));
            h.processElement(rec(RowKind.UPDATE_BEFORE, 2, null));
            assertEquals(List.of(), output(h), "rows wait for a full batch");
            h.processWatermark(new Watermark(100));
            h.processElement(rec(RowKind.DELETE, 5, 120L));
            h.processWatermark(new Watermark(200));
            assertEquals(List.of("+I(2)@10", "-U(3)", "W(100)", "-D(6)@120", "W(200)"), output(h));
        }
    }

    @Test
    void flushesOnFullBatchBarrierAndEndOfInput() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> h = harness(2)) {
            h.processElement(rec(RowKind.INSERT, 1, 1L));
            assertEquals(List.of(), output(h));
            h.processElement(rec(RowKind.INSERT, 2, 2L));
            assertEquals(List.of("+I(2)@1", "+I(3)@2"), output(h), "a full batch is flushed at once");
            h.processElement(rec(RowKind.INSERT, 3, 3L));
            h.prepareSnapshotPreBarrier(1L);
            assertEquals(List.of("+I(2)@1", "+I(3)@2", "+I(4)@3"), output(h), "flushed before the barrier");
            h.processElement(rec(RowKind.INSERT, 4, 4L));
            h.endInput();
            assertEquals(List.of("+I(2)@1", "+I(3)@2", "+I(4)@3", "+I(5)@4"), output(h), "flushed at end of input");
        }
    }

    @Test
    void flushesAPartlyFilledBatchAfterTheMaxDelay() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> h = harness(100, 50)) {
            h.setProcessingTime(1000);
            h.processElement(rec(RowKind.INSERT, 7, 1L));
            h.setProcessingTime(1049);
            assertEquals(List.of(), output(h), "not yet");
            h.setProcessingTime(1050);
            assertEquals(List.of("+I(8)@1"), output(h), "flushed once the first row waited 50 ms");
        }
    }
}
