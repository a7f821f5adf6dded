package io.sluice;

import io.sluice.jni.NativeLib;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The row edges are bit-exact with Flink: rows written by Flink's own {@link RowDataSerializer}
 * pass through a native identity pipeline (decode to Arrow, encode back) and come out with the
 * same bytes, padding included.
 */
class RowEdgeRoundTripTest {
    static final List<LogicalType> TYPES = List.of(
            new BooleanType(), new TinyIntType(), new SmallIntType(), new IntType(), new BigIntType(),
            new FloatType(), new DoubleType(), new DecimalType(10, 2), new DecimalType(18, 0),
            new DecimalType(19, 4), new DecimalType(38, 10), new VarCharType(VarCharType.MAX_LENGTH),
            new CharType(5), new VarBinaryType(VarBinaryType.MAX_LENGTH), new BinaryType(3), new DateType(),
            new TimeType(0), new TimestampType(3), new TimestampType(0), new LocalZonedTimestampType(3),
            new TimestampType(6), new LocalZonedTimestampType(6), new TimestampType(4),
            new TimestampType(9), new LocalZonedTimestampType(7), new TimestampType(8),
            new org.apache.flink.table.types.logical.YearMonthIntervalType(
                    org.apache.flink.table.types.logical.YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH),
            new org.apache.flink.table.types.logical.DayTimeIntervalType(
                    org.apache.flink.table.types.logical.DayTimeIntervalType.DayTimeResolution.DAY_TO_SECOND));

