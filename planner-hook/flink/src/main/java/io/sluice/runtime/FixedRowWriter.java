package io.sluice.runtime;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
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
    // How a field's slot is filled, resolved once per writer so that the row loop switches on an int.
    private static final int BOOLEAN = 0;
    private static final int TINYINT = 1;
    private static final int SMALLINT = 2;
    private static final int INT = 3;
    private static final int BIGINT = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int DECIMAL = 7;
    private static final int TIMESTAMP = 8;

    private final int[] kinds;
    /** Precision of DECIMAL and timestamp fields, scale of DECIMAL fields. */
    private final int[] precisions;
    private final int[] scales;
    private final int nullBitsWords;
    private final int size;

    private FixedRowWriter(int[] kinds, int[] precisions, int[] scales) {
        this.kinds = kinds;
        this.precisions = precisions;
        this.scales = scales;
        int arity = kinds.length;
        this.nullBitsWords = (arity + 63 + 8) / 64;
        this.size = nullBitsWords * 8 + 8 * arity;
    }

    /** A writer for rows of the type, or null when a field has a variable-length layout. */
    static FixedRowWriter of(RowType type) {
        LogicalType[] types = type.getChildren().toArray(new LogicalType[0]);
        int[] kinds = new int[types.length];
        int[] precisions = new int[types.length];
        int[] scales = new int[types.length];
        for (int i = 0; i < types.length; i++) {
            LogicalType t = types[i];
            switch (t.getTypeRoot()) {
                case BOOLEAN:
                    kinds[i] = BOOLEAN;
                    break;
                case TINYINT:
                    kinds[i] = TINYINT;
                    break;
                case SMALLINT:
                    kinds[i] = SMALLINT;
                    break;
                case INTEGER: case DATE: case TIME_WITHOUT_TIME_ZONE: case INTERVAL_YEAR_MONTH:
                    kinds[i] = INT;
                    break;
                case BIGINT: case INTERVAL_DAY_TIME:
                    kinds[i] = BIGINT;
                    break;
                case FLOAT:
                    kinds[i] = FLOAT;
                    break;
                case DOUBLE:
                    kinds[i] = DOUBLE;
                    break;
                case DECIMAL:
                    kinds[i] = DECIMAL;
                    precisions[i] = ((DecimalType) t).getPrecision();
                    scales[i] = ((DecimalType) t).getScale();
                    if (precisions[i] > 18) {
                        return null;
                    }
                    break;
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    kinds[i] = TIMESTAMP;
                    precisions[i] = ((TimestampType) t).getPrecision();
                    if (precisions[i] > 3) {
                        return null;
                    }
                    break;
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    kinds[i] = TIMESTAMP;
                    precisions[i] = ((LocalZonedTimestampType) t).getPrecision();
                    if (precisions[i] > 3) {
                        return null;
                    }
                    break;
                default:
                    return null;
            }
        }
        return new FixedRowWriter(kinds, precisions, scales);
    }

    /** The size of every row in bytes. */
    int size() {
        return size;
    }

    /**
     * Writes row at offset pos of buf (which has room for {@link #size()} bytes). A GenericRowData
     * (what most row sources and Flink's copying chain produce) is read through its field objects,
     * one array load per field; any other RowData through its typed getters.
     */
    void write(RowData row, ByteBuffer buf, int pos) {
        GenericRowData generic = row instanceof GenericRowData g ? g : null;
        long word = row.getRowKind().toByteValue() & 0xFFL;
        int slots = pos + nullBitsWords * 8;
        int wordIndex = 0;
        for (int i = 0; i < kinds.length; i++) {
            int bit = i + 8;
            if (bit >>> 6 != wordIndex) {
                buf.putLong(pos + wordIndex * 8, word);
                wordIndex = bit >>> 6;
                word = 0;
            }
            int slot = slots + 8 * i;
            if (generic != null) {
                Object field = generic.getField(i);
                if (field == null) {
                    word |= 1L << (bit & 63);
                    buf.putLong(slot, 0L);
                } else {
                    buf.putLong(slot, slot(field, kinds[i]));
                }
            } else if (row.isNullAt(i)) {
                word |= 1L << (bit & 63);
                buf.putLong(slot, 0L);
            } else {
                buf.putLong(slot, slot(row, i));
            }
        }
        buf.putLong(pos + wordIndex * 8, word);
        for (int w = wordIndex + 1; w < nullBitsWords; w++) {
            buf.putLong(pos + w * 8, 0L);
        }
    }

    /** The slot of a non-null field object (GenericRowData's internal classes): its value in the low bytes. */
    private static long slot(Object field, int kind) {
        switch (kind) {
            case BIGINT:
                return (Long) field;
            case INT:
                return (Integer) field & 0xFFFFFFFFL;
            case TIMESTAMP:
                return ((TimestampData) field).getMillisecond();
            case DOUBLE:
                return Double.doubleToRawLongBits((Double) field);
            case FLOAT:
                return Float.floatToRawIntBits((Float) field) & 0xFFFFFFFFL;
            case BOOLEAN:
                return (Boolean) field ? 1L : 0L;
            case TINYINT:
                return (Byte) field & 0xFFL;
            case SMALLINT:
                return (Short) field & 0xFFFFL;
            case DECIMAL:
                return ((DecimalData) field).toUnscaledLong();
            default:
                throw new IllegalStateException("not a fixed-width kind: " + kind);
        }
    }

    /** The slot of a non-null field read through RowData's getters: its value in the low bytes, the rest zero (little-endian). */
    private long slot(RowData row, int i) {
        switch (kinds[i]) {
            case BIGINT:
                return row.getLong(i);
            case INT:
                return row.getInt(i) & 0xFFFFFFFFL;
            case TIMESTAMP:
                return row.getTimestamp(i, precisions[i]).getMillisecond();
            case DOUBLE:
                return Double.doubleToRawLongBits(row.getDouble(i));
            case FLOAT:
                return Float.floatToRawIntBits(row.getFloat(i)) & 0xFFFFFFFFL;
            case BOOLEAN:
                return row.getBoolean(i) ? 1L : 0L;
            case TINYINT:
                return row.getByte(i) & 0xFFL;
            case SMALLINT:
                return row.getShort(i) & 0xFFFFL;
            case DECIMAL:
                return row.getDecimal(i, precisions[i], scales[i]).toUnscaledLong();
            default:
                throw new IllegalStateException("not a fixed-width kind: " + kinds[i]);
        }
    }
}
