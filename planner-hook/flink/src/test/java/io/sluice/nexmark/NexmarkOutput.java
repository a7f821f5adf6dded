package io.sluice.nexmark;

import io.sluice.testing.KafkaBroker;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A Nexmark query's output topic, in a form two engines' outputs compare in. */
public final class NexmarkOutput {
    private NexmarkOutput() {}

    /**
     * The committed records of a query's output topic: its values sorted (append-only results),
     * or for an upsert-kafka topic each key's last value (no entry for a key deleted last).
     */
    public static String read(String query, String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = KafkaBroker.records(topic);
        if (NexmarkQueries.UPSERT.contains(query)) {
            Map<String, String> last = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                if (r.value() == null) {
                    last.remove(key);
                } else {
                    last.put(key, new String(r.value(), StandardCharsets.UTF_8));
                }
            }
            StringBuilder s = new StringBuilder();
            last.forEach((k, v) -> s.append(k).append(" => ").append(v).append('\n'));
            return s.toString();
        }
        List<String> values = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            values.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        values.sort(null);
        return String.join("\n", values);
    }
}
