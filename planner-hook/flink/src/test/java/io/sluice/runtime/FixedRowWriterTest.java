package io.sluice.runtime;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.UpdatableRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The direct writer produces RowDataSerializer#toBinaryRow's bytes, padding and nulls included, from
 * a GenericRowData and from any other RowData.
 */
class FixedRowWriterTest {
    static final LogicalType[] TYPES = {
        new BooleanType(), new TinyIntType(), new SmallIntType(), new IntType(), new BigIntType(), new FloatType(),
        new DoubleType(), new DateType(), new TimeType(0), new TimestampType(3), new LocalZonedTimestampType(3),
        new DecimalType(18, 4), new DecimalType(5, 0)
    };

    static Object value(LogicalType t, Random rnd) {
        if (rnd.nextInt(5) == 0) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN: return rnd.nextBoolean();
            case TINYINT: return (byte) rnd.nextInt();
            case SMALLINT: return (short) rnd.nextInt();
            case INTEGER: case DATE: return rnd.nextInt();
            case TIME_WITHOUT_TIME_ZONE: return rnd.nextInt(86_400_000);
            case BIGINT: return rnd.nextLong();
            case FLOAT: return rnd.nextBoolean() ? Float.NaN : -rnd.nextFloat();
            case DOUBLE: return rnd.nextBoolean() ? -0.0 : rnd.nextGaussian();
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                long unscaled = rnd.nextLong() % (long) Math.pow(10, d.getPrecision());
                return DecimalData.fromBigDecimal(BigDecimal.valueOf(unscaled, d.getScale()), d.getPrecision(), d.getScale());
            }
            default: return TimestampData.fromEpochMillis(rnd.nextLong() % 253_402_300_799_000L);
        }
    }

    @Test
    void writesToBinaryRowBytes() {
        for (int arity : new int[] {1, 5, TYPES.length, 60, 70}) {
            LogicalType[] types = new LogicalType[arity];
            for (int i = 0; i < arity; i++) {
                types[i] = TYPES[i % TYPES.length];
            }
            RowType type = RowType.of(types);
            FixedRowWriter writer = FixedRowWriter.of(type);
            RowDataSerializer serializer = new RowDataSerializer(type);
            Random rnd = new Random(arity);
            ByteBuffer buf = ByteBuffer.allocateDirect(writer.size() * 2).order(ByteOrder.nativeOrder());
            for (int r = 0; r < 300; r++) {
                GenericRowData row = new GenericRowData(RowKind.fromByteValue((byte) rnd.nextInt(4)), arity);
                for (int i = 0; i < arity; i++) {
                    row.setField(i, value(types[i], rnd));
                }
                BinaryRowData want = serializer.toBinaryRow(row);
                byte[] expected = new byte[want.getSizeInBytes()];
                want.getSegments()[0].get(want.getOffset(), expected);
                // A GenericRowData is read through its field objects, any other RowData through its
                // getters (UpdatableRowData delegates them): both must give the same bytes.
                for (RowData input : new RowData[] {row, new UpdatableRowData(row, arity)}) {
                    // Dirty the buffer first: every byte of the row must be written.
                    for (int b = 0; b < writer.size(); b++) {
                        buf.put(8 + b, (byte) 0x5A);
                    }
                    writer.write(input, buf, 8);
                    byte[] got = new byte[writer.size()];
                    buf.get(8, got);
                    int row0 = r;
                    String kind = input.getClass().getSimpleName();
                    assertArrayEquals(expected, got, () -> kind + " arity " + arity + " row " + row0 + ": " + Arrays.toString(got));
                }
            }
        }
        assertNull(FixedRowWriter.of(RowType.of(new IntType(), new VarCharType(5))), "strings need the general path");
        assertNull(FixedRowWriter.of(RowType.of(new DecimalType(19, 2))), "wide decimals need the general path");
    }
}
