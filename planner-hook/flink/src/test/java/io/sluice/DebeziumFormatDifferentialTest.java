package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRows;

import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.table.types.utils.TypeConversions;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The debezium-json format's native decoding (sources/debeziumformat, through
 * {@link NativeLib#valueRows}) against Flink's own DebeziumJsonDeserializationSchema: random
 * Debezium envelopes (creates, reads, updates, deletes, unknown or missing ops, missing before or
 * after rows, extra fields), their rows of every flat type with the json differential test's
 * corner cases, and records that are no envelope at all. Every record decoded natively must give
 * Flink's rows byte for byte, RowKinds included; the others are Flink's to decode.
 */
class DebeziumFormatDifferentialTest {
    /**
     * The flat fields of the json test, or those without its DECIMAL columns: with a DECIMAL in
     * the row, Flink's tree deserializer reads every JSON float as a BigDecimal, without one as a
     * double, and their values differ in other ways.
     */
    static String rowType(boolean decimals) {
        if (decimals) {
            return JsonFormatDifferentialTest.FLAT_ROW_TYPE;
        }
        return JsonFormatDifferentialTest.FLAT_ROW_TYPE.replace("`dec` DECIMAL(10, 3), ", "").replace("`dec38` DECIMAL(38, 18), ", "");
    }

    /** The positions in the json test's FIELDS of rowType(decimals)'s fields. */
    static int[] fields(boolean decimals) {
        return java.util.stream.IntStream.range(0, JsonFormatDifferentialTest.FLAT_FIELDS.length)
                .filter(i -> decimals || !JsonFormatDifferentialTest.FLAT_FIELDS[i].startsWith("dec")).toArray();
    }

    @ParameterizedTest(name = "ignoreParseErrors={0}, timestamps={1}, decimals={2}, schemaInclude={3}")
    @CsvSource({"false, SQL, true, false", "true, SQL, true, false", "false, ISO_8601, true, false", "false, SQL, false, false",
        "true, ISO_8601, false, false", "false, SQL, true, true", "true, SQL, false, true"})
    void nativeDecodingIsFlinks(boolean ignoreErrors, TimestampFormat timestamps, boolean decimals, boolean schemaInclude)
            throws Exception {
        NativeLib.ensureLoaded();
        String rowTypeText = rowType(decimals);
        int[] fields = fields(decimals);
        RowType rowType = (RowType) LogicalTypeParser.parse(rowTypeText, DebeziumFormatDifferentialTest.class.getClassLoader());
        if (rowType.getFieldCount() != fields.length) {
            throw new IllegalStateException(rowTypeText + " has " + rowType.getFieldCount() + " fields for " + fields.length + " positions");
        }
        DebeziumJsonDeserializationSchema flink = new DebeziumJsonDeserializationSchema(
                TypeConversions.fromLogicalToDataType(rowType), Collections.emptyList(), InternalTypeInfo.of(rowType),
                schemaInclude, ignoreErrors, timestamps);
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(21 + (ignoreErrors ? 1 : 0) + timestamps.ordinal() * 2 + (decimals ? 4 : 0) + (schemaInclude ? 8 : 0));
        boolean iso = timestamps == TimestampFormat.ISO_8601;
        int nativeRecords = 0;
        int total = 0;
        for (int round = 0; round < 10; round++) {
            List<byte[]> records = new ArrayList<>();
            for (int r = 0; r < 1000; r++) {
                String e = envelope(rnd, iso, fields);
                if (schemaInclude) {
                    e = withSchema(rnd, e);
                }
                records.add(e.getBytes(StandardCharsets.UTF_8));
            }
            String options = "format=debezium-json\ndebezium-json.schema-include=" + schemaInclude
                    + "\ndebezium-json.ignore-parse-errors=" + ignoreErrors
                    + "\ndebezium-json.timestamp-format.standard=" + (iso ? "ISO-8601" : "SQL");
            ValueRows natives = ValueRows.decode(rowTypeText, options, records);
            total += records.size();
            nativeRecords += natives.assertFlinks(records, flink, serializer);
        }
        int decoded = nativeRecords;
        int all = total;
        // The generator damages many records on purpose (a third to two thirds go to Flink):
        // this guards against a decoder that leaves everything to Flink, which would test nothing.
        assertTrue(decoded > all / 4, () -> "only " + decoded + " of " + all + " records decoded natively");
    }

    /**
     * A random record: mostly envelopes of the four ops with the rows they need, now and then an
     * unknown or missing op, a missing or null before or after row, Debezium's extra fields, a
     * row that is no object; sometimes no envelope at all.
     */
    static String envelope(Random rnd, boolean iso, int[] fields) {
        switch (rnd.nextInt(50)) {
            case 0: return "";
            case 1: return "[" + envelope(rnd, iso, fields) + "]";
            case 2: return "null";
            case 3: {
                String e = envelope(rnd, iso, fields);
                return e.substring(0, rnd.nextInt(Math.max(1, e.length())));
            }
            default: break;
        }
        String op = JsonFormatDifferentialTest.pick(rnd, "c", "r", "u", "d", "c", "u", "d");
        boolean before = !op.equals("c") && !op.equals("r");
        boolean after = !op.equals("d");
        if (rnd.nextInt(15) == 0) {
            before = !before;
        }
        if (rnd.nextInt(15) == 0) {
            after = !after;
        }
        List<String> parts = new ArrayList<>();
        parts.add("\"before\":" + (before ? row(rnd, iso, fields) : "null"));
        parts.add("\"after\":" + (after ? row(rnd, iso, fields) : "null"));
        switch (rnd.nextInt(20)) {
            case 0: break; // no op
            case 1: parts.add("\"op\":\"x\""); break;
            case 2: parts.add("\"op\":null"); break;
            case 3: parts.add("\"op\":1"); break;
            default: parts.add("\"op\":\"" + op + "\"");
        }
        if (rnd.nextInt(3) == 0) {
            parts.add("\"source\":{\"version\":\"2.4\",\"db\":\"shop\",\"table\":\"t\",\"lsn\":[1,2]},\"ts_ms\":1700000000000");
        }
        if (rnd.nextInt(10) == 0) {
            parts.remove(rnd.nextInt(parts.size())); // a missing before, after or op
        }
        Collections.shuffle(parts, rnd);
        return "{" + String.join(",", parts) + "}";
    }

    /**
     * A record of Kafka Connect's JSON converter with schemas enabled: the envelope as its
     * "payload" beside a "schema"; now and then no payload, a null one, or the bare envelope.
     */
    static String withSchema(Random rnd, String envelope) {
        String schema = "\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"field\":\"before\"}],\"name\":\"x.Envelope\"}";
        switch (rnd.nextInt(20)) {
            case 0: return "{" + schema + "}";
            case 1: return "{" + schema + ",\"payload\":null}";
            case 2: return envelope;
            default: return rnd.nextBoolean() ? "{" + schema + ",\"payload\":" + envelope + "}" : "{\"payload\":" + envelope + "," + schema + "}";
        }
    }

    /** A row: an object of the flat fields, or now and then something else. */
    static String row(Random rnd, boolean iso, int[] fields) {
        if (rnd.nextInt(25) == 0) {
            return JsonFormatDifferentialTest.pick(rnd, "\"x\"", "1", "[]", "[{}]", "true", "{}");
        }
        return JsonFormatDifferentialTest.object(rnd, iso, fields);
    }
}
