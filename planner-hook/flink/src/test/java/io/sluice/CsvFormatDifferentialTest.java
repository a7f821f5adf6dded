package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRows;

import org.apache.flink.formats.csv.CsvRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The csv format's native decoding (sources/csvformat, through {@link NativeLib#valueRows})
 * against Flink's own deserializer (CsvRowDataDeserializationSchema of flink-csv 2.1.1) on random
 * records full of corner cases, under four option sets: every record the native decoder decodes
 * must give Flink's row byte for byte (as BinaryRowData); a record it leaves to Flink is Flink's
 * to decode (then nothing is compared), and most records must be decoded natively, or the test
 * tests little.
 */
class CsvFormatDifferentialTest {
    static final String[] FIELDS = {"b", "t", "s", "i", "l", "f", "d", "dec", "dec38", "str", "bin", "dt", "tm", "tm0", "ts3",
        "ts6", "ts9", "ltz"};
    static final String ROW_TYPE = "ROW<`b` BOOLEAN, `t` TINYINT, `s` SMALLINT, `i` INT, `l` BIGINT, `f` FLOAT, `d` DOUBLE,"
            + " `dec` DECIMAL(10, 3), `dec38` DECIMAL(38, 18), `str` STRING, `bin` BYTES, `dt` DATE, `tm` TIME(3), `tm0` TIME(0),"
            + " `ts3` TIMESTAMP(3), `ts6` TIMESTAMP(6), `ts9` TIMESTAMP(9), `ltz` TIMESTAMP_LTZ(3)>";

    /** An option set: the table's csv options, and the same on Flink's builder. */
    record Setup(String options, char delimiter, char quote, boolean noQuote, boolean comments, boolean ignoreErrors,
            String nullLiteral) {}

    static Setup setup(int k) {
        return switch (k) {
            case 0 -> new Setup("format=csv", ',', '"', false, false, false, null);
            case 1 -> new Setup("format=csv\ncsv.field-delimiter=|\ncsv.quote-character='\ncsv.null-literal=NULL", '|', '\'',
                    false, false, false, "NULL");
            case 2 -> new Setup("format=csv\ncsv.field-delimiter=\\t\ncsv.disable-quote-character=true\ncsv.allow-comments=true",
                    '\t', '"', true, true, false, null);
            default -> new Setup("format=csv\ncsv.ignore-parse-errors=true\ncsv.null-literal=", ',', '"', false, false, true, "");
        };
    }

    @ParameterizedTest(name = "option set {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void nativeDecodingIsFlinks(int k) throws Exception {
        NativeLib.ensureLoaded();
        Setup setup = setup(k);
        RowType rowType = (RowType) LogicalTypeParser.parse(ROW_TYPE, CsvFormatDifferentialTest.class.getClassLoader());
        CsvRowDataDeserializationSchema.Builder builder =
                new CsvRowDataDeserializationSchema.Builder(rowType, InternalTypeInfo.of(rowType))
                        .setFieldDelimiter(setup.delimiter()).setAllowComments(setup.comments())
                        .setIgnoreParseErrors(setup.ignoreErrors());
        if (setup.noQuote()) {
            builder.disableQuoteCharacter();
        } else {
            builder.setQuoteCharacter(setup.quote());
        }
        if (setup.nullLiteral() != null) {
            builder.setNullLiteral(setup.nullLiteral());
        }
        CsvRowDataDeserializationSchema flink = builder.build();
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(17 + k);
        int natively = 0;
        int total = 0;
        for (int round = 0; round < 20; round++) {
            List<byte[]> records = new ArrayList<>();
            for (int r = 0; r < 1000; r++) {
                records.add(record(rnd, setup).getBytes(StandardCharsets.UTF_8));
            }
            ValueRows natives = ValueRows.decode(ROW_TYPE, setup.options(), records);
            int[] status = natives.status();
            int n = status.length;
            int rows = natives.rows();
            int row = 0;
            for (int r = 0; r < n; r++) {
                total++;
                if (status[r] < 0) {
                    continue;
                }
                natively++;
                assertEquals(1, status[r]);
                String text = new String(records.get(r), StandardCharsets.UTF_8);
                RowData flinkRow;
                try {
                    flinkRow = flink.deserialize(records.get(r));
                } catch (Exception e) {
                    fail("decoded natively, but Flink fails on " + text + ": " + e);
                    return;
                }
                assertNotNull(flinkRow, () -> "decoded natively, but Flink emits no row for " + text);
                BinaryRowData binary = serializer.toBinaryRow(flinkRow);
                byte[] want = new byte[binary.getSizeInBytes()];
                binary.getSegments()[0].get(binary.getOffset(), want, 0, want.length);
                byte[] mine = natives.row(row);
                RowData shown = flinkRow;
                assertArrayEquals(want, mine, () -> "the row of " + text + ": Flink " + shown);
                row++;
            }
            assertEquals(rows, row, "rows left over");
        }
        int decoded = natively;
        int all = total;
        assertTrue(decoded > all / 2, () -> "only " + decoded + " of " + all + " records decoded natively");
    }

