package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes {@link NativeBatch} records as Arrow IPC streams (written and read in Go). Batches
 * are immutable, so copies share the Go batch: a chained consumer reads the producer's batch.
 */
public final class NativeBatchSerializer extends TypeSerializer<NativeBatch> {
    private static final long serialVersionUID = 1L;

    /** Batches read back from the network in this JVM (tests use it to prove a network edge). */
    public static final java.util.concurrent.atomic.AtomicLong DESERIALIZED = new java.util.concurrent.atomic.AtomicLong();

    /** The one instance (the serializer has no configuration). */
    public static final NativeBatchSerializer INSTANCE = new NativeBatchSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<NativeBatch> duplicate() {
        return this;
    }

    @Override
    public NativeBatch createInstance() {
        return new NativeBatch(0, 0, false);
    }

    @Override
    public NativeBatch copy(NativeBatch from) {
        return from;
    }

    @Override
    public NativeBatch copy(NativeBatch from, NativeBatch reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(NativeBatch record, DataOutputView target) throws IOException {
        byte[] ipc = NativeLib.batchToIpc(record.handle());
        target.writeInt(record.rows());
        target.writeInt(ipc.length);
        target.write(ipc);
    }

    @Override
    public NativeBatch deserialize(DataInputView source) throws IOException {
        int rows = source.readInt();
        byte[] ipc = new byte[source.readInt()];
        source.readFully(ipc);
        DESERIALIZED.incrementAndGet();
        return new NativeBatch(NativeLib.batchFromIpc(ipc), rows, true);
    }

    @Override
    public NativeBatch deserialize(NativeBatch reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.writeInt(source.readInt());
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof NativeBatchSerializer;
    }

    @Override
    public int hashCode() {
        return NativeBatchSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<NativeBatch> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot: it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<NativeBatch> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
