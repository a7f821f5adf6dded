package io.sluice.sources;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.SingletonResultIterator;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Flink's FileSource reads Parquet splits through this format: Go opens the split (the row
 * groups whose midpoint lies in it), reads the table's projected columns with Flink's type
 * conversions and returns each batch as a {@link NativeBatch}. The position of a batch is the
 * number of the split's rows emitted up to and including it, as Flink's Parquet reader counts,
 * so a restore skips exactly the rows already emitted.
 */
public final class NativeParquetFormat implements BulkFormat<NativeBatch, FileSourceSplit> {
    private static final long serialVersionUID = 1L;

    /** Splits restored at a position inside them in this JVM (tests use it to prove restores). */
    public static final java.util.concurrent.atomic.AtomicLong SPLITS_RESTORED_MID_WAY =
            new java.util.concurrent.atomic.AtomicLong();

    private final byte[] scanJson;

    /** @param scanJson the island JSON of the scan node (schema, table options, runtime options) */
    public NativeParquetFormat(byte[] scanJson) {
        this.scanJson = scanJson;
    }

    @Override
    public Reader<NativeBatch> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return new SplitReader(split, 0);
    }

    @Override
    public Reader<NativeBatch> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        long skip = split.getReaderPosition().map(CheckpointedPosition::getRecordsAfterOffset).orElse(0L);
        if (skip > 0) {
            SPLITS_RESTORED_MID_WAY.incrementAndGet();
        }
        return new SplitReader(split, skip);
    }

    @Override
    public boolean isSplittable() {
        return true; // as Flink's Parquet format: splits are row groups by their midpoints
    }

    @Override
    public TypeInformation<NativeBatch> getProducedType() {
        return NativeBatchTypeInfo.INSTANCE;
    }

    /** The local file a split reads (the plan accepts only local paths). */
    static String localPath(Path path) throws IOException {
        URI uri = path.toUri();
        if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
            throw new IOException("Sluice reads Parquet from the local file system only, not " + path);
        }
        return uri.getPath();
    }

    private final class SplitReader implements Reader<NativeBatch> {
        private final long reader;
        private long emitted;

        SplitReader(FileSourceSplit split, long skip) throws IOException {
            NativeLib.ensureLoaded();
            // Flink's reader shows timestamps in this JVM's default zone (unless utc-timezone).
            java.time.ZoneId zone = java.util.TimeZone.getDefault().toZoneId();
            boolean fixed = zone.getRules().isFixedOffset();
            int offset = fixed ? zone.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() : 0;
            this.reader = NativeLib.parquetOpen(
                    scanJson, localPath(split.path()).getBytes(StandardCharsets.UTF_8), split.offset(), split.length(), skip,
                    offset, fixed);
            this.emitted = skip;
        }

        @Override
        public RecordIterator<NativeBatch> readBatch() {
            long batch = NativeLib.splitNext(reader);
            if (batch == 0) {
                return null;
            }
            int rows = NativeLib.batchRows(batch);
            emitted += rows;
            NativeBatch record = new NativeBatch(batch, rows, false);
            // The reader owns the batch: it is released once the record went downstream.
            SingletonResultIterator<NativeBatch> it = new SingletonResultIterator<>(record::release);
            it.set(record, CheckpointedPosition.NO_OFFSET, emitted);
            return it;
        }

        @Override
        public void close() {
            NativeLib.close(reader);
        }
    }
}
