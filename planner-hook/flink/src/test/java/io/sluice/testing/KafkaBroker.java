package io.sluice.testing;

import io.sluice.fuzz.FuzzCases;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The tests' Kafka broker: the one `make test` starts (bin/sluice-kafka, its bootstrap servers in
 * SLUICE_KAFKA_BOOTSTRAP), or started here through bin/sluice-kafka when a test runs outside make.
 * Topics, records in and records out go through Kafka's own clients.
 */
public final class KafkaBroker {
    private static String bootstrap;

    private KafkaBroker() {}

    /** The broker's bootstrap servers, starting the broker if no running one was given. */
    public static synchronized String bootstrap() {
        if (bootstrap == null) {
            String env = System.getenv("SLUICE_KAFKA_BOOTSTRAP");
            try {
                // Starting is a no-op for a running broker, and brings back one a test stopped.
                String started = run("start").trim();
                bootstrap = env != null && !env.isEmpty() ? env : started;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("the tests' Kafka broker (bin/sluice-kafka start) did not start: " + e.getMessage(), e);
            }
        }
        return bootstrap;
    }

    /** Whether the broker has a topic of this name. */
    public static boolean topicExists(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            return admin.listTopics().names().get(60, TimeUnit.SECONDS).contains(topic);
        }
    }

    /** Creates a topic with {@code partitions} partitions. */
    public static void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
    }

    /** Deletes topics (those that exist). */
    public static void deleteTopics(java.util.Collection<String> topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            java.util.Set<String> existing = admin.listTopics().names().get(60, TimeUnit.SECONDS);
            List<String> present = topics.stream().filter(existing::contains).toList();
            if (!present.isEmpty()) {
                admin.deleteTopics(present).all().get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Writes records (key and value UTF-8 text, key null for none) and waits until all are acknowledged. */
    public static void produce(Iterable<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 << 10));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                producer.send(r, (meta, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
                sent++;
            }
            producer.flush();
        }
        if (failed.get() != null) {
            // A record the broker did not take would leave the tests' input short, silently.
            throw new IllegalStateException("writing " + sent + " records to Kafka failed: " + failed.get(), failed.get());
        }
    }

    /** A record of text to {@code partition} of a topic, at {@code timestamp} (epoch ms). */
    public static ProducerRecord<byte[], byte[]> record(String topic, int partition, long timestamp, String key, String value) {
        return new ProducerRecord<>(topic, partition, timestamp,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Waits (up to 30 s) until the partitions' last stable offsets reach their ends: a committed
     * transaction's markers are written after its commit returned, and until then read_committed
     * readers stop before its records.
     */
    static void awaitTransactionMarkers(List<TopicPartition> partitions) {
        Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new java.util.HashMap<>();
        partitions.forEach(tp -> latest.put(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                var committed = admin.listOffsets(latest, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                        org.apache.kafka.common.IsolationLevel.READ_COMMITTED)).all().get(60, TimeUnit.SECONDS);
                var all = admin.listOffsets(latest, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                        org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED)).all().get(60, TimeUnit.SECONDS);
                boolean stable = partitions.stream().allMatch(tp -> committed.get(tp).offset() == all.get(tp).offset());
                if (stable) {
                    return;
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("listing the offsets of " + partitions + ": " + e.getMessage(), e);
        }
    }

    /** Every committed record of a topic (read_committed), partition by partition in offset order. */
    public static List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, Duration.ofSeconds(60))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
            partitions.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
            awaitTransactionMarkers(partitions);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            for (TopicPartition tp : partitions) {
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                // The end offset counts transaction markers: read until the position passes it.
                while (consumer.position(tp) < end.get(tp)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("reading " + tp + " did not reach offset " + end.get(tp));
                    }
                    consumer.poll(Duration.ofMillis(200)).records(tp).forEach(out::add);
                }
            }
        }
        return out;
    }

    private static String run(String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(FuzzCases.repoRoot().resolve("bin/sluice-kafka").toString(), command)
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("bin/sluice-kafka " + command + " failed: " + out);
        }
        return out;
    }
}
