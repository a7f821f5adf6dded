package io.sluice;

import io.sluice.jni.NativeLib;
import io.sluice.testing.ValueRecords;
import io.sluice.testing.ValueRows;

import org.apache.flink.formats.avro.AvroRowDataDeserializationSchema;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.formats.avro.AvroFormatOptions.AvroEncoding;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The avro format's native decoding (sources/avroformat, through {@link NativeLib#valueRows})
 * against Flink's own deserializer (AvroRowDataDeserializationSchema of flink-avro 2.1.1): records
 * Flink's serializer wrote from random rows (extreme values, NULLs, decimals at their precision's
 * edge), a fifth of them then damaged (a byte changed, the record cut or lengthened), under both
 * timestamp mappings, in streams of five records (Flink's deserializer reads bytes a record
 * leaves over into the next one). Every record decoded natively must give the row Flink's
 * deserializer gives it at that place in the stream, byte for byte; a record left to Flink is
 * Flink's to decode (or fail on).
 */
class AvroFormatDifferentialTest {
    static final String ROW_TYPE = "ROW<`b` BOOLEAN, `t` TINYINT, `s` SMALLINT, `i` INT, `l` BIGINT NOT NULL, `f` FLOAT,"
            + " `d` DOUBLE, `dec` DECIMAL(10, 3), `dec38` DECIMAL(38, 18), `str` STRING, `bin` BYTES, `dt` DATE,"
            + " `tm` TIME(3), `ts3` TIMESTAMP(3)%s> NOT NULL"; // a table's physical row is NOT NULL: no union around the record