    static String identityIsland(RowType rowType) {
        StringBuilder proj = new StringBuilder();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            if (i > 0) {
                proj.append(',');
            }
            proj.append("{\"kind\":\"INPUT_REF\",\"inputIndex\":").append(i)
                    .append(",\"type\":\"").append(rowType.getTypeAt(i).asSerializableString()).append("\"}");
        }
        String type = rowType.asSerializableString().replace("\"", "\\\"");
        return "{\"version\":1,\"nodes\":[{\"name\":\"identity\",\"inputType\":\"" + type + "\",\"exec\":"
                + "{\"id\":1,\"type\":\"stream-exec-calc_1\",\"projection\":[" + proj + "],\"condition\":null,"
                + "\"outputType\":\"" + type + "\"}}],\"options\":{}}";
    }

    static Object randomValue(LogicalType t, Random rnd) {
        if (rnd.nextInt(6) == 0) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return rnd.nextBoolean();
            case TINYINT:
                return (byte) rnd.nextInt();
            case SMALLINT:
                return (short) rnd.nextInt();
            case INTEGER:
            case DATE:
            case INTERVAL_YEAR_MONTH:
                return rnd.nextInt();
            case TIME_WITHOUT_TIME_ZONE:
                return rnd.nextInt(86_400) * 1000;
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return rnd.nextLong();
            case FLOAT:
                return pick(rnd, Float.NaN, -0.0f, Float.MAX_VALUE, rnd.nextFloat());
            case DOUBLE:
                return pick(rnd, Double.NaN, -0.0, Double.MIN_VALUE, rnd.nextGaussian() * 1e10);
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                StringBuilder digits = new StringBuilder();
                int n = 1 + rnd.nextInt(d.getPrecision());
                for (int i = 0; i < n; i++) {
                    digits.append(rnd.nextInt(10));
                }
                BigInteger unscaled = new BigInteger(digits.toString());
                if (rnd.nextBoolean()) {
                    unscaled = unscaled.negate();
                }
                return DecimalData.fromBigDecimal(new BigDecimal(unscaled, d.getScale()), d.getPrecision(), d.getScale());
            }
            case VARCHAR:
            case CHAR: {
                String s = pick(rnd, "", "a", "1234567", "12345678", "Grüße 世界 🌍", "x".repeat(rnd.nextInt(100)));
                if (t instanceof CharType) {
                    s = (s + "     ").substring(0, 5);
                }
                return StringData.fromString(s);
            }
            case VARBINARY:
            case BINARY: {
                byte[] b = new byte[t instanceof BinaryType ? 3 : rnd.nextInt(20)];
                rnd.nextBytes(b);
                return b;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                long millis = rnd.nextLong() % 253_402_300_799_000L;
                int precision = t instanceof TimestampType ? ((TimestampType) t).getPrecision()
                        : ((LocalZonedTimestampType) t).getPrecision();
                if (precision <= 3) {
                    return TimestampData.fromEpochMillis(millis);
                }
                // Whole units of the precision below the millisecond.
                int unit = (int) Math.pow(10, 9 - precision);
                return TimestampData.fromEpochMillis(millis, rnd.nextInt(1_000_000 / unit) * unit);
            }
            case ROW: {
                RowType rt = (RowType) t;
                GenericRowData row = new GenericRowData(rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    row.setField(i, randomValue(rt.getTypeAt(i), rnd));
                }
                return row;
            }
            case ARRAY: {
                LogicalType elem = ((ArrayType) t).getElementType();
                Object[] values = new Object[pick(rnd, 0, 1, 7, 8, 33, rnd.nextInt(70))];
                for (int i = 0; i < values.length; i++) {
                    values[i] = elem.isNullable() ? randomValue(elem, rnd) : randomNonNull(elem, rnd);
                }
                return new GenericArrayData(values);
            }
            case MAP: {
                MapType mt = (MapType) t;
                Map<Object, Object> map = new HashMap<>();
                int size = pick(rnd, 0, 1, 5, rnd.nextInt(40));
                for (int i = 0; i < size; i++) {
                    map.put(randomValue(mt.getKeyType(), rnd), randomValue(mt.getValueType(), rnd));
                }
                return new GenericMapData(map);
            }
            default:
                throw new IllegalArgumentException(t.toString());
        }
    }

    static Object randomNonNull(LogicalType t, Random rnd) {
        Object v;
        do {
            v = randomValue(t, rnd);
        } while (v == null);
        return v;
    }

    @SafeVarargs
    static <T> T pick(Random rnd, T... options) {
        return options[rnd.nextInt(options.length)];
    }

    /** ROW, ARRAY and MAP columns: nested rows, arrays of every element width, maps with NULL keys. */
    static final List<LogicalType> NESTED = List.of(
            RowType.of(new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH), new DecimalType(20, 2),
                    new TimestampType(6)}, new String[] {"id", "name", "amount", "at"}),
            new ArrayType(new IntType()), new ArrayType(new BooleanType()), new ArrayType(new TinyIntType()),
            new ArrayType(new SmallIntType()), new ArrayType(new BigIntType()), new ArrayType(new FloatType()),
            new ArrayType(new DoubleType()), new ArrayType(new DateType()), new ArrayType(new TimeType(0)),
            new ArrayType(new VarCharType(VarCharType.MAX_LENGTH)), new ArrayType(new VarCharType(false, VarCharType.MAX_LENGTH)),
            new ArrayType(new VarBinaryType(VarBinaryType.MAX_LENGTH)), new ArrayType(new DecimalType(10, 2)),
            new ArrayType(new DecimalType(38, 6)), new ArrayType(new TimestampType(3)), new ArrayType(new LocalZonedTimestampType(6)),
            new ArrayType(new TimestampType(9)), RowType.of(new LocalZonedTimestampType(9), new IntType()),
            new ArrayType(RowType.of(new SmallIntType(), new ArrayType(new DoubleType()))),
            new ArrayType(new ArrayType(new VarCharType(VarCharType.MAX_LENGTH))),
            new MapType(new VarCharType(VarCharType.MAX_LENGTH), new BigIntType()),
            new MapType(new IntType(), new ArrayType(new TimestampType(6))),
            new MapType(new BigIntType(false), RowType.of(new VarCharType(VarCharType.MAX_LENGTH), new DecimalType(30, 3))),
            RowType.of(new TinyIntType(), RowType.of(new DateType(), new VarBinaryType(VarBinaryType.MAX_LENGTH),
                    new MapType(new VarCharType(VarCharType.MAX_LENGTH), new IntType()))));

    @Test
    void flinkRowsSurviveTheNativeEdgesByteForByte() {
        assertRoundTrip(TYPES, 500, 42);
    }

    @Test
    void nestedRowsArraysAndMapsSurviveTheNativeEdgesByteForByte() {
        assertRoundTrip(NESTED, 300, 7);
    }

    static void assertRoundTrip(List<LogicalType> types, int rows, long seed) {
        RowType rowType = RowType.of(types.toArray(new LogicalType[0]));
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(seed);
        List<byte[]> expected = new ArrayList<>();
        ByteBuffer in = ByteBuffer.allocateDirect(16 << 20).order(ByteOrder.nativeOrder());
        ByteBuffer inOffsets = ByteBuffer.allocateDirect((rows + 1) * 4).order(ByteOrder.nativeOrder());
        for (int r = 0; r < rows; r++) {
            GenericRowData row = new GenericRowData(types.size());
            row.setRowKind(RowKind.fromByteValue((byte) rnd.nextInt(4)));
            for (int f = 0; f < types.size(); f++) {
                row.setField(f, randomValue(types.get(f), rnd));
            }
            BinaryRowData bin = serializer.toBinaryRow(row).copy();
            byte[] bytes = new byte[bin.getSizeInBytes()];
            bin.getSegments()[0].get(bin.getOffset(), bytes);
            expected.add(bytes);
            inOffsets.putInt(r * 4, in.position());
            in.put(bytes);
        }
        inOffsets.putInt(rows * 4, in.position());

        NativeLib.ensureLoaded();
        long h = NativeLib.open(identityIsland(rowType).getBytes(StandardCharsets.UTF_8));
        try {
            ByteBuffer out = ByteBuffer.allocateDirect(16 << 20).order(ByteOrder.nativeOrder());
            ByteBuffer outOffsets = ByteBuffer.allocateDirect((2 * rows + 2) * 4).order(ByteOrder.nativeOrder());
            long n = NativeLib.process(h, in, inOffsets, rows, out, outOffsets);
            assertEquals(rows, n);
            for (int r = 0; r < rows; r++) {
                int start = outOffsets.getInt(r * 4);
                int end = outOffsets.getInt((r + 1) * 4);
                byte[] got = new byte[end - start];
                out.get(start, got);
                int row = r;
                assertArrayEquals(expected.get(r), got, () -> "row " + row + ": " + Arrays.toString(expected.get(row))
                        + " != " + Arrays.toString(got));
                assertEquals(r, outOffsets.getInt((rows + 1 + r) * 4), "selection of row " + r);
            }
        } finally {
            NativeLib.close(h);
        }
    }
}
