package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRecords;
import io.sluice.testing.ValueRows;
import io.sluice.sinks.kafka.RecordValues;

import org.apache.flink.formats.raw.RawFormatDeserializationSchema;
import org.apache.flink.formats.raw.RawFormatSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The raw format's native decoding and encoding (sources/rawformat and sinks/rawformat, through
 * {@link NativeLib#valueRows} and {@link NativeLib#valueRecords}) against Flink's own
 * (RawFormatDeserializationSchema and RawFormatSerializationSchema of flink-table-runtime 2.1.1),
 * for every type the format takes natively, in both byte orders: random values of random
 * lengths, every record decoded natively giving Flink's row byte for byte, every record left
 * to Flink being one Flink fails on or cannot tell from a null value; and every row encoded as
 * Flink encodes it, NULL fields as records without a value.
 */
class RawFormatDifferentialTest {
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({
        "STRING, big-endian", "VARBINARY(100), big-endian", "BOOLEAN, big-endian", "TINYINT, big-endian",
        "SMALLINT, big-endian", "SMALLINT, little-endian", "INT, big-endian", "INT, little-endian",
        "BIGINT, big-endian", "BIGINT, little-endian", "FLOAT, big-endian", "FLOAT, little-endian",
        "DOUBLE, big-endian", "DOUBLE, little-endian", "CHAR(3), little-endian"})
    void nativeRawFormatIsFlinks(String type, String endianness) throws Exception {
        NativeLib.ensureLoaded();
        String rowTypeText = "ROW<`v` " + type + ">";
        RowType rowType = (RowType) LogicalTypeParser.parse(rowTypeText, RawFormatDifferentialTest.class.getClassLoader());
        LogicalType field = rowType.getTypeAt(0);
        boolean bigEndian = endianness.equals("big-endian");
        byte[] options = ("format=raw\nraw.endianness=" + endianness + "\nraw.charset=UTF-8").getBytes(StandardCharsets.UTF_8);
        byte[] typeBytes = rowTypeText.getBytes(StandardCharsets.UTF_8);
        RawFormatDeserializationSchema flinkIn =
                new RawFormatDeserializationSchema(field, InternalTypeInfo.of(rowType), "UTF-8", bigEndian);
        flinkIn.open(null);
        RawFormatSerializationSchema flinkOut = new RawFormatSerializationSchema(field, "UTF-8", bigEndian);
        flinkOut.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(type.hashCode() * 31L + endianness.hashCode());

        // Decoding: records of random lengths around the type's width.
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 2000; r++) {
            byte[] rec = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(10) : width(field, rnd)];
            rnd.nextBytes(rec);
            records.add(rec);
        }
        ValueRows natives = ValueRows.decode(typeBytes, options, records);
        int[] status = natives.status();
        int n = status.length;
        int rows = natives.rows();
        int row = 0;
        int natively = 0;
        for (int r = 0; r < n; r++) {
            byte[] rec = records.get(r);
            if (status[r] < 0) {
                // Left to Flink: a value Flink refuses, or one that may have been a null value.
                if (rec.length > 0) {
                    assertThrows(Exception.class, () -> flinkIn.deserialize(rec), () -> type + ": record "
                            + Arrays.toString(rec) + " left to Flink, which decodes it");
                }
                continue;
            }
            natively++;
            assertEquals(1, status[r]);
            BinaryRowData want = serializer.toBinaryRow(flinkIn.deserialize(rec));
            byte[] wantBytes = new byte[want.getSizeInBytes()];
            want.getSegments()[0].get(want.getOffset(), wantBytes, 0, wantBytes.length);
            byte[] mine = natives.row(row);
            assertArrayEquals(wantBytes, mine, () -> type + ": the row of " + Arrays.toString(rec));
            row++;
        }
        assertEquals(rows, row, "rows left over");
        int decoded = natively;
        assertTrue(decoded > n * 3 / 4, () -> type + ": only " + decoded + " of " + n + " records decoded natively");

        // Encoding: the rows Flink decoded, and NULL fields.
        List<RowData> values = new ArrayList<>();
        for (byte[] rec : records) {
            if (rec.length == 0 || rnd.nextInt(8) == 0) {
                values.add(GenericRowData.of((Object) null));
                continue;
            }
            try {
                values.add(flinkIn.deserialize(rec));
            } catch (Exception e) {
                // a wrong length for the type
            }
        }
        byte[] encoded = ValueRecords.encode(typeBytes, options, values, serializer);
        assertEquals(values.size(), RecordValues.count(encoded));
        int nulls = 0;
        for (int r = 0; r < values.size(); r++) {
            byte[] want = flinkOut.serialize(values.get(r));
            byte[] got = RecordValues.value(encoded, r);
            if (want == null) {
                nulls++;
                assertNull(got, "a NULL field's record has a value");
            } else {
                int k = r;
                assertArrayEquals(want, got, () -> type + ": the record of " + values.get(k));
            }
        }
        assertTrue(nulls > 0 && nulls < values.size(), type + ": " + nulls + " NULL fields of " + values.size());
    }

    /** A plausible length: the type's width, or 0 to 8 bytes for strings and bytes. */
    static int width(LogicalType t, Random rnd) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INTEGER:
            case FLOAT:
                return 4;
            case BIGINT:
            case DOUBLE:
                return 8;
            default:
                return 1 + rnd.nextInt(8);
        }
    }

    static byte[] concat(List<byte[]> records) {
        ByteArrayOutputStream values = new ByteArrayOutputStream();
        for (byte[] r : records) {
            values.writeBytes(r);
        }
        return values.toByteArray();
    }

    static byte[] starts(List<byte[]> records) {
        ByteBuffer starts = ByteBuffer.allocate(4 * (records.size() + 1)).order(ByteOrder.LITTLE_ENDIAN);
        int at = 0;
        starts.putInt(0);
        for (byte[] r : records) {
            at += r.length;
            starts.putInt(at);
        }
        return starts.array();
    }
}
