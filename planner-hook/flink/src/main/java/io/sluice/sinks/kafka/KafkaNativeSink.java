package io.sluice.sinks.kafka;

import io.sluice.kafka.KafkaConnector;
import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.NativeSink;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.connector.sink.SinkRuntimeProviderContext;

import java.util.Properties;
import java.util.Set;

/**
 * An insert into a Kafka table ('connector' = 'kafka') from the native batches of the chain
 * below it: Go encodes the record values, and the KafkaSink the table's connector builds writes
 * them (its delivery guarantee, transactions, producer properties, transactional id prefix and
 * naming strategy, and the table's partitioner). Only load this class when the connector is on
 * the class path.
 */
public final class KafkaNativeSink implements NativeSink {
    private final String table;
    private final DynamicTableSink tableSink;

    /** The native writer of a Kafka table's sink. */
    public KafkaNativeSink(String table, DynamicTableSink tableSink) {
        this.table = table;
        this.tableSink = tableSink;
    }

    /** Records Go encoded for Kafka sinks in this JVM (tests assert native writing by it). */
    public static long recordsEncoded() {
        return BatchKafkaSink.RECORDS.get();
    }

    @Override
    public String operatorName() {
        return "sluice-kafka-sink";
    }

    @Override
    @SuppressWarnings("unchecked")
    public Transformation<?> transformation(DataStream<NativeBatch> input, byte[] sinkJson, String uidPrefix) {
        SinkV2Provider provider = (SinkV2Provider) tableSink.getSinkRuntimeProvider(new SinkRuntimeProviderContext(false));
        KafkaSink<RowData> stock = (KafkaSink<RowData>) provider.createSink();
        Object serializer = KafkaConnector.field(stock, "recordSerializer");
        Set<String> topics = KafkaConnector.field(serializer, "topics");
        KafkaPartitioner<RowData> partitioner = KafkaConnector.field(serializer, "partitioner");
        KafkaSink<EncodedRecord> sink = KafkaConnector.construct(KafkaSink.class,
                new Class<?>[] {DeliveryGuarantee.class, Properties.class, String.class,
                    KafkaRecordSerializationSchema.class, TransactionNamingStrategy.class},
                KafkaConnector.field(stock, "deliveryGuarantee"), KafkaConnector.field(stock, "kafkaProducerConfig"),
                KafkaConnector.field(stock, "transactionalIdPrefix"),
                new EncodedRecords(topics.iterator().next(), partitioner),
                KafkaConnector.field(stock, "transactionNamingStrategy"));
        return input.sinkTo(new BatchKafkaSink(sink, sinkJson))
                .name(operatorName() + ": " + table)
                .uid(uidPrefix + "-kafka")
                .setParallelism(input.getParallelism())
                .getTransformation();
    }
}
