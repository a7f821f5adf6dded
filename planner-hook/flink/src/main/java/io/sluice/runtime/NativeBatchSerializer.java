package io.sluice.runtime;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.types.StringValue;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes {@link NativeBatch} records as Arrow IPC streams (written and read in Go), with
 * their buffers LZ4-frame compressed when configured (the reader detects compression). Batches
 * are immutable, so copies share the Go batch: a chained consumer reads the producer's batch.
 */
public final class NativeBatchSerializer extends TypeSerializer<NativeBatch> {
    private static final long serialVersionUID = 1L;

    /** Batches read back from the network in this JVM (tests use it to prove a network edge). */
    public static final java.util.concurrent.atomic.AtomicLong DESERIALIZED = new java.util.concurrent.atomic.AtomicLong();

    /** The serializer that writes uncompressed IPC. */
    public static final NativeBatchSerializer INSTANCE = new NativeBatchSerializer(false);

    /** The serializer that writes IPC with LZ4-frame compressed buffers. */
    public static final NativeBatchSerializer LZ4 = new NativeBatchSerializer(true);

    private final boolean lz4;

    private NativeBatchSerializer(boolean lz4) {
        this.lz4 = lz4;
    }

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
        byte[] ipc = NativeLib.batchToIpc(record.handle(), lz4);
        target.writeInt(record.rows());
        target.writeInt(ipc.length);
        target.write(ipc);
        target.writeBoolean(record.partition() != null);
        if (record.partition() != null) {
            // StringValue's encoding has no 64 KB limit (writeUTF has), as Flink's StringSerializer.
            StringValue.writeString(record.partition(), target);
        }
    }

    @Override
    public NativeBatch deserialize(DataInputView source) throws IOException {
        int rows = source.readInt();
        byte[] ipc = new byte[source.readInt()];
        source.readFully(ipc);
        String partition = source.readBoolean() ? StringValue.readString(source) : null;
        DESERIALIZED.incrementAndGet();
        return new NativeBatch(NativeLib.batchFromIpc(ipc), rows, true, partition);
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
        boolean partitioned = source.readBoolean();
        target.writeBoolean(partitioned);
        if (partitioned) {
            StringValue.copyString(source, target);
        }
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof NativeBatchSerializer && ((NativeBatchSerializer) obj).lz4 == lz4;
    }

    @Override
    public int hashCode() {
        return NativeBatchSerializer.class.hashCode() + (lz4 ? 1 : 0);
    }

    @Override
    public TypeSerializerSnapshot<NativeBatch> snapshotConfiguration() {
        return new Snapshot();
    }

    /**
     * The serializer's snapshot. Native batches only cross network edges and are never kept in
     * state, so the compression (a writer setting) is not part of it.
     */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<NativeBatch> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
