package io.sluice.sources.kafka;

import io.sluice.testing.KafkaBroker;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.UserCodeClassLoader;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flink's Kafka split reader with its fetches as one element per partition, on a real broker:
 * every record of a bounded split comes out once, in offset order, in elements of one partition
 * each (one per partition and fetch); records at or past the stopping offset stay out; the
 * splits finish as Flink's reader finishes them.
 */
class PartitionFetchSplitReaderTest {

    @Test
    void fetchesComeOutPerPartitionWithEveryRecordOnce() throws Exception {
        String topic = "fetch-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 2);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            int p = i % 3 == 0 ? 1 : 0;
            records.add(KafkaBroker.record(topic, p, 1000L + i, null, "v" + i));
        }
        KafkaBroker.produce(records);
        // Partition 0 holds 1000 records (offsets 0..999), partition 1 500: read 0 up to 900.
        Map<Integer, List<String>> want = new HashMap<>();
        for (ProducerRecord<byte[], byte[]> r : records) {
            want.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(new String(r.value(), StandardCharsets.UTF_8));
        }
        want.put(0, want.get(0).subList(0, 900));

        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "fetch-test");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "300");
        SourceReaderMetricGroup metrics = UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        PartitionFetchSplitReader reader = new PartitionFetchSplitReader(props, new Context(metrics),
                new KafkaSourceReaderMetrics(metrics));
        try {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(
                    new KafkaPartitionSplit(new TopicPartition(topic, 0), KafkaPartitionSplit.EARLIEST_OFFSET, 900),
                    new KafkaPartitionSplit(new TopicPartition(topic, 1), KafkaPartitionSplit.EARLIEST_OFFSET, 500))));
            Map<Integer, List<String>> got = new HashMap<>();
            Set<String> finished = new HashSet<>();
            for (int fetch = 0; fetch < 100 && finished.size() < 2; fetch++) {
                RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> f = reader.fetch();
                String split;
                while ((split = f.nextSplit()) != null) {
                    PartitionFetch pf = assertInstanceOf(PartitionFetch.class, f.nextRecordFromSplit());
                    assertNull(f.nextRecordFromSplit(), "a second element for one split in one fetch");
                    assertEquals(split, new TopicPartition(topic, pf.partition()).toString());
                    long expected = -1;
                    for (ConsumerRecord<byte[], byte[]> r : pf.records()) {
                        assertEquals(pf.partition(), r.partition());
                        assertTrue(expected < 0 || r.offset() == expected, "offsets out of order");
                        expected = r.offset() + 1;
                        got.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(new String(r.value(), StandardCharsets.UTF_8));
                    }
                    assertEquals(expected, pf.nextOffset());
                }
                finished.addAll(f.finishedSplits());
                f.recycle();
            }
            assertEquals(Set.of(topic + "-0", topic + "-1"), finished);
            assertEquals(want, got);
        } finally {
            reader.close();
        }
    }

    /** The little of a reader's context a split reader uses. */
    private record Context(SourceReaderMetricGroup metricGroup) implements SourceReaderContext {
        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {}

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            throw new UnsupportedOperationException();
        }
    }
}
