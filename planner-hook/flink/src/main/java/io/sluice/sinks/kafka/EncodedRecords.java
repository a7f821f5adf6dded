package io.sluice.sinks.kafka;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.table.data.RowData;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.List;
import java.util.Optional;

/**
 * The records of a native Kafka sink: each element is a record's key (null without a key
 * format), value and timestamp (null without a written 'timestamp' metadata column) as Go
 * encoded them, written as Flink's table sink writes them (no headers) to the table's topic, in
 * the partition the table's partitioner picks (none: the producer's, by the key's hash when
 * there is one).
 */
final class EncodedRecords implements KafkaRecordSerializationSchema<EncodedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final KafkaPartitioner<RowData> partitioner;

    EncodedRecords(String topic, KafkaPartitioner<RowData> partitioner) {
        this.topic = topic;
        this.partitioner = partitioner;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) throws Exception {
        if (partitioner != null) {
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(EncodedRecord record, KafkaSinkContext context, Long timestamp) {
        int[] partitions = context.getPartitionsForTopic(topic);
        // The partitioners native sinks take (Flink's fixed one) do not read the row.
        Integer partition = partitioner == null ? null
                : partitioner.partition(null, record.key(), record.value(), topic, partitions);
        return new ProducerRecord<>(topic, partition, record.timestamp(), record.key(), record.value());
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(List.of(topic))));
    }
}
