package io.sluice.sources.fluss;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.fluss.flink.source.split.SourceSplitState;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Emits each {@link BucketFetch} as one native batch: its log batches go to Go in one call, which
 * decodes their Arrow messages into the scan's columns (no row is built in Java), and the split's
 * offset then moves to the fetch's next offset, as Fluss's emitter leaves it after the same rows.
 */
public final class BucketFetchEmitter implements RecordEmitter<BucketFetch, NativeBatch, SourceSplitState> {
    private static final AtomicLong FETCHES = new AtomicLong();
    private static final AtomicLong ROWS = new AtomicLong();

    private final long fetch;
    private final String table;

    BucketFetchEmitter(byte[] scanJson, String table) {
        NativeLib.ensureLoaded();
        this.fetch = NativeLib.flussFetchOpen(scanJson);
        this.table = table;
    }

    /** Bucket fetches decoded natively in this JVM (for tests and metrics). */
    public static long fetchesDecodedNatively() {
        return FETCHES.get();
    }

    /** Rows decoded natively from Fluss's log batches in this JVM (for tests and metrics). */
    public static long rowsDecodedNatively() {
        return ROWS.get();
    }

    @Override
    public void emitRecord(BucketFetch f, SourceOutput<NativeBatch> output, SourceSplitState state) throws Exception {
        long handle;
        try {
            handle = NativeLib.flussFetchDecode(fetch, f.records(), f.fromOffset());
        } catch (RuntimeException e) {
            throw new IOException(String.format("Fluss table %s, bucket %d, offsets %d to %d: %s", table,
                    f.bucket().getBucket(), f.fromOffset(), f.nextOffset(), e.getMessage()), e);
        }
        NativeBatch batch;
        try {
            batch = NativeBatch.ofSource(handle, NativeLib.batchRows(handle), Long.MIN_VALUE);
        } catch (RuntimeException e) {
            NativeLib.close(handle);
            throw e;
        }
        try {
            if (batch.rows() > 0) {
                output.collect(batch);
            }
        } finally {
            batch.release();
        }
        FETCHES.incrementAndGet();
        ROWS.addAndGet(batch.rows());
        state.asLogSplitState().setNextOffset(f.nextOffset());
    }

    /** Closes the native decoder. */
    void close() {
        NativeLib.close(fetch);
    }
}
