package io.sluice.sources.kafka;

import io.sluice.kafka.KafkaConnector;
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
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaSourceReader;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.connector.kafka.source.reader.fetcher.KafkaSourceFetcherManager;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.UserCodeClassLoader;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.io.IOException;
import java.util.Properties;

/**
 * Flink's Kafka source with its record decoding in Go: the enumerator, splits, their serializers
 * and the reader's polling, offsets and commits are stock Flink's {@code KafkaSource} (the one the
 * table's connector builds), and each partition's fetch becomes one native batch
 * ({@link PartitionFetchSplitReader}, {@link FetchEmitter}).
 */
final class NativeKafkaSource
        implements Source<NativeBatch, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final KafkaSource<RowData> stock;
    private final byte[] scanJson;
    private final RowType rowType;

    NativeKafkaSource(KafkaSource<RowData> stock, byte[] scanJson, RowType rowType) {
        this.stock = stock;
        this.scanJson = scanJson;
        this.rowType = rowType;
    }

    @Override
    public Boundedness getBoundedness() {
        return stock.getBoundedness();
    }

    /** max.poll.records of the native scan's consumer unless the table sets it. */
    static final int MAX_POLL_RECORDS = 5000;

    @Override
    public SourceReader<NativeBatch, KafkaPartitionSplit> createReader(SourceReaderContext context) throws Exception {
        Properties props = new Properties();
        props.putAll(KafkaConnector.<Properties>field(stock, "props"));
        // Larger polls make larger batches (the consumer's default is 500 records over all
        // partitions); a 1 MB partition fetch (max.partition.fetch.bytes) holds about this many
        // JSON records. Which records come, their offsets and commits are unchanged; a table's
        // own 'properties.max.poll.records' wins.
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(MAX_POLL_RECORDS));
        KafkaRecordDeserializationSchema<RowData> deserializer = KafkaConnector.field(stock, "deserializationSchema");
        // As KafkaSource#createReader opens it.
        deserializer.open(new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return context.metricGroup().addGroup("deserializer");
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return context.getUserCodeClassLoader();
            }
        });
        KafkaSourceReaderMetrics metrics = new KafkaSourceReaderMetrics(context.metricGroup());
        FetchEmitter emitter = new FetchEmitter(scanJson, deserializer, rowType);
        Configuration config = new Configuration();
        props.stringPropertyNames().forEach(k -> config.setString(k, props.getProperty(k)));
        try {
            return new KafkaSourceReader<>(
                    new FutureCompletingBlockingQueue<>(),
                    new KafkaSourceFetcherManager(
                            new FutureCompletingBlockingQueue<>(),
                            () -> new PartitionFetchSplitReader(props, context, metrics),
                            ignored -> {}),
                    emitter, config, context, metrics) {
                @Override
                public void close() throws Exception {
                    try {
                        super.close();
                    } finally {
                        emitter.close();
                    }
                }
            };
        } catch (RuntimeException e) {
            emitter.close();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return stock.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state) throws IOException {
        return stock.restoreEnumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return stock.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return stock.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<NativeBatch> getProducedType() {
        return NativeBatchTypeInfo.INSTANCE;
    }
}
