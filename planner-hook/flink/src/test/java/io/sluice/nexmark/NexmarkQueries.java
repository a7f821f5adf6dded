package io.sluice.nexmark;

import io.sluice.cli.SqlScript;
import io.sluice.testing.KafkaBroker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Nexmark queries in their Flink SQL form (resources nexmark/q*.sql, from Nexmark's
 * queries; docs/internals/nexmark.md §3) over the nexmark table on a Kafka topic
 * (nexmark/ddl.sql), each writing to a Kafka topic of its own: append-only results through the
 * kafka connector exactly once, updating ones (q4, q9, q15 to q19) through upsert-kafka keyed by
 * their unique key. Not here: q6 (Flink cannot run it), q13 (a lookup join on a legacy CSV
 * table) and q23 (added after the suite's published runs).
 */
public final class NexmarkQueries {
    /** The queries run. */
    public static final List<String> QUERIES = List.of(
            "q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q9", "q10", "q11", "q12", "q14", "q15", "q16", "q17", "q18",
            "q19", "q20", "q21", "q22");

    /** Queries whose results depend on processing time: their outputs are not compared. */
    public static final List<String> PROCESSING_TIME = List.of("q12");

    /** Queries whose sink is an upsert-kafka table (updating results). */
    public static final List<String> UPSERT = List.of("q4", "q9", "q15", "q16", "q17", "q18", "q19");

    private NexmarkQueries() {}

    /** The settings Nexmark runs its queries with (docs/internals/nexmark.md §4.1). */
    public static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("table.exec.mini-batch.enabled", "true");
        s.put("table.exec.mini-batch.allow-latency", "2s");
        s.put("table.exec.mini-batch.size", "50000");
        s.put("table.optimizer.distinct-agg.split.enabled", "true");
        return s;
    }

    /**
     * The statements of a query: the nexmark table on {@code topic} and its views, the query's sink
     * on {@code outTopic}, and its INSERT last.
     */
    public static List<String> statements(String query, String topic, String outTopic) throws IOException {
        String bootstrap = KafkaBroker.bootstrap();
        String append = "'connector' = 'kafka', 'topic' = '" + outTopic + "', 'properties.bootstrap.servers' = '" + bootstrap + "',"
                + " 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + outTopic + "',"
                + " 'properties.transaction.timeout.ms' = '600000'";
        String upsert = "'connector' = 'upsert-kafka', 'topic' = '" + outTopic + "', 'properties.bootstrap.servers' = '" + bootstrap + "',"
                + " 'key.format' = 'json', 'value.format' = 'json'";
        List<String> out = new ArrayList<>();
        for (String file : List.of("ddl.sql", query + ".sql")) {
            String text = resource(file).replace("${TOPIC}", topic).replace("${BOOTSTRAP}", bootstrap)
                    .replace("${APPEND}", append).replace("${UPSERT}", upsert);
            out.addAll(SqlScript.split(text));
        }
        return out;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = NexmarkQueries.class.getResourceAsStream("/nexmark/" + name)) {
            if (in == null) {
                throw new IOException("no resource nexmark/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
