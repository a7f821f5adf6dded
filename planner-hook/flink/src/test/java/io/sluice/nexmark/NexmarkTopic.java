package io.sluice.nexmark;

import io.sluice.testing.KafkaBroker;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A Kafka topic of Nexmark events in the JSON format of the nexmark table: events
 * round-robin over its partitions in event order (each partition in event-time order), each
 * record's timestamp its event time.
 */
public final class NexmarkTopic {
    private NexmarkTopic() {}

    /** Creates {@code topic} with {@code partitions} partitions and writes {@code events} events at {@code rate} events per second. */
    public static void write(String topic, int partitions, long events, long rate) throws Exception {
        KafkaBroker.createTopic(topic, partitions);
        NexmarkGenerator g = new NexmarkGenerator(events, rate, 1, 0);
        KafkaBroker.produce(() -> new Iterator<>() {
            long k;

            @Override
            public boolean hasNext() {
                return k < g.events();
            }

            @Override
            public ProducerRecord<byte[], byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, (int) (k % partitions), g.timestampOf(k), null,
                        g.event(k).getBytes(StandardCharsets.UTF_8));
                k++;
                return r;
            }
        });
    }
}
