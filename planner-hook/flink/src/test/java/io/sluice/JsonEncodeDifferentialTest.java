package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRecords;
import io.sluice.sinks.kafka.RecordValues;

import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The json format's native encoding (sinks/jsonformat, through {@link NativeLib#valueRecords})
 * against Flink's own JsonRowDataSerializationSchema: random rows of every type the encoder
 * takes, with extreme values (NaN, infinities, -0.0, subnormals, 38-digit decimals, years past
 * 9999 and before 0, control characters, emoji), under the timestamp standards and the decimal
 * and null-field options, must give Flink's records byte for byte.
 */
class JsonEncodeDifferentialTest {
    static final String ROW_TYPE = JsonFormatDifferentialTest.FLAT_ROW_TYPE;

    @ParameterizedTest(name = "timestamps={0}, decimalPlain={1}, ignoreNullFields={2}")
    @CsvSource({"SQL, false, false", "ISO_8601, false, false", "SQL, true, false", "SQL, false, true"})
    void nativeEncodingIsFlinks(TimestampFormat timestamps, boolean decimalPlain, boolean ignoreNulls) throws Exception {
        NativeLib.ensureLoaded();
        RowType rowType = (RowType) LogicalTypeParser.parse(ROW_TYPE, JsonEncodeDifferentialTest.class.getClassLoader());
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(rowType, timestamps,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", decimalPlain, ignoreNulls);
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(11 + timestamps.ordinal() + (decimalPlain ? 2 : 0) + (ignoreNulls ? 4 : 0));
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r < 5000; r++) {
            rows.add(row(rnd));
        }
        String options = "format=json\njson.timestamp-format.standard="
                + (timestamps == TimestampFormat.ISO_8601 ? "ISO-8601" : "SQL")
                + "\njson.encode.decimal-as-plain-number=" + decimalPlain + "\njson.encode.ignore-null-fields=" + ignoreNulls;
        byte[] out = ValueRecords.encode(ROW_TYPE, options, rows, serializer);
        int n = RecordValues.count(out);
        assertEquals(rows.size(), n);
        for (int r = 0; r < n; r++) {
            String want = new String(flink.serialize(rows.get(r)), StandardCharsets.UTF_8);
            String got = new String(RecordValues.value(out, r), StandardCharsets.UTF_8);
            assertEquals(want, got, "row " + rows.get(r));
        }
    }

