package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRows;

import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The json format's native decoding (sources/jsonformat, through {@link NativeLib#valueRows})
 * against Flink's own deserializer (JsonParserRowDataDeserializationSchema, the default of
 * flink-json 2.1.1) on random records full of corner cases: every record the native decoder
 * decodes must give Flink's row byte for byte (as BinaryRowData), or no row where Flink emits
 * none; a record it leaves to Flink is Flink's to decode (then nothing is compared), and most
 * records must be decoded natively, or the test tests little.
 */
class JsonFormatDifferentialTest {
    static final String[] FIELDS = {"b", "t", "s", "i", "l", "f", "d", "dec", "dec38", "str", "bin", "dt", "tm", "ts3", "ts6",
        "ts9", "ltz", "r"};
    /** The flat fields (the encoder's differential test takes these). */
    static final String[] FLAT_FIELDS = java.util.Arrays.copyOf(FIELDS, FIELDS.length - 1);
    static final String FLAT_ROW_TYPE = "ROW<`b` BOOLEAN, `t` TINYINT, `s` SMALLINT, `i` INT, `l` BIGINT, `f` FLOAT, `d` DOUBLE,"
            + " `dec` DECIMAL(10, 3), `dec38` DECIMAL(38, 18), `str` STRING, `bin` BYTES, `dt` DATE, `tm` TIME(3),"
            + " `ts3` TIMESTAMP(3), `ts6` TIMESTAMP(6), `ts9` TIMESTAMP(9), `ltz` TIMESTAMP_LTZ(3)>";
    static final String ROW_TYPE = FLAT_ROW_TYPE.substring(0, FLAT_ROW_TYPE.length() - 1)
            + ", `r` ROW<`x` INT, `y` STRING, `z` TIMESTAMP(3)>>";

    @ParameterizedTest(name = "failOnMissingField={0}, ignoreParseErrors={1}, timestamps={2}")
    @CsvSource({"false, false, SQL", "true, false, SQL", "false, true, SQL", "false, false, ISO_8601"})
    void nativeDecodingIsFlinks(boolean failOnMissing, boolean ignoreErrors, TimestampFormat timestamps) throws Exception {
        NativeLib.ensureLoaded();
        RowType rowType = (RowType) LogicalTypeParser.parse(ROW_TYPE, JsonFormatDifferentialTest.class.getClassLoader());
        JsonParserRowDataDeserializationSchema flink = new JsonParserRowDataDeserializationSchema(
                rowType, InternalTypeInfo.of(rowType), failOnMissing, ignoreErrors, timestamps);
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(7 + (failOnMissing ? 1 : 0) + (ignoreErrors ? 2 : 0) + timestamps.ordinal() * 4);
        boolean iso = timestamps == TimestampFormat.ISO_8601;
        int nativeRecords = 0;
        int total = 0;
        for (int round = 0; round < 20; round++) {
            List<byte[]> records = new ArrayList<>();
            for (int r = 0; r < 1000; r++) {
                records.add(record(rnd, iso).getBytes(StandardCharsets.UTF_8));
            }
            String options = "format=json\njson.fail-on-missing-field=" + failOnMissing + "\njson.ignore-parse-errors="
                    + ignoreErrors + "\njson.timestamp-format.standard=" + (iso ? "ISO-8601" : "SQL");
            ValueRows natives = ValueRows.decode(ROW_TYPE, options, records);
            total += records.size();
            nativeRecords += natives.assertFlinks(records, flink, serializer);
        }
        int decoded = nativeRecords;
        int all = total;
        assertTrue(decoded > all / 2, () -> "only " + decoded + " of " + all + " records decoded natively");
    }

    /**
     * A random record: half of them objects of plain values, the others with one to three fields
     * holding corner cases, and now and then no object at all or a truncated one.
     */
    static String record(Random rnd, boolean iso) {
        switch (rnd.nextInt(40)) {
            case 0: return "";
            case 1: return "[" + object(rnd, iso) + "]";
            case 2: return "  ";
            case 3: return "null";
            case 4: {
                String o = object(rnd, iso);
                return o.substring(0, rnd.nextInt(o.length())); // truncated
            }
            default: return object(rnd, iso);
        }
    }

    static String object(Random rnd, boolean iso) {
        return object(rnd, iso, java.util.stream.IntStream.range(0, FIELDS.length).toArray());
    }

