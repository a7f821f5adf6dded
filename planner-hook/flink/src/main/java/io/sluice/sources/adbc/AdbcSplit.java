package io.sluice.sources.adbc;

import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One split of an ADBC scan: the index of its query (one of the scan's partitions, or the only
 * query of an unpartitioned scan) and the rows of it already emitted, which a restored reader
 * skips (as Flink's JDBC source skips a split's emitted rows: a query without ORDER BY returns
 * the same rows in the same order only if the table did not change).
 */
public record AdbcSplit(int index, long emitted) implements SourceSplit {
    @Override
    public String splitId() {
        return Integer.toString(index);
    }

    /** Serializes splits: the index and the emitted rows. */
    static final class Serializer implements SimpleVersionedSerializer<AdbcSplit> {
        static final Serializer INSTANCE = new Serializer();

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(AdbcSplit split) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(12);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(split.index);
            out.writeLong(split.emitted);
            return bytes.toByteArray();
        }

        @Override
        public AdbcSplit deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1) {
                throw new IOException("ADBC split serialized in unknown version " + version);
            }
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            return new AdbcSplit(in.readInt(), in.readLong());
        }
    }

    /** Serializes the enumerator's unassigned splits. */
    static final class ListSerializer implements SimpleVersionedSerializer<Collection<AdbcSplit>> {
        static final ListSerializer INSTANCE = new ListSerializer();

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Collection<AdbcSplit> splits) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(4 + 12 * splits.size());
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(splits.size());
            for (AdbcSplit s : splits) {
                out.writeInt(s.index);
                out.writeLong(s.emitted);
            }
            return bytes.toByteArray();
        }

        @Override
        public Collection<AdbcSplit> deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1) {
                throw new IOException("ADBC splits serialized in unknown version " + version);
            }
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            int n = in.readInt();
            List<AdbcSplit> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(new AdbcSplit(in.readInt(), in.readLong()));
            }
            return out;
        }
    }
}
