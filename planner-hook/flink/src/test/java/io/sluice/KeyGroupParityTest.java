package io.sluice;

import io.sluice.jni.NativeLib;

import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property test of native key routing: random rows with keys of every supported type, keyed by
 * Flink's own key selector (the BinaryRowData projection a SQL hash exchange uses) and assigned
 * by {@link KeyGroupRangeAssignment}; the native side must give every row the same key group and
 * subtask, for several parallelisms and maximum parallelisms.
 */
class KeyGroupParityTest {
    private static final int ROWS = 400;
    private static final int[][] PARALLELISMS = {
        {128, 1}, {128, 2}, {128, 3}, {1, 1}, {7, 3}, {256, 256}, {4096, 5}, {32768, 7}, {32768, 32768}
    };

    @Test
    void nativeKeyGroupsAndSubtasksAreFlinks() throws Exception {
        RowType rowType = RowType.of(RowEdgeRoundTripTest.TYPES.toArray(new LogicalType[0]));
        int arity = rowType.getFieldCount();
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(7);

        List<int[]> keySets = new ArrayList<>();
        for (int f = 0; f < arity; f++) {
            keySets.add(new int[] {f});
        }
        for (int i = 0; i < 30; i++) {
            int[] k = new int[2 + rnd.nextInt(4)];
            for (int j = 0; j < k.length; j++) {
                k[j] = rnd.nextInt(arity);
            }
            keySets.add(k);
        }
        int[] all = new int[arity];
        Arrays.setAll(all, i -> arity - 1 - i);
        keySets.add(all);

        NativeLib.ensureLoaded();
        ByteBuffer data = ByteBuffer.allocateDirect(4 << 20).order(ByteOrder.nativeOrder());
        ByteBuffer offsets = ByteBuffer.allocateDirect((ROWS + 1) * 4).order(ByteOrder.nativeOrder());
        ByteBuffer out = ByteBuffer.allocateDirect(ROWS * 8).order(ByteOrder.nativeOrder());
        int checked = 0;
        for (int[] keys : keySets) {
            List<BinaryRowData> rows = new ArrayList<>();
            data.clear();
            for (int r = 0; r < ROWS; r++) {
                GenericRowData row = new GenericRowData(arity);
                row.setRowKind(RowKind.fromByteValue((byte) rnd.nextInt(4)));
                for (int f = 0; f < arity; f++) {
                    // Few distinct values per field, so keys repeat and collide across rows.
                    row.setField(f, RowEdgeRoundTripTest.randomValue(rowType.getTypeAt(f), new Random(rnd.nextInt(8))));
                }
                BinaryRowData bin = serializer.toBinaryRow(row).copy();
                rows.add(bin);
                byte[] bytes = new byte[bin.getSizeInBytes()];
                bin.getSegments()[0].get(bin.getOffset(), bytes);
                offsets.putInt(r * 4, data.position());
                data.put(bytes);
            }
            offsets.putInt(ROWS * 4, data.position());

            RowDataKeySelector selector = KeySelectorUtil.getRowDataSelector(
                    getClass().getClassLoader(), keys, InternalTypeInfo.of(rowType));
            for (int[] pp : PARALLELISMS) {
                int maxP = pp[0];
                int p = pp[1];
                String spec = String.format(
                        "{\"rowType\":\"%s\",\"keys\":%s,\"maxParallelism\":%d,\"parallelism\":%d}",
                        rowType.asSerializableString().replace("\"", "\\\""), Arrays.toString(keys), maxP, p);
                NativeLib.routeRows(spec.getBytes(StandardCharsets.UTF_8), data, offsets, ROWS, out);
                for (int r = 0; r < ROWS; r++) {
                    RowData key = selector.getKey(rows.get(r));
                    int kg = KeyGroupRangeAssignment.assignToKeyGroup(key, maxP);
                    int subtask = KeyGroupRangeAssignment.assignKeyToParallelOperator(key, maxP, p);
                    String where = "row " + r + " keys " + describe(rowType, keys) + " maxP " + maxP + " p " + p;
                    assertEquals(kg, out.getInt(8 * r), "key group of " + where);
                    assertEquals(subtask, out.getInt(8 * r + 4), "subtask of " + where);
                    checked++;
                }
            }
        }
        assertTrue(checked >= keySets.size() * PARALLELISMS.length * ROWS);
    }

    private static String describe(RowType rowType, int[] keys) {
        return Arrays.stream(keys).mapToObj(k -> k + ":" + rowType.getTypeAt(k)).collect(Collectors.joining(", ", "[", "]"));
    }
}
