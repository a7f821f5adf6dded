package io.sluice.runtime;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** The type information of {@link NativeBatch} records. */
public final class NativeBatchTypeInfo extends TypeInformation<NativeBatch> {
    private static final long serialVersionUID = 1L;

    /** Batches serialized as uncompressed Arrow IPC. */
    public static final NativeBatchTypeInfo INSTANCE = new NativeBatchTypeInfo(false);

    /** Batches serialized as Arrow IPC with LZ4-frame compressed buffers. */
    public static final NativeBatchTypeInfo LZ4 = new NativeBatchTypeInfo(true);

    private final boolean lz4;

    private NativeBatchTypeInfo(boolean lz4) {
        this.lz4 = lz4;
    }

    /** The type information for the exchange compression setting ("none" or "lz4"). */
    public static NativeBatchTypeInfo forCompression(String compression) {
        switch (compression.toLowerCase(java.util.Locale.ROOT)) {
            case "none":
                return INSTANCE;
            case "lz4":
                return LZ4;
            default:
                throw new IllegalArgumentException(
                        "sluice.exchange.compression must be 'none' or 'lz4', got '" + compression + "'");
        }
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<NativeBatch> getTypeClass() {
        return NativeBatch.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<NativeBatch> createSerializer(SerializerConfig config) {
        return lz4 ? NativeBatchSerializer.LZ4 : NativeBatchSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return lz4 ? "NativeBatch(lz4)" : "NativeBatch";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof NativeBatchTypeInfo && ((NativeBatchTypeInfo) obj).lz4 == lz4;
    }

    @Override
    public int hashCode() {
        return NativeBatchTypeInfo.class.hashCode() + (lz4 ? 1 : 0);
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof NativeBatchTypeInfo;
    }
}
