package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRecords;
import io.sluice.sinks.kafka.RecordValues;

import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The csv format's native encoding (sinks/csvformat, through {@link NativeLib#valueRecords})
 * against Flink's own CsvRowDataSerializationSchema: random rows of every type the encoder takes,
 * with extreme values (NaN, infinities, 38-digit decimals, years past 9999 and before 0) and
 * strings that need quoting or not (delimiters, quotes, backslashes, blanks, control characters,
 * more than 24 chars, emoji, invalid UTF-8), under four option sets, must give Flink's records
 * byte for byte.
 */
class CsvEncodeDifferentialTest {
    static final String ROW_TYPE = JsonFormatDifferentialTest.FLAT_ROW_TYPE;
    static final int STR = java.util.Arrays.asList(JsonFormatDifferentialTest.FLAT_FIELDS).indexOf("str");

    @ParameterizedTest(name = "option set {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void nativeEncodingIsFlinks(int k) throws Exception {
        NativeLib.ensureLoaded();
        RowType rowType = (RowType) LogicalTypeParser.parse(ROW_TYPE, CsvEncodeDifferentialTest.class.getClassLoader());
        CsvRowDataSerializationSchema.Builder builder = new CsvRowDataSerializationSchema.Builder(rowType);
        String options;
        switch (k) {
            case 0:
                options = "format=csv";
                break;
            case 1:
                options = "format=csv\ncsv.field-delimiter=|\ncsv.quote-character='\ncsv.null-literal=NULL"
                        + "\ncsv.write-bigdecimal-in-scientific-notation=false";
                builder.setFieldDelimiter('|').setQuoteCharacter('\'').setNullLiteral("NULL");
                builder.setWriteBigDecimalInScientificNotation(false);
                break;
            case 2:
                options = "format=csv\ncsv.field-delimiter=\\t\ncsv.disable-quote-character=true";
                builder.setFieldDelimiter('\t').disableQuoteCharacter();
                break;
            default:
                // Set, the option's documented default: unset, Flink writes decimals plain.
                options = "format=csv\ncsv.write-bigdecimal-in-scientific-notation=true";
                builder.setWriteBigDecimalInScientificNotation(true);
        }
        CsvRowDataSerializationSchema flink = builder.build();
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(23 + k);
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r < 5000; r++) {
            GenericRowData row = JsonEncodeDifferentialTest.row(rnd);
            if (row.getField(STR) != null && rnd.nextBoolean()) {
                row.setField(STR, csvString(rnd));
            }
            rows.add(row);
        }
        byte[] out = ValueRecords.encode(ROW_TYPE, options, rows, serializer);
        assertEquals(rows.size(), RecordValues.count(out));
        for (int r = 0; r < rows.size(); r++) {
            // ISO-8859-1 keeps every byte: the records are compared exactly.
            String want = new String(flink.serialize(rows.get(r)), StandardCharsets.ISO_8859_1);
            String got = new String(RecordValues.value(out, r), StandardCharsets.ISO_8859_1);
            assertEquals(want, got, "row " + rows.get(r));
        }
    }

    /** A string of the characters CSV quoting turns on, any length up to 30 bytes, now and then invalid UTF-8. */
    static StringData csvString(Random rnd) {
        if (rnd.nextInt(10) == 0) {
            byte[][] bad = {{(byte) 0xff}, {'a', (byte) 0xc3}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90,
                (byte) 0x80, (byte) 0x80}, {(byte) 0xe2, (byte) 0x82, 'x'}};
            return StringData.fromBytes(bad[rnd.nextInt(bad.length)]);
        }
        StringBuilder b = new StringBuilder();
        for (int n = rnd.nextInt(30); n > 0; n--) {
            b.append(JsonFormatDifferentialTest.pick(rnd, "a", "Z", "0", "-", ",", "|", "\t", "\"", "'", "\\", " ", "#", "+", "=",
                    "é", "漢", "😀", "\n", "\r", "\u0001", "~", "}"));
        }
        return StringData.fromString(b.toString());
    }
}
