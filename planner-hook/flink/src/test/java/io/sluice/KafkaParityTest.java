package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.testing.KafkaBroker;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka tables against stock Flink on a real broker (bin/sluice-kafka): a topic of JSON bids in
 * four partitions, read by Flink's own Kafka source and JSON format in both engines (bounded at
 * the offsets the topic ends at), and jobs over it that Sluice runs natively from the source's
 * rows on: filters and projections, Kafka's metadata columns, an event-time TUMBLE aggregation on
 * watermarks generated per partition, and an INSERT into a Kafka topic through Flink's Kafka sink
 * (exactly once), whose committed records are read back from both engines' topics.
 */
class KafkaParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int PARTITIONS = 4;
    static final int RECORDS = 3000;
    static String bids;

    @BeforeAll
    static void writeBids() throws Exception {
        bids = "bids-" + UUID.randomUUID();
        KafkaBroker.createTopic(bids, PARTITIONS);
        Random rnd = new Random(42);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        long start = 1_700_000_000_000L;
        for (int i = 0; i < RECORDS; i++) {
            int partition = i % PARTITIONS;
            // Event time moves forward per partition with disorder below the watermark's delay
            // (1 s): no row is late, whenever the source emits its periodic watermarks.
            long ts = start + i * 37L - rnd.nextInt(900);
            int auction = 1000 + rnd.nextInt(40);
            String price = rnd.nextInt(20) == 0 ? "null" : Long.toString(rnd.nextInt(100_000));
            String value = String.format(Locale.ROOT,
                    "{\"auction\":%d,\"bidder\":%d,\"price\":%s,\"ts\":\"%s\",\"extra\":{\"x\":[1,2]}}",
                    auction, rnd.nextLong(1, 1_000_000), price, sqlTimestamp(ts));
            records.add(KafkaBroker.record(bids, partition, ts + 5, Integer.toString(auction), value));
        }
        KafkaBroker.produce(records);
    }

    /** A timestamp in the JSON format's SQL form, with 0 to 3 fraction digits. */
    static String sqlTimestamp(long ms) {
        String s = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000), 0, java.time.ZoneOffset.UTC)
                .toString().replace('T', ' ');
        if (s.length() == 16) {
            s += ":00";
        }
        long frac = Math.floorMod(ms, 1000);
        return frac == 0 ? s : s + String.format(Locale.ROOT, ".%03d", frac).replaceAll("0+$", "");
    }

    static String bidsTable(String topic) {
        return "CREATE TABLE bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3),"
                + " `partition` INT METADATA VIRTUAL, `offset` BIGINT METADATA VIRTUAL,"
                + " kts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";
    }

    static ParityCase kafkaCase(String name, String query) {
        return ParityCase.of(name, query, Map.of()).withDdl(bidsTable(bids)).withParallelism(2).asMultiset();
    }

    /** Checks a case, and that Sluice's run processed batches natively (its rows come from Kafka, not table t). */
    static void check(ParityCase c) {
        assertFalse(ParityHarness.run(c, false).rows().isEmpty(), c.name() + ": stock Flink returned no rows: the case tests nothing");
        long before = ParityHarness.nativeBatches();
        ParityHarness.check(c);
        assertTrue(ParityHarness.nativeBatches() > before, c.name() + ": the plan was native but no batch ran natively");
    }

    @Test
    void filtersAndProjections() {
        check(kafkaCase("calc",
                "SELECT auction, bidder, price * 2 AS p2, ts FROM bids WHERE price > 50000 OR price IS NULL"));
    }

    @Test
    void metadataColumns() {
        check(kafkaCase("metadata", "SELECT `partition`, `offset`, kts, auction FROM bids"));
    }

    @Test
    void tumbleOnPartitionWatermarks() {
        check(kafkaCase("tumble",
                "SELECT window_start, window_end, auction, COUNT(*) AS n, SUM(price) AS s, MAX(price) AS mx"
                        + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                        + " GROUP BY window_start, window_end, auction"));
    }

    /** The same INSERT into a Kafka topic per engine; both topics hold the same committed records. */
    @Test
    void insertIntoKafka() throws Exception {
        List<String> out = new ArrayList<>();
        for (boolean sluice : new boolean[] {false, true}) {
            String topic = "out-" + UUID.randomUUID();
            KafkaBroker.createTopic(topic, 2);
            ParityCase c = kafkaCase("insert", "").withDdl("CREATE TABLE out_t (auction INT, n BIGINT, s BIGINT) WITH ("
                    + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                    + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                    + " 'properties.transaction.timeout.ms' = '600000',"
                    + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + topic + "',"
                    + " 'format' = 'json')")
                    .with("execution.checkpointing.interval", "200ms");
            String insert = "INSERT INTO out_t SELECT auction, COUNT(*), SUM(price) FROM TABLE("
                    + "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, auction";
            StreamTableEnvironment tEnv = ParityHarness.newEnv(c, sluice);
            if (sluice) {
                Verdict verdict = Sluice.verdict(tEnv, insert);
                assertTrue(verdict.isNative(), () -> "expected native, got\n" + verdict);
            }
            long before = ParityHarness.nativeBatches();
            tEnv.executeSql(insert).await();
            long batches = ParityHarness.nativeBatches() - before;
            if (sluice) {
                assertTrue(batches > 0, "the INSERT ran no native batch");
            } else {
                assertEquals(0, batches, "stock Flink ran native batches");
            }
            List<String> values = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaBroker.records(topic)) {
                values.add(new String(r.value(), StandardCharsets.UTF_8));
            }
            values.sort(null);
            out.add(String.join("\n", values));
        }
        assertFalse(out.get(0).isEmpty(), "stock Flink wrote nothing: the case tests nothing");
        assertEquals(out.get(0), out.get(1), "the topics written by stock Flink and by Sluice differ");
    }
}