    /** A random object of the fields of FIELDS at the given positions, as {@link #object(Random, boolean)}. */
    static String object(Random rnd, boolean iso, int[] fields) {
        java.util.Set<Integer> corners = new java.util.HashSet<>();
        if (rnd.nextBoolean()) {
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                corners.add(fields[rnd.nextInt(fields.length)]);
            }
        }
        List<String> parts = new ArrayList<>();
        for (int i : fields) {
            boolean corner = corners.contains(i);
            if (corner && rnd.nextInt(6) == 0) {
                continue; // missing
            }
            parts.add("\"" + FIELDS[i] + "\":" + (corner ? value(rnd, i, iso) : plain(rnd, i, iso)));
        }
        if (rnd.nextInt(10) == 0) {
            parts.add("\"extra\":{\"x\":[1,\"}\",{\"y\":null}],\"z\":\"\\\"\"}");
        }
        if (rnd.nextInt(30) == 0) {
            int i = fields[rnd.nextInt(fields.length)];
            parts.add("\"" + FIELDS[i] + "\":" + value(rnd, i, iso)); // a duplicate
        }
        java.util.Collections.shuffle(parts, rnd);
        String sep = rnd.nextInt(8) == 0 ? " , " : ",";
        return "{" + String.join(sep, parts) + "}";
    }

    /** A plain value of field i's type, in the form Flink's own JSON writer would give it. */
    static String plain(Random rnd, int i, boolean iso) {
        switch (FIELDS[i]) {
            case "r": {
                // A nested row: its fields in any order, one sometimes missing or null.
                List<String> parts = new ArrayList<>(List.of("\"x\":" + plain(rnd, indexOf("i"), iso),
                        "\"y\":" + plain(rnd, indexOf("str"), iso), "\"z\":" + plain(rnd, indexOf("ts3"), iso)));
                if (rnd.nextInt(8) == 0) {
                    parts.remove(rnd.nextInt(parts.size()));
                }
                if (rnd.nextInt(8) == 0) {
                    parts.set(0, parts.get(0).replaceFirst(":.*", ":null"));
                }
                java.util.Collections.shuffle(parts, rnd);
                return rnd.nextInt(20) == 0 ? "null" : "{" + String.join(",", parts) + "}";
            }
            case "b": return Boolean.toString(rnd.nextBoolean());
            case "t": return Integer.toString(rnd.nextInt(256) - 128);
            case "s": return Integer.toString(rnd.nextInt(65536) - 32768);
            case "i": return Integer.toString(rnd.nextInt());
            case "l": return Long.toString(rnd.nextLong());
            case "f": return Float.toString((rnd.nextFloat() - 0.5f) * (float) Math.pow(10, rnd.nextInt(20) - 10));
            case "d": return Double.toString((rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(40) - 20));
            case "dec": return String.format(java.util.Locale.ROOT, "%.3f", (rnd.nextDouble() - 0.5) * 1e7);
            case "dec38": return (rnd.nextBoolean() ? "-" : "") + Math.abs(rnd.nextLong() % 100_000_000_000_000_000L) + "."
                    + String.format(java.util.Locale.ROOT, "%018d", Math.abs(rnd.nextLong() % 1_000_000_000_000_000_000L));
            case "str": {
                StringBuilder b = new StringBuilder("\"");
                for (int k = rnd.nextInt(12); k > 0; k--) {
                    b.append(pick(rnd, "a", "Z", " ", "\\n", "\\\"", "\\u00e9", "é", "漢", "😀", "0"));
                }
                return b.append('"').toString();
            }
            case "bin": {
                byte[] v = new byte[rnd.nextInt(9)];
                rnd.nextBytes(v);
                return "\"" + java.util.Base64.getEncoder().encodeToString(v) + "\"";
            }
            case "dt": return "\"" + java.time.LocalDate.ofEpochDay(rnd.nextInt(40_000) - 10_000) + "\"";
            case "tm": return "\"" + java.time.LocalTime.ofNanoOfDay(rnd.nextLong(86_400_000_000_000L))
                    .format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss.SSS")) + "\"";
            default: {
                java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(rnd.nextLong(4_000_000_000L) - 1_000_000_000L,
                        rnd.nextInt(1_000_000_000), java.time.ZoneOffset.UTC);
                int digits = switch (FIELDS[i]) {
                    case "ts6" -> 6;
                    case "ts9" -> 9;
                    default -> 3;
                };
                String pattern = (iso ? "yyyy-MM-dd'T'HH:mm:ss." : "yyyy-MM-dd HH:mm:ss.") + "S".repeat(digits);
                return "\"" + t.format(java.time.format.DateTimeFormatter.ofPattern(pattern)) + (FIELDS[i].equals("ltz") ? "Z" : "")
                        + "\"";
            }
        }
    }

    static final String[] ANY = {"null", "{}", "[1]", "true", "false", "\"\"", "\" \"", "0", "-0", "1.5", "1e3", "\"x\""};

    static String value(Random rnd, int field, boolean iso) {
        if (rnd.nextInt(10) == 0) {
            return ANY[rnd.nextInt(ANY.length)];
        }
        switch (FIELDS[field]) {
            case "b": return pick(rnd, "true", "false", "\"TRUE\"", "\" true \"", "\"yes\"", "1", "0.0");
            case "t": return pick(rnd, "12", "-128", "127", "128", "\"-12\"", "\" 7 \"", "1.0", "\"+5\"");
            case "s": return pick(rnd, "1234", "-32768", "32768", "\"77\"", "2.5");
            case "i": return pick(rnd, Integer.toString(rnd.nextInt()), "1.9", "-1.9", "2147483647.4", "2147483647.0000000001",
                    "1e3", "\" 12 \"", "\"1.0\"", "\"\uFF11\uFF12\"", "2147483648", "-2147483648");
            case "l": return pick(rnd, Long.toString(rnd.nextLong()), "9223372036854775807", "9223372036854775808",
                    "9223372036854775808.0", "-9.3e18", "1.9e2", "\"-99\"");
            case "f": return pick(rnd, Float.toString(rnd.nextFloat() * 1000 - 500), "0.1", "1e39", "1e-50", "3", "\"NaN\"",
                    "\"1.5f\"", "\" -2.25 \"", "\"0x1p3\"", "\"inf\"", "16777217");
            case "d": return pick(rnd, Double.toString(rnd.nextGaussian() * 1e6), "1e400", "-0.0", "\"Infinity\"", "\"1e-400\"",
                    "123456789012345678901234567890", "0.30000000000000004");
            case "dec": return pick(rnd, "1.0005", "-1.0005", "1234567.1234", "12345678.9", "\"1E2\"", "1e-99", "1e999",
                    "\" 3.14159 \"", "0.0005", String.format("%.4f", rnd.nextDouble() * 1e6));
            case "dec38": return pick(rnd, "12345678901234567890.123456789012345678901", "-0.0000000000000000005",
                    "99999999999999999999.9999999999999999995", "1E+19", "1");
            case "str": return pick(rnd, "\"abc\"", "\"tab\\there\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud83d\"", "\"é漢字\"",
                    "1.50", "1e2", "-0", "true", "\"raw\u0001ctl\"", "\"\\u0000\"", "\"\\/slash\"", "{\"a\":[1,2]}");
            case "bin": return pick(rnd, "\"AQID\"", "\"QR==\"", "\"QQ\"", "\"QQ==QQ==\"", "\" AQID\"", "\"A\\u0051ID\"", "\"\"",
                    "\"@@@@\"", "12");
            case "dt": return pick(rnd, "\"2024-02-29\"", "\"2023-02-29\"", "\"1970-01-01\"", "\"+12345-01-01\"", "\"-0001-12-31\"",
                    "\" 2024-01-01\"", "20240101");
            case "tm": return pick(rnd, "\"12:34:56\"", "\"12:34:56.789\"", "\"23:59:59.999999999\"", "\"24:00:00\"", "\"12:34\"",
                    "\"12:34:56.\"");
            case "r": return pick(rnd, "{}", "{\"x\":1,\"x\":2}", "{\"x\":1,\"x\":2,\"y\":\"a\"}", "[{\"x\":1}]", "5",
                    "{\"y\":\"a\",\"q\":{\"x\":[1]},\"x\":\"7\"}", "{\"x\":1.5,\"y\":2}", "{\"x\":{\"x\":1},\"y\":\"b\"}",
                    "{\"X\":1}", "{\"x\":3,\"y\":\"c\",\"z\":\"2021-02-30 00:00:00\"}", "{\"z\":null,\"x\":9}");
            case "ts3", "ts6", "ts9", "ltz": {
                boolean ltz = FIELDS[field].equals("ltz");
                String date = pick(rnd, "2024-01-31", "2021-02-30", "1969-12-31", "2020-01-01", "9999-12-31");
                String time = pick(rnd, "00:00:00", "23:59:59", "24:00:00", "12:30", "12:30:45.5", "12:30:45.123456",
                        FIELDS[field].equals("ts9") ? "12:30:45.123456789" : "12:30:45.000001", "12:30:45.");
                String sep = rnd.nextInt(6) == 0 ? (iso ? " " : "T") : (iso ? "T" : " ");
                if (rnd.nextInt(30) == 0) {
                    sep = "t";
                }
                String zone = ltz ? (rnd.nextInt(8) == 0 ? "" : "Z") : (rnd.nextInt(20) == 0 ? "Z" : "");
                return "\"" + date + sep + time + zone + "\"";
            }
            default: throw new IllegalStateException(FIELDS[field]);
        }
    }

    static int indexOf(String field) {
        return java.util.Arrays.asList(FIELDS).indexOf(field);
    }

    static String pick(Random rnd, String... options) {
        return options[rnd.nextInt(options.length)];
    }
}
