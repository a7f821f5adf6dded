package io.sluice.sinks;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

import java.io.IOException;

/**
 * Flink's file sink writes Parquet part files through this factory: Go encodes the native
 * batches it receives as Parquet (Flink's writer conventions) and hands back the bytes, which
 * go to the part file's stream. Flink keeps the part file's lifecycle (in-progress, pending,
 * committed on checkpoints) and the rolling policy.
 */
public final class NativeParquetWriterFactory implements BulkWriter.Factory<NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final byte[] sinkJson;

    /** @param sinkJson the island JSON of the sink node (row type, table options) */
    public NativeParquetWriterFactory(byte[] sinkJson) {
        this.sinkJson = sinkJson;
    }

    @Override
    public BulkWriter<NativeBatch> create(FSDataOutputStream out) throws IOException {
        NativeLib.ensureLoaded();
        // Flink's writer stores timestamps as instants of the JVM's default zone (unless utc-timezone).
        java.time.ZoneId zone = java.util.TimeZone.getDefault().toZoneId();
        boolean fixed = zone.getRules().isFixedOffset();
        int offset = fixed ? zone.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() : 0;
        return new Writer(NativeLib.parquetWriterOpen(sinkJson, offset, fixed), out);
    }

    private static final class Writer implements BulkWriter<NativeBatch> {
        private long handle;
        private final FSDataOutputStream out;

        Writer(long handle, FSDataOutputStream out) {
            this.handle = handle;
            this.out = out;
        }

        @Override
        public void addElement(NativeBatch batch) throws IOException {
            try {
                out.write(NativeLib.parquetWriterWrite(handle, batch.handle()));
            } finally {
                if (batch.owned()) {
                    batch.release();
                }
            }
        }

        @Override
        public void flush() {
            // As Flink's ParquetBulkWriter: a Parquet file cannot be flushed before it is finished.
        }

        @Override
        public void finish() throws IOException {
            try {
                out.write(NativeLib.parquetWriterFinish(handle));
            } finally {
                NativeLib.close(handle);
                handle = 0;
            }
        }
    }
}
