package io.sluice.sources.fluss;

import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.fluss.flink.source.FlinkSource;
import org.apache.fluss.flink.source.split.SourceSplitBase;
import org.apache.fluss.flink.source.state.SourceEnumeratorState;

/**
 * Fluss's Flink source with its log read natively: the enumerator, the splits (a log split per
 * bucket), their serializers and the enumerator's checkpoints are the {@code FlinkSource} the
 * table source builds; the reader fetches each bucket's log raw ({@link BucketFetchSplitReader})
 * and Go decodes the fetched Arrow batches ({@link BucketFetchEmitter}).
 */
final class NativeFlussSource
        implements Source<NativeBatch, SourceSplitBase, SourceEnumeratorState>, ResultTypeQueryable<NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final FlinkSource<RowData> stock;
    private final BucketFetchSplitReader.Factory splitReaders;
    private final byte[] scanJson;
    private final String table;

    NativeFlussSource(FlinkSource<RowData> stock, BucketFetchSplitReader.Factory splitReaders, byte[] scanJson, String table) {
        this.stock = stock;
        this.splitReaders = splitReaders;
        this.scanJson = scanJson;
        this.table = table;
    }

    @Override
    public Boundedness getBoundedness() {
        return stock.getBoundedness();
    }

    @Override
    public SourceReader<NativeBatch, SourceSplitBase> createReader(SourceReaderContext context) {
        BucketFetchEmitter emitter = new BucketFetchEmitter(scanJson, table);
        try {
            return new FlussBatchReader(splitReaders, emitter, context);
        } catch (RuntimeException e) {
            emitter.close();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<SourceSplitBase, SourceEnumeratorState> createEnumerator(SplitEnumeratorContext<SourceSplitBase> context) {
        return stock.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<SourceSplitBase, SourceEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<SourceSplitBase> context, SourceEnumeratorState state) {
        return stock.restoreEnumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<SourceSplitBase> getSplitSerializer() {
        return stock.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<SourceEnumeratorState> getEnumeratorCheckpointSerializer() {
        return stock.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<NativeBatch> getProducedType() {
        return NativeBatchTypeInfo.INSTANCE;
    }
}
