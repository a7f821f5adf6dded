package io.sluice.runtime;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** The type information of {@link NativeBatch} records. */
public final class NativeBatchTypeInfo extends TypeInformation<NativeBatch> {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final NativeBatchTypeInfo INSTANCE = new NativeBatchTypeInfo();

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
        return NativeBatchSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "NativeBatch";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof NativeBatchTypeInfo;
    }

    @Override
    public int hashCode() {
        return NativeBatchTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof NativeBatchTypeInfo;
    }
}
