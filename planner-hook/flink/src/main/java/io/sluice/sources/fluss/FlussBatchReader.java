package io.sluice.sources.fluss;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.fluss.flink.source.split.LogSplitState;
import org.apache.fluss.flink.source.split.SourceSplitBase;
import org.apache.fluss.flink.source.split.SourceSplitState;

import java.util.Map;

/**
 * The source reader of the native Fluss scan: Flink's single-fetcher reader over
 * {@link BucketFetchSplitReader}, with Fluss's own split states (so checkpoints and savepoints
 * hold the splits as Fluss's reader keeps them).
 */
final class FlussBatchReader extends SingleThreadMultiplexSourceReaderBase<BucketFetch, NativeBatch, SourceSplitBase, SourceSplitState> {
    private final BucketFetchEmitter emitter;

    FlussBatchReader(BucketFetchSplitReader.Factory splitReaders, BucketFetchEmitter emitter, SourceReaderContext context) {
        super(splitReaders::create, emitter, new Configuration(), context);
        this.emitter = emitter;
    }

    @Override
    protected void onSplitFinished(Map<String, SourceSplitState> finished) {}

    @Override
    protected SourceSplitState initializedState(SourceSplitBase split) {
        if (!split.isLogSplit()) {
            throw new IllegalStateException("Sluice's native Fluss scan reads log splits; got " + split);
        }
        return new LogSplitState(split.asLogSplit());
    }

    @Override
    protected SourceSplitBase toSplitType(String splitId, SourceSplitState state) {
        return state.toSourceSplit();
    }

    /** The scan reads tables without partitions: no partition is ever removed. */
    @Override
    public void handleSourceEvents(SourceEvent event) {}

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            emitter.close();
        }
    }
}
