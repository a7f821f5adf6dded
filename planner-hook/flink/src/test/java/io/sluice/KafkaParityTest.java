package io.sluice;

import io.sluice.planner.Verdict;
import io.sluice.testing.KafkaBroker;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;
import io.sluice.runtime.NativeChainOperator;
import io.sluice.sinks.kafka.KafkaNativeSink;
import io.sluice.sources.kafka.FetchEmitter;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** The bids without metadata columns: a table whose records Go decodes (a native scan). */
    static String nativeBidsTable(String topic, String extraOptions) {
        return "CREATE TABLE bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json'" + extraOptions + ")";
    }

    /**
     * Checks a case on the native scan: Sluice's run decoded {@code records} records, at least
     * {@code minNative} of them in Go and at least {@code minFlink} with Flink's deserializer.
     */
    static void checkNativeScan(ParityCase c, long records, long minNative, long minFlink) {
        long natively = FetchEmitter.recordsDecodedNatively();
        long byFlink = FetchEmitter.recordsDecodedByFlink();
        check(c);
        long n = FetchEmitter.recordsDecodedNatively() - natively;
        long f = FetchEmitter.recordsDecodedByFlink() - byFlink;
        assertEquals(records, n + f, c.name() + ": records decoded (" + n + " natively, " + f + " by Flink)");
        assertTrue(n >= minNative, c.name() + ": " + n + " records decoded natively, expected at least " + minNative);
        assertTrue(f >= minFlink, c.name() + ": " + f + " records left to Flink, expected at least " + minFlink);
    }

    static ParityCase nativeScanCase(String name, String query) {
        return ParityCase.of(name, query, Map.of()).withDdl(nativeBidsTable(bids, "")).withParallelism(2).asMultiset();
    }

    @Test
    void nativeScanFiltersAndProjections() {
        checkNativeScan(nativeScanCase("native calc",
                "SELECT auction, bidder, price * 2 AS p2, ts FROM bids WHERE price > 50000 OR price IS NULL"), RECORDS, RECORDS, 0);
    }

    @Test
    void nativeScanTumbleOnPartitionWatermarks() {
        checkNativeScan(nativeScanCase("native tumble",
                "SELECT window_start, window_end, auction, COUNT(*) AS n, SUM(price) AS s, MAX(price) AS mx"
                        + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                        + " GROUP BY window_start, window_end, auction"), RECORDS, RECORDS, 0);
    }

    /**
     * Records the native decoder leaves to Flink (malformed JSON, Java-only number spellings,
     * duplicate keys, a container for a scalar, null values) between plain ones, with
     * 'json.ignore-parse-errors': Flink's deserializer decodes or skips them inside the native
     * scan, in record order.
     */
    @Test
    void nativeScanLeavesCornerCasesToFlink() throws Exception {
        String topic = "corner-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 2);
        String[] odd = {
            "{\"auction\":2,\"auction\":3,\"price\":5,\"ts\":\"2023-11-14 22:13:20\"}", // duplicate key
            "{\"auction\":\"0x10\",\"price\":6}", // not an int for Flink either
            "{\"auction\":4,\"price\":{\"a\":1},\"ts\":\"2023-11-14 22:13:21\"}", // object for a BIGINT
            "{\"auction\":5,\"price\":1e3,\"ts\":\"2023-11-14 22:13:22\"}", // float text for a BIGINT
            "[{\"auction\":6,\"price\":7},{\"auction\":7,\"price\":8}]", // an array: a row per element
            "not json at all",
        };
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        int plain = 0;
        int left = 0;
        int sure = 0;
        Random rnd = new Random(7);
        for (int i = 0; i < 400; i++) {
            int partition = i % 2;
            String value;
            if (i % 9 == 4) {
                int k = rnd.nextInt(odd.length);
                value = odd[k];
                left++;
                // Malformed, duplicate keys, a container for a scalar, an array: always Flink's.
                sure += k == 1 || k == 3 ? 0 : 1;
            } else {
                value = String.format(Locale.ROOT, "{\"auction\":%d,\"bidder\":%d,\"price\":%d,\"ts\":\"%s\"}",
                        rnd.nextInt(20), i, rnd.nextInt(1000), sqlTimestamp(1_700_000_000_000L + i * 100L));
                plain++;
            }
            records.add(KafkaBroker.record(topic, partition, 1_700_000_000_000L + i, null, value));
        }
        // A record without a value (a tombstone): no row, in both engines.
        records.add(KafkaBroker.record(topic, 0, 1_700_000_000_500L, null, null));
        plain++;
        KafkaBroker.produce(records);
        // The offsets of the rows Flink's deserializer makes come with them, the others' from Go.
        ParityCase c = ParityCase.of("corner cases", "SELECT auction, bidder, price, ts, `offset` FROM bids", Map.of())
                .withDdl(nativeBidsTable(topic, ", 'json.ignore-parse-errors' = 'true'")
                        .replace("ts TIMESTAMP(3),", "ts TIMESTAMP(3), `offset` BIGINT METADATA VIRTUAL,"))
                .withParallelism(2).asMultiset();
        checkNativeScan(c, plain + left, plain, sure);
    }

    /**
     * Null rows: the json format collects one for a structurally broken record under
     * 'json.ignore-parse-errors' and for a null array element. Stock Flink throws on it in the
     * next operator, inside the format's own try, which skips the rest of the record (or, without
     * the option, fails the job on the null array element); the native scan does the same.
     */
    @ParameterizedTest(name = "json.ignore-parse-errors: {0}")
    @ValueSource(booleans = {true, false})
    void nativeScanNullRows(boolean ignoreParseErrors) throws Exception {
        String topic = "null-rows-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String row = String.format(Locale.ROOT, "{\"auction\":%d,\"price\":%d,\"ts\":\"%s\"}",
                    i, i * 10, sqlTimestamp(1_700_000_000_000L + i * 100L));
            String value = i == 30 && ignoreParseErrors ? "{\"auction\":1,\"price\":1"
                    : i == 40 ? "[" + row + ",null," + row.replace("\"auction\":40", "\"auction\":400") + "]"
                    : row;
            records.add(KafkaBroker.record(topic, 0, 1_700_000_000_000L + i, null, value));
        }
        KafkaBroker.produce(records);
        ParityCase c = ParityCase.of("null rows", "SELECT auction, price * 2 FROM bids WHERE price > 10", Map.of())
                .withDdl(nativeBidsTable(topic, ignoreParseErrors ? ", 'json.ignore-parse-errors' = 'true'" : ""));
        if (ignoreParseErrors) {
            checkNativeScan(c, 50, 48, 2);
        } else {
            long natively = FetchEmitter.recordsDecodedNatively();
            ParityHarness.check(c.fails("Failed to deserialize JSON"));
            assertTrue(FetchEmitter.recordsDecodedNatively() > natively, "the native scan decoded no record");
        }
    }

    static ParityCase kafkaCase(String name, String query) {
        return ParityCase.of(name, query, Map.of()).withDdl(bidsTable(bids)).withParallelism(2).asMultiset();
    }

    /** Checks a case, and that Sluice's run processed batches natively (its rows come from Kafka, not table t). */
    static void check(ParityCase c) {
        ParityHarness.Outcome stock = ParityHarness.run(c, false);
        assertFalse(stock.failed(), () -> c.name() + ": stock Flink failed: " + stock.failure());
        assertFalse(stock.rows().isEmpty(), c.name() + ": stock Flink returned no rows: the case tests nothing");
        long before = ParityHarness.nativeBatches();
        ParityHarness.check(c);
        assertTrue(ParityHarness.nativeBatches() > before, c.name() + ": the plan was native but no batch ran natively");
    }

    @Test
    void filtersAndProjections() {
        check(kafkaCase("calc",
                "SELECT auction, bidder, price * 2 AS p2, ts FROM bids WHERE price > 50000 OR price IS NULL"));
    }

    /** The bids with every metadata column the native scan reads, and event time from the records' timestamps. */
    static String metadataBidsTable(String topic) {
        return "CREATE TABLE bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3),"
                + " `partition` INT METADATA VIRTUAL, `offset` BIGINT METADATA VIRTUAL,"
                + " kts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', `topic` STRING METADATA VIRTUAL,"
                + " tstype STRING METADATA FROM 'timestamp-type' VIRTUAL, epoch INT METADATA FROM 'leader-epoch' VIRTUAL,"
                + " WATERMARK FOR kts AS kts - INTERVAL '1' SECOND) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";
    }

    /** Metadata columns on the native scan: every record decoded in Go, its metadata beside it. */
    @Test
    void metadataColumns() {
        checkNativeScan(ParityCase.of("metadata", "SELECT `partition`, `offset`, kts, auction, `topic`, tstype, epoch FROM bids",
                Map.of()).withDdl(metadataBidsTable(bids)).withParallelism(2).asMultiset(), RECORDS, RECORDS, 0);
    }

    /** An INSERT into a keyed topic: json keys with a prefix, csv values without the key's fields. */
    @Test
    void insertKeyedRecords() throws Exception {
        checkInsert(nativeBidsTable(bids, ""), "k_auction INT, n BIGINT, s BIGINT, k_end TIMESTAMP(3)",
                "'key.format' = 'json', 'key.fields' = 'k_auction;k_end', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY'",
                "INSERT INTO out_t SELECT auction, COUNT(*), SUM(price), window_end FROM TABLE("
                        + "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, auction",
                false);
    }

    /** An INSERT writing the records' timestamps (the 'timestamp' metadata column), compared with stock Flink's. */
    @Test
    void insertRecordTimestamps() throws Exception {
        checkInsert(nativeBidsTable(bids, ""), "auction INT, n BIGINT, wt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'",
                "'format' = 'json'",
                "INSERT INTO out_t SELECT auction, COUNT(*), CAST(window_end AS TIMESTAMP_LTZ(3)) FROM TABLE("
                        + "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, auction",
                false);
    }

    /**
     * A topic of Avro records (written by stock Flink's avro format from the bids, decimals,
     * strings, timestamps and NULLs among them), read by the native scan with avro keys.
     */
    @Test
    void avroRecords() throws Exception {
        String topic = "avro-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 3);
        String avroTable = "CREATE TABLE av (auction INT, bidder BIGINT NOT NULL, price DECIMAL(12, 2), note STRING,"
                + " ts TIMESTAMP(3), dt DATE, flag BOOLEAN, ratio DOUBLE, f FLOAT) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'avro', 'key.fields' = 'auction',"
                + " 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY')";
        ParityCase writer = ParityCase.of("avro writer", "", Map.of()).withDdl(nativeBidsTable(bids, "")).withDdl(avroTable);
        ParityHarness.newEnv(writer, false).executeSql("INSERT INTO av SELECT auction, bidder,"
                + " CAST(price AS DECIMAL(12, 2)) / 100, CASE WHEN MOD(bidder, 7) = 0 THEN NULL ELSE CONCAT('n', CAST(bidder AS STRING), 'é') END,"
                + " ts, CAST(ts AS DATE), MOD(bidder, 2) = 0, bidder / 3.0E0, CAST(bidder AS FLOAT) / 7 FROM bids").await();
        checkNativeScan(ParityCase.of("avro", "SELECT auction, bidder, price, note, ts, dt, flag, ratio, f FROM av", Map.of())
                .withDdl(avroTable).withParallelism(2).asMultiset(), RECORDS, RECORDS, 0);
    }

    /** An INSERT into avro keys and values, written by Go byte for byte as Flink's serializer. */
    @Test
    void insertAvroRecords() throws Exception {
        checkInsert(nativeBidsTable(bids, ""), "auction INT, n BIGINT NOT NULL, s DECIMAL(20, 2), last_ts TIMESTAMP(3), note STRING",
                "'key.format' = 'avro', 'key.fields' = 'auction', 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY'",
                "INSERT INTO out_t SELECT auction, COUNT(*), CAST(SUM(price) AS DECIMAL(20, 2)) / 3, MAX(ts),"
                        + " CONCAT('a', CAST(auction AS STRING), 'é') FROM TABLE("
                        + "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, auction",
                false);
    }

    /** The bids' keys (the auction as text) read with the raw format into their own column. */
    @Test
    void rawKeysExceptKey() {
        String ddl = "CREATE TABLE bids (k STRING, auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3),"
                + " `offset` BIGINT METADATA VIRTUAL) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + bids + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'raw', 'key.fields' = 'k',"
                + " 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')";
        checkNativeScan(ParityCase.of("raw keys", "SELECT k, auction, CAST(auction AS STRING) = k AS same, price, `offset` FROM bids",
                Map.of()).withDdl(ddl).withParallelism(2).asMultiset(), RECORDS, RECORDS, 0);
    }

    /** JSON keys with a prefix, some records without a key (no row in Flink, nor natively). */
    @Test
    void jsonKeysWithPrefix() throws Exception {
        String topic = "keyed-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 2);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Random rnd = new Random(3);
        int keyless = 0;
        for (int i = 0; i < 500; i++) {
            int auction = rnd.nextInt(30);
            String key = i % 25 == 7 ? null : String.format(Locale.ROOT, "{\"auction\":%d,\"region\":\"r%d\"}", auction, auction % 3);
            keyless += key == null ? 1 : 0;
            String value = String.format(Locale.ROOT, "{\"price\":%d,\"ts\":\"%s\"}",
                    rnd.nextInt(1000), sqlTimestamp(1_700_000_000_000L + i * 100L));
            records.add(KafkaBroker.record(topic, i % 2, 1_700_000_000_000L + i, key, value));
        }
        KafkaBroker.produce(records);
        String ddl = "CREATE TABLE bids (k_auction INT, k_region STRING, price BIGINT, ts TIMESTAMP(3)) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'key.fields' = 'k_auction;k_region',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')";
        // A record without a key makes no row in Flink (its json key has none): natively too.
        assertTrue(keyless > 0, "no record without a key");
        checkNativeScan(ParityCase.of("json keys", "SELECT k_auction, k_region, price, ts FROM bids", Map.of())
                .withDdl(ddl).withParallelism(2).asMultiset(), 500, 500, 0);
    }

    /** The key's field in the value too ('value.fields-include' = 'ALL'): the value's wins. */
    @Test
    void rawKeyAlsoInTheValue() {
        String ddl = "CREATE TABLE bids (auction STRING, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + bids + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'raw', 'key.fields' = 'auction',"
                + " 'value.format' = 'json', 'value.fields-include' = 'ALL')";
        checkNativeScan(ParityCase.of("raw key in the value", "SELECT auction, bidder, price FROM bids", Map.of())
                .withDdl(ddl).withParallelism(2).asMultiset(), RECORDS, RECORDS, 0);
    }

    /** Event time from the records' timestamps (a metadata column), per partition, natively. */
    @Test
    void tumbleOnRecordTimestamps() {
        checkNativeScan(ParityCase.of("tumble on kts",
                "SELECT window_start, window_end, `partition`, COUNT(*) AS n, SUM(price) AS s, MAX(`offset`) AS mo"
                        + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(kts), INTERVAL '10' SECOND))"
                        + " GROUP BY window_start, window_end, `partition`", Map.of())
                .withDdl(metadataBidsTable(bids)).withParallelism(2).asMultiset(), RECORDS, RECORDS, 0);
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
        checkInsert(bidsTable(bids), false);
    }

    /**
     * The INSERT from the native scan, with three failures injected into Sluice's run (restarts
     * from checkpoints, offsets restored into the native scan): the topic's committed records
     * are exactly stock Flink's failure-free ones, none lost, none duplicated.
     */
    @Test
    void nativeScanInsertIntoKafkaExactlyOnceWithFailures() throws Exception {
        long natively = FetchEmitter.recordsDecodedNatively();
        long opened = NativeChainOperator.PIPELINES_OPENED.get();
        checkInsert(nativeBidsTable(bids, ", 'properties.max.poll.records' = '50'"), true);
        assertTrue(NativeChainOperator.PIPELINES_OPENED.get() - opened >= 4,
                "three failures should have restarted the native chain three times");
        assertTrue(FetchEmitter.recordsDecodedNatively() - natively >= RECORDS, "the native scan decoded no records");
    }

    static void checkInsert(String bidsDdl, boolean injectFailures) throws Exception {
        checkInsert(bidsDdl, "auction INT, n BIGINT, s BIGINT", "'format' = 'json'",
                "INSERT INTO out_t SELECT auction, COUNT(*), SUM(price) FROM TABLE("
                        + "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, auction",
                injectFailures);
    }

    /**
     * Runs the same INSERT into a Kafka table out_t (its columns and format options given) on
     * stock Flink and, natively, on Sluice, each into a topic of its own, exactly once with
     * checkpoints every 200 ms (and failures injected into Sluice's run if asked): the committed
     * records (read_committed) must be the same, values compared byte for byte (a record without
     * a value as such), and Sluice's must all have been encoded in Go.
     */
    static void checkInsert(String sourceDdl, String sinkColumns, String sinkFormat, String insert, boolean injectFailures)
            throws Exception {
        checkWrite(new Write(sourceDdl, "kafka", sinkColumns, sinkFormat, insert, 2, injectFailures, false, true));
    }

    /**
     * An INSERT into a Kafka table out_t run on both engines by {@link #checkWrite}: the table's
     * connector, columns and options, the job's parallelism, whether failures are injected into
     * Sluice's run, whether the records are compared in their order in each partition (else as a
     * multiset, each key's records in their order), and whether Go encodes them (else Flink's sink writes the chain's rows, and the
     * verdict says why).
     */
    record Write(String sourceDdl, String connector, String sinkColumns, String sinkOptions, String insert,
            int parallelism, boolean injectFailures, boolean ordered, boolean nativeSink) {}

    /**
     * Runs an INSERT into a Kafka table on stock Flink and on Sluice (its plan native), each into
     * a topic of its own, exactly once with checkpoints every 200 ms: the committed records
     * (read_committed) must be the same, keys and values compared byte for byte (a record without
     * a value as such), and with a native sink Sluice's must all have been encoded in Go. Returns
     * the records, as "p&lt;partition&gt; key =&gt; value" (or the value alone without a key).
     */
    static List<String> checkWrite(Write w) throws Exception {
        List<String> out = new ArrayList<>();
        List<String> records = null;
        for (boolean sluice : new boolean[] {false, true}) {
            String topic = "out-" + UUID.randomUUID();
            KafkaBroker.createTopic(topic, 2);
            ParityCase c = ParityCase.of("insert", "", Map.of()).withDdl(w.sourceDdl()).withParallelism(w.parallelism()).asMultiset()
                    .withDdl("CREATE TABLE out_t (" + w.sinkColumns() + ") WITH ("
                    + " 'connector' = '" + w.connector() + "', 'topic' = '" + topic + "',"
                    + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                    + " 'properties.transaction.timeout.ms' = '600000',"
                    + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + topic + "',"
                    + " " + w.sinkOptions() + ")")
                    .with("execution.checkpointing.interval", "200ms");
            StreamTableEnvironment tEnv = ParityHarness.newEnv(c, sluice);
            if (sluice) {
                if (w.injectFailures()) {
                    ParityHarness.injectFailures(tEnv, 3, 20);
                }
                Verdict verdict = Sluice.verdict(tEnv, w.insert());
                assertTrue(verdict.isNative(), () -> "expected native, got\n" + verdict);
                boolean edge = verdict.edgeNotes().stream().anyMatch(n -> n.contains("out_t"));
                assertEquals(!w.nativeSink(), edge, () -> (w.nativeSink() ? "expected the sink encoded natively" : "expected Flink's sink")
                        + ", got\n" + verdict);
            }
            long before = ParityHarness.nativeBatches();
            long encodedBefore = KafkaNativeSink.recordsEncoded();
            tEnv.executeSql(w.insert()).await();
            long batches = ParityHarness.nativeBatches() - before;
            long encoded = KafkaNativeSink.recordsEncoded() - encodedBefore;
            List<String> values = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaBroker.records(topic)) {
                // ISO-8859-1 keeps every byte: keys and values are compared exactly. A keyed
                // record's partition is its key's (the producer's hash), the same in both runs.
                String value = r.value() == null ? "<no value>" : new String(r.value(), StandardCharsets.ISO_8859_1);
                if (w.sinkColumns().contains("METADATA FROM 'timestamp'")) {
                    value = "t" + r.timestamp() + " " + value; // the records' own timestamps
                }
                values.add(r.key() == null ? value
                        : "p" + r.partition() + " " + new String(r.key(), StandardCharsets.ISO_8859_1) + " => " + value);
            }
            if (sluice) {
                assertTrue(batches > 0, "the INSERT ran no native batch");
                if (w.nativeSink()) {
                    // Every committed record was encoded in Go (more were, in attempts that failed).
                    assertTrue(encoded >= values.size() && encoded > 0,
                            encoded + " records encoded natively for " + values.size() + " in the topic");
                } else {
                    assertEquals(0, encoded, "records encoded natively for Flink's sink");
                }
            } else {
                assertEquals(0, batches, "stock Flink ran native batches");
                assertEquals(0, encoded, "stock Flink encoded records natively");
                records = List.copyOf(values);
            }
            if (!w.ordered()) {
                // As a multiset, but a keyed record stays in its key's order (a key's records
                // are in one partition, in the order they were written): the sort is stable and
                // compares keyed records by their partition and key only.
                values.sort((a, b) -> {
                    int ka = a.indexOf(" => ");
                    int kb = b.indexOf(" => ");
                    return ka < 0 || kb < 0 ? a.compareTo(b) : a.substring(0, ka).compareTo(b.substring(0, kb));
                });
            }
            out.add(String.join("\n", values));
        }
        assertFalse(out.get(0).isEmpty(), "stock Flink wrote nothing: the case tests nothing");
        assertEquals(out.get(0), out.get(1), "the topics written by stock Flink and by Sluice differ");
        return records;
    }
}
