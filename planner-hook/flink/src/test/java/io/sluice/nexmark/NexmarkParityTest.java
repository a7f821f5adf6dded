package io.sluice.nexmark;

import io.sluice.Sluice;
import io.sluice.planner.Verdict;
import io.sluice.sinks.kafka.KafkaNativeSink;
import io.sluice.sources.kafka.FetchEmitter;
import io.sluice.testing.KafkaBroker;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;


import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Nexmark queries from Kafka to Kafka against stock Flink on a real broker: one topic of
 * 20,000 Nexmark events (JSON, 4 partitions, 20 s of event time), each query run by stock Flink
 * and by Sluice with Nexmark's settings (mini-batches, split distinct aggregation), parallelism
 * 2, exactly-once checkpoints; the output topics must hold the same records (append-only
 * results as multisets, upsert results as the last value of every key). Which queries Sluice
 * runs natively, and why the others fall back, is asserted from the verdict.
 */
class NexmarkParityTest {
    @org.junit.jupiter.api.extension.RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static List<String> queries() {
        return NexmarkQueries.QUERIES;
    }
    static final long EVENTS = 20_000;
    /** The queries Sluice runs natively today (the verdict's reasons say why the others do not). */
    static final java.util.Set<String> NATIVE = java.util.Set.of("q0", "q1", "q2", "q3", "q4", "q7", "q8", "q9", "q10", "q12", "q17", "q18", "q19", "q20",
            "q21", "q22");
    static String topic;
    static final Map<String, String> VERDICTS = new TreeMap<>();

    @BeforeAll
    static void writeEvents() throws Exception {
        topic = "nexmark-" + UUID.randomUUID();
        NexmarkTopic.write(topic, 4, EVENTS, 1_000);
    }

    @AfterAll
    static void summary() {
        StringBuilder s = new StringBuilder("Nexmark verdicts:\n");
        VERDICTS.forEach((q, v) -> s.append("  ").append(q).append(": ").append(v).append('\n'));
        System.out.println(s);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void sameOutputAsStockFlink(String query) throws Exception {
        List<String> outputs = new ArrayList<>();
        for (boolean sluice : new boolean[] {false, true}) {
            String out = query + "-" + UUID.randomUUID();
            KafkaBroker.createTopic(out, 2);
            ParityCase c = ParityCase.of("nexmark " + query, "", Map.of()).withParallelism(2)
                    .with("execution.checkpointing.interval", "1s");
            for (Map.Entry<String, String> e : NexmarkQueries.settings().entrySet()) {
                c = c.with(e.getKey(), e.getValue());
            }
            StreamTableEnvironment tEnv = ParityHarness.newEnv(c, sluice);
            List<String> statements = NexmarkQueries.statements(query, topic, out);
            for (String st : statements.subList(0, statements.size() - 1)) {
                tEnv.executeSql(st);
            }
            String insert = statements.get(statements.size() - 1);
            if (sluice) {
                Verdict v = Sluice.verdict(tEnv, insert);
                VERDICTS.put(query, (v.isNative() ? "native" : "falls back: " + String.join("; ", v.reasons()))
                        + (v.edgeNotes().isEmpty() ? "" : " [edges: " + String.join("; ", v.edgeNotes()) + "]"));
                assertEquals(NATIVE.contains(query), v.isNative(), () -> query + ": " + v);
                if (v.isNative()) {
                    // The Kafka scan and sink are native too, not row edges.
                    assertTrue(v.edgeNotes().isEmpty(), () -> query + ": Kafka edges stay on rows: " + v.edgeNotes());
                }
            }
            long decoded = FetchEmitter.recordsDecodedNatively();
            long encoded = KafkaNativeSink.recordsEncoded();
            tEnv.executeSql(insert).await();
            if (sluice && NATIVE.contains(query)) {
                assertTrue(FetchEmitter.recordsDecodedNatively() - decoded >= EVENTS,
                        query + ": the native Kafka scan decoded fewer records than the topic holds");
                // Append results go to the native 'kafka' sink, updating ones to the native
                // 'upsert-kafka' sink. q12's processing-time windows may close none.
                if (!NexmarkQueries.PROCESSING_TIME.contains(query)) {
                    assertTrue(KafkaNativeSink.recordsEncoded() > encoded, query + ": the native Kafka sink encoded no record");
                }
            }
            outputs.add(NexmarkOutput.read(query, out));
        }
        if (NexmarkQueries.PROCESSING_TIME.contains(query)) {
            return; // processing-time windows: each run's own
        }
        assertFalse(outputs.get(0).isEmpty(), query + ": stock Flink wrote nothing: the query tests nothing");
        assertEquals(outputs.get(0), outputs.get(1), query + ": the output topics of stock Flink and Sluice differ");
    }
}