    /**
     * A random record: a third of them with corner cases in some fields, the others plain
     * (quoted now and then), and now and then a broken line: a trailing delimiter, a field too
     * many or too few, a line break, a comment mark, a leading blank, nothing, a byte order
     * mark, a truncated line.
     */
    static String record(Random rnd, Setup setup) {
        List<String> fields = new ArrayList<>();
        boolean corners = rnd.nextInt(3) == 0;
        for (int i = 0; i < FIELDS.length; i++) {
            String v = corners && rnd.nextInt(6) == 0 ? corner(rnd, i, setup) : plain(rnd, i);
            if (setup.noQuote() && !corners) {
                // Without quoting a plain value cannot hold the delimiter.
                v = v.replace(String.valueOf(setup.delimiter()), "");
            }
            if (!setup.noQuote() && (rnd.nextInt(5) == 0 || v.indexOf(setup.delimiter()) >= 0)) {
                String q = String.valueOf(setup.quote());
                v = q + v.replace(q, q + q) + q;
            }
            fields.add(v);
        }
        String line = String.join(String.valueOf(setup.delimiter()), fields);
        switch (rnd.nextInt(50)) {
            case 0: return line + setup.delimiter();
            case 1: return line + setup.delimiter() + "extra";
            case 2: return line.substring(0, line.lastIndexOf(setup.delimiter()));
            case 3: return line + "\n";
            case 4: return "#" + line;
            case 5: return " " + line;
            case 6: return "";
            case 7: return "\uFEFF" + line;
            case 8: return line.substring(0, rnd.nextInt(line.length()));
            default: return line;
        }
    }

    static String plain(Random rnd, int i) {
        switch (FIELDS[i]) {
            case "b": return Boolean.toString(rnd.nextBoolean());
            case "t": return Integer.toString(rnd.nextInt(256) - 128);
            case "s": return Integer.toString(rnd.nextInt(65536) - 32768);
            case "i": return Integer.toString(rnd.nextInt());
            case "l": return Long.toString(rnd.nextLong());
            case "f": return Float.toString((rnd.nextFloat() - 0.5f) * (float) Math.pow(10, rnd.nextInt(20) - 10));
            case "d": return Double.toString((rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(40) - 20));
            case "dec": return String.format(Locale.ROOT, "%.3f", (rnd.nextDouble() - 0.5) * 1e7);
            case "dec38": return (rnd.nextBoolean() ? "-" : "") + Math.abs(rnd.nextLong() % 100_000_000_000_000_000L) + "."
                    + String.format(Locale.ROOT, "%018d", Math.abs(rnd.nextLong() % 1_000_000_000_000_000_000L));
            case "str": {
                StringBuilder b = new StringBuilder();
                for (int k = rnd.nextInt(12); k > 0; k--) {
                    b.append(pick(rnd, "a", "Z", " ", "é", "漢", "😀", "0", "\"", "'", ",", "|", "\t", "#"));
                }
                return b.toString();
            }
            case "bin": {
                byte[] v = new byte[rnd.nextInt(9)];
                rnd.nextBytes(v);
                return Base64.getEncoder().encodeToString(v);
            }
            case "dt": return LocalDate.ofEpochDay(rnd.nextInt(40_000) - 10_000).toString();
            case "tm":
            case "tm0":
                return LocalTime.ofNanoOfDay(rnd.nextLong(86_400_000_000_000L)).format(DateTimeFormatter.ofPattern(
                        rnd.nextBoolean() ? "HH:mm:ss.SSS" : "HH:mm:ss"));
            default: {
                LocalDateTime t = LocalDateTime.ofEpochSecond(rnd.nextLong(4_000_000_000L) - 1_000_000_000L,
                        rnd.nextInt(1_000_000_000), ZoneOffset.UTC);
                int digits = switch (FIELDS[i]) {
                    case "ts6" -> 6;
                    case "ts9" -> 9;
                    default -> 3;
                };
                return t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss." + "S".repeat(digits)))
                        + (FIELDS[i].equals("ltz") ? "Z" : "");
            }
        }
    }