    /**
     * The debezium-json format's native encoding (sinks/debeziumformat) against Flink's
     * DebeziumJsonSerializationSchema: the same random rows, each of a random RowKind, in the
     * envelope Flink writes for it.
     */
    @ParameterizedTest(name = "ignoreNullFields={0}")
    @CsvSource({"false", "true"})
    void debeziumEncodingIsFlinks(boolean ignoreNulls) throws Exception {
        NativeLib.ensureLoaded();
        RowType rowType = (RowType) LogicalTypeParser.parse(ROW_TYPE, JsonEncodeDifferentialTest.class.getClassLoader());
        DebeziumJsonSerializationSchema flink = new DebeziumJsonSerializationSchema(rowType, TimestampFormat.SQL,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, ignoreNulls);
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(ignoreNulls ? 5 : 3);
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r < 2000; r++) {
            GenericRowData row = row(rnd);
            row.setRowKind(RowKind.values()[rnd.nextInt(4)]);
            rows.add(row);
        }
        String options = "format=debezium-json\ndebezium-json.encode.ignore-null-fields=" + ignoreNulls;
        byte[] out = ValueRecords.encode(ROW_TYPE, options, rows, serializer);
        int n = RecordValues.count(out);
        assertEquals(rows.size(), n);
        for (int r = 0; r < n; r++) {
            String want = new String(flink.serialize(rows.get(r)), StandardCharsets.UTF_8);
            String got = new String(RecordValues.value(out, r), StandardCharsets.UTF_8);
            assertEquals(want, got, "row " + rows.get(r));
        }
    }

    static GenericRowData row(Random rnd) {
        String[] fields = JsonFormatDifferentialTest.FLAT_FIELDS;
        GenericRowData row = new GenericRowData(fields.length);
        for (int i = 0; i < fields.length; i++) {
            row.setField(i, rnd.nextInt(8) == 0 ? null : value(rnd, fields[i]));
        }
        return row;
    }

    static Object value(Random rnd, String field) {
        switch (field) {
            case "b": return rnd.nextBoolean();
            case "t": return (byte) rnd.nextInt();
            case "s": return (short) rnd.nextInt();
            case "i": return rnd.nextInt();
            case "l": return rnd.nextInt(4) == 0 ? pickLong(rnd) : rnd.nextLong();
            case "f": switch (rnd.nextInt(4)) {
                case 0: return (float) pickDouble(rnd);
                case 1: return Float.intBitsToFloat(rnd.nextInt());
                default: return (rnd.nextFloat() - 0.5f) * (float) Math.pow(10, rnd.nextInt(76) - 38);
            }
            case "d": return rnd.nextInt(4) == 0 ? pickDouble(rnd) : Double.longBitsToDouble(rnd.nextLong() & 0x7fefffffffffffffL)
                    * (rnd.nextBoolean() ? 1 : -1);
            case "dec": return DecimalData.fromBigDecimal(new BigDecimal(BigInteger.valueOf(rnd.nextLong() % 10_000_000_000L), 3), 10, 3);
            case "dec38": {
                BigInteger u = new BigInteger(rnd.nextInt(126) + 1, rnd);
                if (rnd.nextBoolean()) {
                    u = u.negate();
                }
                DecimalData d = DecimalData.fromBigDecimal(new BigDecimal(u, 18), 38, 18);
                return d == null ? DecimalData.fromBigDecimal(BigDecimal.ONE, 38, 18) : d;
            }
            case "str": {
                StringBuilder b = new StringBuilder();
                for (int k = rnd.nextInt(10); k > 0; k--) {
                    b.append(JsonFormatDifferentialTest.pick(rnd, "a", "\"", "\\", "/", "\b", "\t", "\n", "\f", "\r", "\u0001",
                            "\u001f", "\u007f", "é", "\u2028", "漢", "😀", "\uffff", " "));
                }
                return StringData.fromString(b.toString());
            }
            case "bin": {
                byte[] v = new byte[rnd.nextInt(10)];
                rnd.nextBytes(v);
                return v;
            }
            case "dt": return rnd.nextInt(5) == 0 ? pickDay(rnd) : rnd.nextInt(80_000) - 30_000;
            case "tm": return rnd.nextInt(86_400_000);
            case "ts3", "ltz": return TimestampData.fromEpochMillis(timestampMillis(rnd));
            case "ts6": return TimestampData.fromEpochMillis(timestampMillis(rnd), rnd.nextInt(1000) * 1000);
            case "ts9": return TimestampData.fromEpochMillis(timestampMillis(rnd), rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1_000_000));
            default: throw new IllegalStateException(field);
        }
    }

    static long timestampMillis(Random rnd) {
        switch (rnd.nextInt(6)) {
            case 0: return 0;
            case 1: return -1;
            case 2: return 253_402_300_800_000L + rnd.nextInt(1_000_000_000); // past 9999
            case 3: return -62_167_219_200_000L - rnd.nextInt(1_000_000_000); // before year 0
            default: return rnd.nextLong(4_102_444_800_000L) - 2_208_988_800_000L;
        }
    }

    static int pickDay(Random rnd) {
        int[] days = {-719529, -719528, 2932896, 2932897, -1, 0, 1, -678_941, 10_000_000};
        return days[rnd.nextInt(days.length)];
    }

    static long pickLong(Random rnd) {
        long[] v = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1};
        return v[rnd.nextInt(v.length)];
    }

    static double pickDouble(Random rnd) {
        double[] v = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE,
            Double.MAX_VALUE, 1e7, 9999999.999, 1e-3, 0.001 - 1e-19, 1e-4, 100, 2e-323, 1.0E23, 4.35E-321};
        return v[rnd.nextInt(v.length)];
    }
}
