package io.sluice;

import io.sluice.testing.KafkaBroker;
import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.kafka.clients.producer.ProducerRecord;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changes written into Kafka against stock Flink on a real broker: aggregations over a topic of
 * JSON bids, exactly once, into upsert-kafka tables (+I/+U records keyed by the primary key, -D
 * and -U written as tombstones) and into Kafka tables in the debezium-json format (every change
 * in its envelope), by Go from the native chain's batches, and the same committed records in
 * both engines' topics.
 */
class KafkaChangelogParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int RECORDS = 1500;
    static String bids;

    /** Bids in one partition: with parallelism 1 every engine sees them in the same order. */
    @BeforeAll
    static void writeBids() throws Exception {
        bids = "upsert-bids-" + UUID.randomUUID();
        KafkaBroker.createTopic(bids, 1);
        Random rnd = new Random(11);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            long ts = 1_700_000_000_000L + i * 50L;
            String value = String.format(Locale.ROOT, "{\"auction\":%d,\"bidder\":%d,\"price\":%d,\"ts\":\"%s\"}",
                    rnd.nextInt(60), rnd.nextInt(5), rnd.nextInt(10_000), KafkaParityTest.sqlTimestamp(ts));
            records.add(KafkaBroker.record(bids, 0, ts, null, value));
        }
        KafkaBroker.produce(records);
    }

    static String source() {
        return KafkaParityTest.nativeBidsTable(bids, "");
    }

    static String changes;
    /** The records of the changes topic, and those of them Flink's format skips. */
    static int changeRecords;
    static int skippedChanges;

    /**
     * A topic of Debezium envelopes in one partition, as a database's change stream: creates and
     * snapshot reads of 40 rows, updates and deletes of them, tombstones after deletes, and now
     * and then an envelope Flink's format skips under 'ignore-parse-errors' (an unknown op, an
     * update without its before row).
     */
    @BeforeAll
    static void writeChanges() throws Exception {
        changes = "changes-" + UUID.randomUUID();
        KafkaBroker.createTopic(changes, 1);
        Random rnd = new Random(17);
        java.util.Map<Integer, String> rows = new java.util.HashMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            int id = rnd.nextInt(40);
            String now = String.format(Locale.ROOT, "{\"id\":%d,\"name\":\"n%d\",\"qty\":%d,\"price\":%d.%02d}",
                    id, rnd.nextInt(7), rnd.nextInt(100), rnd.nextInt(1000), rnd.nextInt(100));
            String before = rows.get(id);
            String value;
            if (rnd.nextInt(60) == 0) {
                value = "{\"before\":null,\"after\":" + now + ",\"op\":\"" + (rnd.nextBoolean() ? "x" : "u") + "\"}";
                skippedChanges++;
            } else if (before == null) {
                value = "{\"before\":null,\"after\":" + now + ",\"op\":\"" + (i < 100 ? "r" : "c")
                        + "\",\"source\":{\"db\":\"shop\",\"table\":\"items\"},\"ts_ms\":" + (1_700_000_000_000L + i) + "}";
                rows.put(id, now);
            } else if (rnd.nextInt(4) == 0) {
                value = "{\"before\":" + before + ",\"after\":null,\"op\":\"d\"}";
                rows.remove(id);
                records.add(KafkaBroker.record(changes, 0, 1_700_000_000_000L + i, null, value));
                value = null; // the tombstone Debezium writes after a delete
            } else {
                value = "{\"before\":" + before + ",\"after\":" + now + ",\"op\":\"u\"}";
                rows.put(id, now);
            }
            records.add(KafkaBroker.record(changes, 0, 1_700_000_000_000L + i, null, value));
        }
        KafkaBroker.produce(records);
        changeRecords = records.size();
    }

    static String upserts;

    /**
     * A topic of upserts in one partition, as an upsert-kafka table holds them: json keys, json
     * values or tombstones, 30 keys updated again and again, some values repeated unchanged.
     */
    @BeforeAll
    static void writeUpserts() throws Exception {
        upserts = "upserts-" + UUID.randomUUID();
        KafkaBroker.createTopic(upserts, 1);
        Random rnd = new Random(23);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        java.util.Map<Integer, String> last = new java.util.HashMap<>();
        for (int i = 0; i < 1000; i++) {
            int id = rnd.nextInt(30);
            String key = "{\"id\":" + id + "}";
            String value;
            if (rnd.nextInt(8) == 0) {
                value = null; // a delete
                last.remove(id);
            } else if (last.containsKey(id) && rnd.nextInt(5) == 0) {
                value = last.get(id); // the same row again
            } else {
                value = String.format(Locale.ROOT, "{\"id\":%d,\"name\":\"n%d\",\"qty\":%d}", id, rnd.nextInt(5), rnd.nextInt(50));
                last.put(id, value);
            }
            records.add(KafkaBroker.record(upserts, 0, 1_700_000_000_000L + i, key, value));
            if (i % 100 == 50) {
                // Records Flink's json format reads its own way: a value with a repeated field
                // (Go leaves it to Flink's deserializer), an empty value that is no tombstone
                // (no row), a tombstone without a key (no row either).
                records.add(KafkaBroker.record(upserts, 0, 1_700_000_000_000L + i, key,
                        "{\"id\":" + id + ",\"name\":\"a\",\"name\":\"b\",\"qty\":1}"));
                records.add(KafkaBroker.record(upserts, 0, 1_700_000_000_000L + i, key, ""));
                records.add(KafkaBroker.record(upserts, 0, 1_700_000_000_000L + i, null, null));
                last.remove(id);
            }
        }
        KafkaBroker.produce(records);
        upsertRecords = records.size();
    }

    static long upsertRecords;

    /** Records of the upserts topic that Go leaves to Flink's deserializer (repeated fields). */
    static final long UPSERTS_LEFT_TO_FLINK = 10;

    static String upsertsTable() {
        return "CREATE TABLE items (id INT, name STRING, qty BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + " 'connector' = 'upsert-kafka', 'topic' = '" + upserts + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.bounded.mode' = 'latest-offset',"
                + " 'key.format' = 'json', 'value.format' = 'json')";
    }

    /**
     * An upsert-kafka table read by the native scan (its upserts decoded in Go as inserts, its
     * tombstones as deletes of their keys) and normalized into a changelog by the native
     * ChangelogNormalize (the last row per key in state: +I, -U/+U, -D of the kept row, repeated
     * rows dropped), projected natively: the same changelog as stock Flink's.
     */
    @Test
    void upsertsNormalizedNatively() {
        KafkaParityTest.checkNativeScan(ParityCase.of("changelog normalize",
                "SELECT id, UPPER(name), qty * 2 FROM items", Map.of()).withDdl(upsertsTable()),
                upsertRecords, upsertRecords - UPSERTS_LEFT_TO_FLINK, UPSERTS_LEFT_TO_FLINK);
    }

    /**
     * The upsert-kafka table's changelog itself, as the native scan and ChangelogNormalize make
     * it for a query that reads every column, with 'value.fields-include' = 'EXCEPT_KEY' (the id
     * from the key alone): a tombstone's row takes its key from the record's key.
     */
    @Test
    void upsertsWithTheKeyOutsideTheValue() {
        KafkaParityTest.checkNativeScan(ParityCase.of("upserts except key",
                "SELECT * FROM items", Map.of()).withDdl(upsertsTable().replace("'value.format' = 'json'",
                        "'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'")),
                upsertRecords, upsertRecords - UPSERTS_LEFT_TO_FLINK, UPSERTS_LEFT_TO_FLINK);
    }

    /**
     * A filter that Flink pushes into ChangelogNormalize (its filterCondition, which decides what
     * the state keeps) is not reproduced: the job runs on stock Flink and the verdict says why.
     */
    @Test
    void aFilterInsideChangelogNormalizeFallsBack() {
        ParityHarness.check(ParityCase.of("changelog normalize filter",
                "SELECT id, name, qty FROM items WHERE qty > 5", Map.of()).withDdl(upsertsTable())
                .expecting(Expectation.fallback("pushed filter condition")));
    }

    /** The normalized upserts aggregated natively per name, at parallelism 2. */
    @Test
    void upsertsNormalizedAndAggregated() {
        KafkaParityTest.checkNativeScan(ParityCase.of("changelog normalize aggregate",
                "SELECT name, COUNT(*), SUM(qty) FROM items GROUP BY name", Map.of()).withDdl(upsertsTable())
                .withParallelism(2).asMultiset(), upsertRecords, upsertRecords - UPSERTS_LEFT_TO_FLINK, UPSERTS_LEFT_TO_FLINK);
    }

    static String changesTable() {
        return "CREATE TABLE items (id INT, name STRING, qty BIGINT, price DECIMAL(10, 2)) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + changes + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'debezium-json',"
                + " 'debezium-json.ignore-parse-errors' = 'true')";
    }

    /**
     * The Debezium changes read by the native scan (every envelope Flink takes decoded in Go into
     * rows with their RowKinds) through a native filter and projection: the same changelog as
     * stock Flink's, row for row and kind for kind.
     */
    @Test
    void debeziumScanChangelog() {
        KafkaParityTest.checkNativeScan(ParityCase.of("debezium scan",
                "SELECT id, UPPER(name), qty * 2, price FROM items WHERE qty > 10", Map.of()).withDdl(changesTable()),
                changeRecords, changeRecords - skippedChanges, skippedChanges);
    }

    /** The Debezium changes aggregated natively per name (retractions of updates and deletes). */
    @Test
    void debeziumScanAggregated() {
        KafkaParityTest.checkNativeScan(ParityCase.of("debezium aggregate",
                "SELECT name, COUNT(*), SUM(qty) FROM items GROUP BY name", Map.of()).withDdl(changesTable()).withParallelism(2).asMultiset(),
                changeRecords, changeRecords - skippedChanges, skippedChanges);
    }

    /**
     * Debezium in, Debezium out: the changes through a native projection into a Kafka table in
     * the debezium-json format, every change in order, exactly once.
     */
    @Test
    void debeziumInDebeziumOut() throws Exception {
        KafkaParityTest.checkWrite(new KafkaParityTest.Write(changesTable(), "kafka",
                "id INT, name STRING, total DECIMAL(21, 2)",
                "'format' = 'debezium-json', 'sink.partitioner' = 'fixed'",
                "INSERT INTO out_t SELECT id, name, qty * price FROM items",
                1, false, true, true));
    }

    /**
     * COUNT(*) per auction into a table keyed by auction (json keys, avro values without the
     * key): each key's records are its counts in order, whatever the order of the keys, so two
     * subtasks compare as a multiset.
     */
    @Test
    void countsPerKey() throws Exception {
        KafkaParityTest.checkWrite(new KafkaParityTest.Write(source(), "upsert-kafka",
                "auction INT, n BIGINT, top_price BIGINT, PRIMARY KEY (auction) NOT ENFORCED",
                "'key.format' = 'json', 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY'",
                "INSERT INTO out_t SELECT auction, COUNT(*), MAX(price) FROM bids GROUP BY auction",
                2, false, false, true));
    }

    /**
     * The number of auctions per bid count, keyed by the count: a count that no auction has any
     * more is deleted, written as a tombstone. One subtask and one partition make the records'
     * order the same in both engines, compared as it is, with failures injected into Sluice's run.
     */
    @Test
    void deletesAsTombstonesExactlyOnceWithFailures() throws Exception {
        List<String> records = KafkaParityTest.checkWrite(new KafkaParityTest.Write(source(), "upsert-kafka",
                "n BIGINT, auctions BIGINT, PRIMARY KEY (n) NOT ENFORCED",
                "'key.format' = 'json', 'value.format' = 'json'",
                "INSERT INTO out_t SELECT n, COUNT(*) FROM (SELECT auction, COUNT(*) AS n FROM bids GROUP BY auction) GROUP BY n",
                1, true, true, true));
        assertTrue(records.stream().anyMatch(r -> r.endsWith("<no value>")), "no tombstone written: the case tests nothing");
    }

    /**
     * Every change of COUNT(*) per auction (-U before +U) into a Kafka table in the debezium-json
     * format, in their order (one subtask writing one partition, Flink's fixed partitioner).
     */
    @Test
    void debeziumChangesInOrder() throws Exception {
        List<String> records = KafkaParityTest.checkWrite(new KafkaParityTest.Write(source(), "kafka",
                "auction INT, n BIGINT, top_price BIGINT",
                "'format' = 'debezium-json', 'sink.partitioner' = 'fixed'",
                "INSERT INTO out_t SELECT auction, COUNT(*), MAX(price) FROM bids GROUP BY auction",
                1, false, true, true));
        assertTrue(records.stream().anyMatch(r -> r.contains("\"op\":\"d\"")), "no update written: the case tests nothing");
    }

    /**
     * A NULL-free debezium-json envelope ('debezium-json.encode.ignore-null-fields') keyed by a
     * json key, from two subtasks: each key's changes in order in its partition.
     */
    @Test
    void debeziumChangesKeyedWithoutNulls() throws Exception {
        KafkaParityTest.checkWrite(new KafkaParityTest.Write(source(), "kafka",
                "auction INT, n BIGINT, top_bidder BIGINT",
                "'key.format' = 'json', 'key.fields' = 'auction', 'value.format' = 'debezium-json',"
                        + " 'value.debezium-json.encode.ignore-null-fields' = 'true'",
                "INSERT INTO out_t SELECT auction, COUNT(*), CASE WHEN MAX(bidder) > 2 THEN MAX(bidder) END FROM bids GROUP BY auction",
                2, false, false, true));
    }

    /**
     * Debezium changes without a key into a debezium-json table with a PRIMARY KEY: Flink
     * materializes them in front of its sink (SinkUpsertMaterializer), which the native sink does
     * not, so Flink's sink writes the native chain's rows and the verdict says so.
     */
    @Test
    void debeziumIntoAKeyedTableKeepsFlinksSink() throws Exception {
        KafkaParityTest.checkWrite(new KafkaParityTest.Write(changesTable(), "kafka",
                "id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED",
                "'format' = 'debezium-json', 'sink.partitioner' = 'fixed'",
                "INSERT INTO out_t SELECT id, UPPER(name) FROM items",
                1, false, true, false));
    }

    /**
     * An upsert key that is not the primary key (per auction and bidder into a table keyed by
     * auction): Flink materializes the changes in front of its sink, which the native sink does
     * not, so Flink's sink writes the native chain's rows.
     */
    @Test
    void materializedChangesKeepFlinksSink() throws Exception {
        KafkaParityTest.checkWrite(new KafkaParityTest.Write(source(), "upsert-kafka",
                "auction INT, n BIGINT, PRIMARY KEY (auction) NOT ENFORCED",
                "'key.format' = 'raw', 'value.format' = 'csv'",
                "INSERT INTO out_t SELECT auction, COUNT(*) FROM bids GROUP BY auction, bidder",
                1, false, true, false));
    }
}