    static String corner(Random rnd, int field, Setup setup) {
        if (rnd.nextInt(8) == 0) {
            return pick(rnd, "", " ", "null", "NULL", "x", "0", "-0", "1.5", "1e3", "true");
        }
        switch (FIELDS[field]) {
            case "b": return pick(rnd, "TRUE", " true ", "yes", "1", "False");
            case "t": return pick(rnd, "-128", "127", "128", " 7 ", "+5", "1.0", "007");
            case "s": return pick(rnd, "-32768", "32768", "+77", "2.5");
            case "i": return pick(rnd, "2147483647", "2147483648", " -12 ", "1e3", "\uFF11\uFF12", "0x10", "+0");
            case "l": return pick(rnd, "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1.9e2", "-99");
            case "f": return pick(rnd, "0.1", "1e39", "1e-50", "NaN", "1.5f", " -2.25 ", "0x1p3", "inf", "16777217", "-Infinity");
            case "d": return pick(rnd, "1e400", "-0.0", "Infinity", "1e-400", "123456789012345678901234567890",
                    "0.30000000000000004", "1d", " 2 ");
            case "dec": return pick(rnd, "1.0005", "-1.0005", "1234567.1234", "12345678.9", "1E2", "1e-99", "1e999", " 3.14159 ",
                    "0.0005", "+1.5", ".5", "5.");
            case "dec38": return pick(rnd, "12345678901234567890.123456789012345678901", "-0.0000000000000000005",
                    "99999999999999999999.9999999999999999995", "1E+19", "1");
            case "str": return pick(rnd, "", " padded ", "é漢字😀", "a\"b", "''", "#x", "\\", "tab\there");
            case "bin": return pick(rnd, "AQID", "QR==", "QQ", "QQ==QQ==", " AQID", "AQID ", "", "@@@@", "QUJD\\n");
            case "dt": return pick(rnd, "2024-02-29", "2023-02-29", "1970-01-01", "2024-2-9", "0001-01-01", "1582-10-10",
                    " 2024-01-01", "2024-01-01 ", "+202-01-01", "1600-01-01", "9999-12-31", "2024-13-01", "2024-04-31");
            case "tm":
            case "tm0":
                return pick(rnd, "10:15", "10:15:30", "10:15:30.999999999", "24:00:00", "10:15:30.", " 10:15:30", "1:02:03",
                        "23:59:59.9999");
            default: {
                String z = FIELDS[field].equals("ltz") ? "Z" : "";
                return pick(rnd, "2024-01-01 10:15:00" + z, " 2024-01-01 10:15:00 " + z, "2024-01-01T10:15:00" + z,
                        "2024-01-01 10:15" + z, "2024-02-30 00:00:00" + z, "2024-01-01 10:15:00.123456789" + z,
                        "2024-01-01 10:15:00.1234567" + z, "2024-01-01 10:15:00", "2024-01-01 10:15:00Z",
                        "2024-01-01 10:15:00." + z);
            }
        }
    }

    static String pick(Random rnd, String... choices) {
        return choices[rnd.nextInt(choices.length)];
    }
}
