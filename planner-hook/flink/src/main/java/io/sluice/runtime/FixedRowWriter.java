package io.sluice.runtime;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

import java.nio.ByteBuffer;

/**
 * Writes rows whose fields are all fixed-width (numbers, booleans, dates, times, TIMESTAMP(p ≤
 * 3), DECIMAL(p ≤ 18)) as BinaryRowData bytes straight into a direct buffer: the bytes of
 * RowDataSerializer#toBinaryRow, without its boxing field getters and intermediate row.
 */
final class FixedRowWriter {
    private final LogicalType[] types;
    private final int nullBitsWords;
    private final int size;

    private FixedRowWriter(LogicalType[] types) {
        this.types = types;
        int arity = types.length;
        this.nullBitsWords = (arity + 63 + 8) / 64;
        this.size = nullBitsWords * 8 + 8 * arity;
    }

    /** A writer for rows of the type, or null when a field has a variable-length layout. */
    static FixedRowWriter of(RowType type) {
        LogicalType[] types = type.getChildren().toArray(new LogicalType[0]);
        for (LogicalType t : types) {
            switch (t.getTypeRoot()) {
                case BOOLEAN: case TINYINT: case SMALLINT: case INTEGER: case BIGINT: case FLOAT: case DOUBLE:
                case DATE: case TIME_WITHOUT_TIME_ZONE: case INTERVAL_YEAR_MONTH: case INTERVAL_DAY_TIME:
                    break;
                case DECIMAL:
                    if (((DecimalType) t).getPrecision() > 18) {
                        return null;
                    }
                    break;
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    if (((TimestampType) t).getPrecision() > 3) {
                        return null;
                    }
                    break;
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    if (((LocalZonedTimestampType) t).getPrecision() > 3) {
                        return null;
                    }
                    break;
                default:
                    return null;
            }
        }
        return new FixedRowWriter(types);
    }

    /** The size of every row in bytes. */
    int size() {
        return size;
    }

    /** Writes row at offset pos of buf (which has room for {@link #size()} bytes). */
    void write(RowData row, ByteBuffer buf, int pos) {
        long word = row.getRowKind().toByteValue() & 0xFFL;
        int slots = pos + nullBitsWords * 8;
        int wordIndex = 0;
        for (int i = 0; i < types.length; i++) {
            int bit = i + 8;
            if (bit / 64 != wordIndex) {
                buf.putLong(pos + wordIndex * 8, word);
                wordIndex = bit / 64;
                word = 0;
            }
            int slot = slots + 8 * i;
            if (row.isNullAt(i)) {
                word |= 1L << (bit % 64);
                buf.putLong(slot, 0L);
                continue;
            }
            buf.putLong(slot, value(row, i, types[i]));
        }
        buf.putLong(pos + wordIndex * 8, word);
        for (int w = wordIndex + 1; w < nullBitsWords; w++) {
            buf.putLong(pos + w * 8, 0L);
        }
    }

    /** The slot of a non-null field: its value in the low bytes, the rest zero (little-endian). */
    private static long value(RowData row, int i, LogicalType t) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return row.getBoolean(i) ? 1L : 0L;
            case TINYINT:
                return row.getByte(i) & 0xFFL;
            case SMALLINT:
                return row.getShort(i) & 0xFFFFL;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return row.getInt(i) & 0xFFFFFFFFL;
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return row.getLong(i);
            case FLOAT:
                return Float.floatToRawIntBits(row.getFloat(i)) & 0xFFFFFFFFL;
            case DOUBLE:
                return Double.doubleToRawLongBits(row.getDouble(i));
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                return row.getDecimal(i, d.getPrecision(), d.getScale()).toUnscaledLong();
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return row.getTimestamp(i, ((TimestampType) t).getPrecision()).getMillisecond();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return row.getTimestamp(i, ((LocalZonedTimestampType) t).getPrecision()).getMillisecond();
            default:
                throw new IllegalStateException("not a fixed-width type: " + t);
        }
    }
}
