package io.sluice.sinks.iceberg;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * A partition Go computed, as Iceberg's {@link PartitionData}: Go sends the values as JSON (null,
 * a number or a string per partition field; floats as their bits, decimals as the unscaled
 * value's digits, bytes in base64), made here into the Java values of the partition fields'
 * result types.
 */
final class PartitionValues {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PartitionValues() {}

    static PartitionData of(PartitionSpec spec, byte[] json) throws IOException {
        JsonNode values = MAPPER.readTree(json);
        Types.StructType type = spec.partitionType();
        PartitionData data = new PartitionData(type);
        for (int i = 0; i < type.fields().size(); i++) {
            JsonNode v = values.get(i);
            data.set(i, v == null || v.isNull() ? null : javaValue(type.fields().get(i).type(), v));
        }
        return data;
    }

    private static Object javaValue(Type type, JsonNode v) {
        switch (type.typeId()) {
            case INTEGER:
            case DATE:
                return (int) v.asLong();
            case LONG:
            case TIMESTAMP:
            case TIME:
                return v.asLong();
            case BOOLEAN:
                return v.asLong() != 0;
            case FLOAT:
                return Float.intBitsToFloat((int) v.asLong());
            case DOUBLE:
                return Double.longBitsToDouble(v.asLong());
            case DECIMAL:
                // The unscaled value's digits, at the column's scale.
                return new BigDecimal(new BigInteger(v.asText()), ((Types.DecimalType) type).scale());
            case STRING:
                return v.asText();
            case BINARY:
            case FIXED:
                return ByteBuffer.wrap(Base64.getDecoder().decode(v.asText()));
            default:
                throw new IllegalStateException("Sluice computed a partition value of type " + type);
        }
    }
}
