package io.sluice.sources.adbc;

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

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The bounded source of an ADBC scan: one split per query (the partitions of
 * 'scan.partition.column', or the whole table), assigned to readers as they ask, read by Go.
 * The same source emits native batches into a chain or, when the job runs on Flink, rows.
 */
public final class AdbcSource<T> implements Source<T, AdbcSplit, Collection<AdbcSplit>>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final byte[] scanJson;
    private final int splits;
    /** The arity of the rows emitted; -1: native batches. */
    private final int arity;
    private final TypeInformation<T> type;

    private AdbcSource(byte[] scanJson, int splits, int arity, TypeInformation<T> type) {
        this.scanJson = scanJson;
        this.splits = splits;
        this.arity = arity;
        this.type = type;
    }

    /** A source of native batches, read from the scan's island JSON. */
    static AdbcSource<NativeBatch> batches(byte[] scanJson, int splits) {
        return new AdbcSource<>(scanJson, splits, -1, NativeBatchTypeInfo.INSTANCE);
    }

    /** A source of rows of {@code arity} fields, read from the scan's description. */
    static AdbcSource<RowData> rows(byte[] description, int splits, int arity, TypeInformation<RowData> type) {
        return new AdbcSource<>(description, splits, arity, type);
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, AdbcSplit> createReader(SourceReaderContext context) {
        return new AdbcSourceReader<>(context, scanJson, arity);
    }

    @Override
    public SplitEnumerator<AdbcSplit, Collection<AdbcSplit>> createEnumerator(SplitEnumeratorContext<AdbcSplit> context) {
        List<AdbcSplit> all = new ArrayList<>(splits);
        for (int i = 0; i < splits; i++) {
            all.add(new AdbcSplit(i, 0));
        }
        return new AdbcSplitEnumerator(context, all);
    }

    @Override
    public SplitEnumerator<AdbcSplit, Collection<AdbcSplit>> restoreEnumerator(
            SplitEnumeratorContext<AdbcSplit> context, Collection<AdbcSplit> checkpoint) {
        return new AdbcSplitEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<AdbcSplit> getSplitSerializer() {
        return AdbcSplit.Serializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<Collection<AdbcSplit>> getEnumeratorCheckpointSerializer() {
        return AdbcSplit.ListSerializer.INSTANCE;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }
}
