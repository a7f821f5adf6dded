package io.sluice.sources.iceberg;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Files;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.flink.source.reader.ReaderFunction;
import org.apache.iceberg.flink.source.reader.RecordAndPosition;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.io.CloseableIterator;

import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the files of an Iceberg source split with Go: one native batch per record, positioned as
 * the connector positions rows (file offset within the split, rows of that file emitted), so a
 * restored split skips exactly the rows already emitted.
 */
public final class NativeIcebergReader implements ReaderFunction<NativeBatch> {
    private static final long serialVersionUID = 1L;

    /** Splits restored at a position inside them in this JVM (tests use it to prove restores). */
    public static final AtomicLong SPLITS_RESTORED_MID_WAY = new AtomicLong();

    private final byte[] scanJson;

    NativeIcebergReader(byte[] scanJson) {
        this.scanJson = scanJson;
    }

    @Override
    public CloseableIterator<RecordsWithSplitIds<RecordAndPosition<NativeBatch>>> apply(IcebergSourceSplit split) {
        return new SplitBatches(split);
    }

    /** The local path of a data file (the plan accepts only local warehouses for now). */
    static String localPath(String location) {
        URI uri = URI.create(location);
        if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
            throw new UncheckedIOException(new java.io.IOException(
                    "Sluice reads Iceberg data files from the local file system only, not " + location));
        }
        return uri.getPath();
    }

    /**
     * The positions of a data file's rows that the task's position delete files delete, as
     * big-endian int64s (null without delete files), loaded by Iceberg's own delete loader as
     * the connector's reader loads them. Equality deletes are not applied natively: the plan
     * keeps such tables on Flink's reader, and a task that has them anyway (the table changed
     * since planning) fails.
     */
    static byte[] deletedPositions(FileScanTask task) {
        if (task.deletes().isEmpty()) {
            return null;
        }
        for (DeleteFile d : task.deletes()) {
            if (d.content() != FileContent.POSITION_DELETES) {
                throw new IllegalStateException("Sluice does not apply equality deletes yet: data file "
                        + task.file().location() + " has the delete file " + d.location());
            }
        }
        PositionDeleteIndex index = new BaseDeleteLoader(d -> Files.localInput(localPath(d.location())))
                .loadPositionDeletes(task.deletes(), task.file().location());
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(8 * index.cardinality()));
        index.forEach(out::putLong);
        return out.array();
    }

    private final class SplitBatches implements CloseableIterator<RecordsWithSplitIds<RecordAndPosition<NativeBatch>>> {
        private final String splitId;
        private final List<FileScanTask> files;
        private int file;
        private long emitted; // rows of the current file emitted so far
        private long reader; // 0 when no file is open
        private long pending; // the next batch, read ahead by hasNext (0: none)

        SplitBatches(IcebergSourceSplit split) {
            this.splitId = split.splitId();
            this.files = List.copyOf(split.task().files());
            this.file = split.fileOffset();
            this.emitted = split.recordOffset();
            if (emitted > 0) {
                SPLITS_RESTORED_MID_WAY.incrementAndGet();
            }
            NativeLib.ensureLoaded();
        }

        @Override
        public boolean hasNext() {
            while (pending == 0 && file < files.size()) {
                if (reader == 0) {
                    FileScanTask task = files.get(file);
                    String location = task.file().location();
                    if (task.file().format() != FileFormat.PARQUET) {
                        throw new IllegalStateException("Sluice reads Parquet data files only, not " + location
                                + " (" + task.file().format() + ")");
                    }
                    reader = NativeLib.icebergOpen(scanJson, localPath(location).getBytes(StandardCharsets.UTF_8),
                            task.start(), task.length(), emitted, deletedPositions(task));
                }
                long batch = NativeLib.splitNext(reader);
                if (batch != 0) {
                    pending = batch;
                    break;
                }
                NativeLib.close(reader);
                reader = 0;
                file++;
                emitted = 0;
            }
            return pending != 0;
        }

        @Override
        public RecordsWithSplitIds<RecordAndPosition<NativeBatch>> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            long batch = pending;
            pending = 0;
            int rows = NativeLib.batchRows(batch);
            emitted += rows;
            return new OneBatch(splitId, new NativeBatch(batch, rows, false), file, emitted);
        }

        @Override
        public void close() {
            if (pending != 0) {
                NativeLib.close(pending);
                pending = 0;
            }
            if (reader != 0) {
                NativeLib.close(reader);
                reader = 0;
            }
        }
    }

    /** One native batch of one split; the batch is released once it went downstream. */
    private static final class OneBatch implements RecordsWithSplitIds<RecordAndPosition<NativeBatch>> {
        private String splitId;
        private RecordAndPosition<NativeBatch> record;
        private final NativeBatch batch;

        OneBatch(String splitId, NativeBatch batch, int fileOffset, long recordOffset) {
            this.splitId = splitId;
            this.batch = batch;
            this.record = new RecordAndPosition<>(batch, fileOffset, recordOffset);
        }

        @Override
        public String nextSplit() {
            String s = splitId;
            splitId = null;
            return s;
        }

        @Override
        public RecordAndPosition<NativeBatch> nextRecordFromSplit() {
            RecordAndPosition<NativeBatch> r = record;
            record = null;
            return r;
        }

        @Override
        public Set<String> finishedSplits() {
            return Set.of();
        }

        @Override
        public void recycle() {
            batch.release();
        }
    }
}