    @ParameterizedTest(name = "legacy timestamps: {0}")
    @ValueSource(booleans = {true, false})
    void nativeDecodingIsFlinks(boolean legacy) throws Exception {
        NativeLib.ensureLoaded();
        String rowTypeText = String.format(ROW_TYPE, legacy ? "" : ", `ltz` TIMESTAMP_LTZ(3)");
        RowType rowType = (RowType) LogicalTypeParser.parse(rowTypeText, AvroFormatDifferentialTest.class.getClassLoader());
        AvroRowDataSerializationSchema writer = new AvroRowDataSerializationSchema(rowType, AvroEncoding.BINARY, legacy);
        writer.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(legacy ? 5 : 6);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 4000; r++) {
            GenericRowData row = JsonEncodeDifferentialTest.row(rnd);
            GenericRowData avroRow = new GenericRowData(rowType.getFieldCount());
            for (int i = 0; i < 14; i++) {
                avroRow.setField(i, i == 13 ? row.getField(13) : row.getField(i)); // b .. ts3: the json test's first fields
            }
            if (avroRow.getField(4) == null) {
                avroRow.setField(4, rnd.nextLong()); // l is NOT NULL
            }
            if (!legacy) {
                avroRow.setField(14, rnd.nextInt(6) == 0 ? null : TimestampData.fromEpochMillis(rnd.nextLong() >> 20));
            }
            if (rnd.nextInt(10) == 0) {
                avroRow.setField(9, StringData.fromString("é漢😀 " + rnd.nextInt()));
            }
            byte[] rec = writer.serialize(avroRow);
            if (rnd.nextInt(5) == 0) {
                rec = damage(rec, rnd);
            }
            records.add(rec);
        }
        byte[] options = ("format=avro\navro.timestamp_mapping.legacy=" + legacy).getBytes(StandardCharsets.UTF_8);
        // Groups of five records, each a stream of its own on both sides: Flink's deserializer
        // carries bytes a record leaves over into the next record, and so must the comparison.
        int natively = 0;
        for (int g = 0; g < records.size(); g += 5) {
            List<byte[]> group = records.subList(g, Math.min(records.size(), g + 5));
            AvroRowDataDeserializationSchema flink =
                    new AvroRowDataDeserializationSchema(rowType, InternalTypeInfo.of(rowType), AvroEncoding.BINARY, legacy);
            flink.open(null);
            ValueRows natives = ValueRows.decode(rowTypeText.getBytes(StandardCharsets.UTF_8), options, group);
            int[] status = natives.status();
            int n = status.length;
            int rows = natives.rows();
            int row = 0;
            boolean failed = false;
            for (int r = 0; r < n; r++) {
                byte[] rec = group.get(r);
                RowData flinkRow = null;
                Exception flinkError = null;
                if (!failed) {
                    try {
                        flinkRow = flink.deserialize(rec);
                    } catch (Exception e) {
                        flinkError = e;
                        failed = true; // a job ends here; the group's later records mean nothing
                    }
                }
                if (status[r] < 0) {
                    continue;
                }
                if (failed && flinkError == null) {
                    row++; // after a failure: nothing to compare with
                    continue;
                }
                if (flinkError != null) {
                    fail("decoded natively, but Flink fails on " + Arrays.toString(rec) + ": " + flinkError);
                }
                assertNotNull(flinkRow, () -> "decoded natively, but Flink emits no row for " + Arrays.toString(rec));
                BinaryRowData want = serializer.toBinaryRow(flinkRow);
                byte[] wantBytes = new byte[want.getSizeInBytes()];
                want.getSegments()[0].get(want.getOffset(), wantBytes, 0, wantBytes.length);
                byte[] mine = natives.row(row);
                RowData shown = flinkRow;
                assertArrayEquals(wantBytes, mine, () -> "the row of " + Arrays.toString(rec) + ": Flink " + shown);
                row++;
                natively++;
            }
            assertEquals(rows, row, "rows left over");
        }
        int decoded = natively;
        assertTrue(decoded > records.size() / 2, () -> "only " + decoded + " of " + records.size() + " records decoded natively");
    }

    /**
     * The avro format's native encoding (sinks/avroformat, through {@link NativeLib#valueRecords})
     * against Flink's AvroRowDataSerializationSchema on random rows, under both timestamp
     * mappings: byte for byte.
     */
    @ParameterizedTest(name = "legacy timestamps: {0}")
    @ValueSource(booleans = {true, false})
    void nativeEncodingIsFlinks(boolean legacy) throws Exception {
        NativeLib.ensureLoaded();
        String rowTypeText = String.format(ROW_TYPE, legacy ? "" : ", `ltz` TIMESTAMP_LTZ(3)");
        RowType rowType = (RowType) LogicalTypeParser.parse(rowTypeText, AvroFormatDifferentialTest.class.getClassLoader());
        AvroRowDataSerializationSchema flink = new AvroRowDataSerializationSchema(rowType, AvroEncoding.BINARY, legacy);
        flink.open(null);
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        Random rnd = new Random(legacy ? 15 : 16);
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r < 4000; r++) {
            GenericRowData row = JsonEncodeDifferentialTest.row(rnd);
            GenericRowData avroRow = new GenericRowData(rowType.getFieldCount());
            for (int i = 0; i < 14; i++) {
                avroRow.setField(i, row.getField(i));
            }
            if (avroRow.getField(4) == null) {
                avroRow.setField(4, rnd.nextLong());
            }
            if (!legacy) {
                avroRow.setField(14, rnd.nextInt(6) == 0 ? null : TimestampData.fromEpochMillis(rnd.nextLong() >> 20));
            }
            if (rnd.nextInt(10) == 0) {
                avroRow.setField(9, rnd.nextBoolean() ? StringData.fromString("é漢😀 " + rnd.nextInt())
                        : StringData.fromBytes(new byte[] {'a', (byte) 0xff, (byte) 0xed, (byte) 0xa0, (byte) 0x80}));
            }
            rows.add(avroRow);
        }
        byte[] options = ("format=avro\navro.timestamp_mapping.legacy=" + legacy).getBytes(StandardCharsets.UTF_8);
        byte[] out = ValueRecords.encode(rowTypeText.getBytes(StandardCharsets.UTF_8), options, rows, serializer);
        assertEquals(rows.size(), io.sluice.sinks.kafka.RecordValues.count(out));
        for (int r = 0; r < rows.size(); r++) {
            int k = r;
            assertArrayEquals(flink.serialize(rows.get(r)), io.sluice.sinks.kafka.RecordValues.value(out, r), () -> "row " + rows.get(k));
        }
    }

    /** A record damaged: a byte changed, the record cut or lengthened, or a byte of 0x7f/0xff put in. */
    static byte[] damage(byte[] rec, Random rnd) {
        switch (rnd.nextInt(4)) {
            case 0: {
                byte[] d = rec.clone();
                d[rnd.nextInt(d.length)] = (byte) rnd.nextInt(256);
                return d;
            }
            case 1:
                return Arrays.copyOf(rec, rnd.nextInt(rec.length));
            case 2: {
                byte[] d = Arrays.copyOf(rec, rec.length + 1 + rnd.nextInt(4));
                for (int i = rec.length; i < d.length; i++) {
                    d[i] = (byte) rnd.nextInt(256);
                }
                return d;
            }
            default: {
                byte[] d = rec.clone();
                d[rnd.nextInt(d.length)] = rnd.nextBoolean() ? (byte) 0x7f : (byte) 0xff;
                return d;
            }
        }
    }
}
