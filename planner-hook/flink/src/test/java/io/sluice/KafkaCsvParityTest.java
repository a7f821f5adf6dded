package io.sluice;

import io.sluice.testing.KafkaBroker;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;
import io.sluice.sources.kafka.FetchEmitter;

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
 * Kafka tables in the csv format against stock Flink on a real broker: a topic of bids as CSV
 * lines ('|'-delimited, some fields quoted, a null literal, now and then a line the native
 * decoder leaves to Flink's deserializer), read by the native scan into an event-time TUMBLE
 * aggregation on per-partition watermarks; malformed lines skipped under
 * 'csv.ignore-parse-errors' or failing both engines alike without it.
 */
class KafkaCsvParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int RECORDS = 3000;
    static String bids;
    /** The records the native decoder leaves to Flink (all well-formed for Flink). */
    static int odd;

    @BeforeAll
    static void writeBids() throws Exception {
        bids = "csv-bids-" + UUID.randomUUID();
        KafkaBroker.createTopic(bids, 4);
        Random rnd = new Random(5);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        long start = 1_700_000_000_000L;
        String[] notes = {"plain", "with|pipe", "say \"hi\"", "it's", "é漢😀", "", " padded "};
        for (int i = 0; i < RECORDS; i++) {
            long ts = start + i * 37L - rnd.nextInt(900);
            String price = rnd.nextInt(20) == 0 ? "NULL" : Long.toString(rnd.nextInt(100_000));
            String note = notes[rnd.nextInt(notes.length)];
            String quotedNote = "'" + note.replace("'", "''") + "'";
            String value;
            switch (rnd.nextInt(25)) {
                case 0: // a leading zero and blanks: Long.parseLong(text.trim()), in Go too
                    value = String.format(Locale.ROOT, "%d| 0%s |%s|%s", 1000 + rnd.nextInt(40), price.equals("NULL") ? "7" : price,
                            KafkaParityTest.sqlTimestamp(ts), quotedNote);
                    break;
                case 1: // a trailing delimiter: Jackson reads an extra empty value and drops it; left to Flink
                    value = String.format(Locale.ROOT, "%d|%s|%s|%s|", 1000 + rnd.nextInt(40), price,
                            KafkaParityTest.sqlTimestamp(ts), quotedNote);
                    odd++;
                    break;
                default:
                    value = String.format(Locale.ROOT, "%d|%s|%s|%s", 1000 + rnd.nextInt(40), price,
                            KafkaParityTest.sqlTimestamp(ts), note.contains("|") || note.contains("'") || rnd.nextBoolean()
                                    ? quotedNote : note);
            }
            records.add(KafkaBroker.record(bids, i % 4, ts + 5, null, value));
        }
        KafkaBroker.produce(records);
    }

    static String csvTable(String topic, String extraOptions) {
        return "CREATE TABLE bids (auction INT, price BIGINT, ts TIMESTAMP(3), note STRING,"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv', 'csv.field-delimiter' = '|',"
                + " 'csv.quote-character' = '''', 'csv.null-literal' = 'NULL'" + extraOptions + ")";
    }

    @Test
    void tumbleOnPartitionWatermarks() {
        ParityCase c = ParityCase.of("csv tumble",
                "SELECT window_start, window_end, auction, COUNT(*) AS n, SUM(price) AS s, MAX(note) AS mx,"
                        + " COUNT(DISTINCT note) AS notes"
                        + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                        + " GROUP BY window_start, window_end, auction", Map.of())
                .withDdl(csvTable(bids, "")).withParallelism(2).asMultiset();
        KafkaParityTest.checkNativeScan(c, RECORDS, RECORDS - odd, odd);
    }

    @Test
    void projections() {
        ParityCase c = ParityCase.of("csv calc", "SELECT auction, price * 2 AS p2, ts, note, CHAR_LENGTH(note) AS n FROM bids"
                        + " WHERE price IS NULL OR price > 50000", Map.of())
                .withDdl(csvTable(bids, "")).withParallelism(2).asMultiset();
        KafkaParityTest.checkNativeScan(c, RECORDS, RECORDS - odd, odd);
    }

    /** Malformed lines between plain ones, skipped by Flink's deserializer under ignore-parse-errors. */
    @Test
    void malformedLinesIgnored() throws Exception {
        String topic = "csv-malformed-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 2);
        String[] malformed = {"1|x|2023-11-14 22:13:20|a", "2|3", "3|4|not a time|b", "'4|5|2023-11-14 22:13:20|c",
            "5|6|2023-11-14 22:13:20|d|e|f"};
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        int bad = 0;
        for (int i = 0; i < 400; i++) {
            String value = i % 7 == 3 ? malformed[bad++ % malformed.length]
                    : String.format(Locale.ROOT, "%d|%d|%s|n%d", i % 20, i * 3, KafkaParityTest.sqlTimestamp(1_700_000_000_000L + i * 100L), i);
            records.add(KafkaBroker.record(topic, i % 2, 1_700_000_000_000L + i, null, value));
        }
        KafkaBroker.produce(records);
        ParityCase c = ParityCase.of("csv malformed", "SELECT auction, price, ts, note FROM bids", Map.of())
                .withDdl(csvTable(topic, ", 'csv.ignore-parse-errors' = 'true'")).withParallelism(2).asMultiset();
        KafkaParityTest.checkNativeScan(c, 400, 400 - bad, bad);
    }

    /** A malformed line without ignore-parse-errors fails both engines with Flink's error. */
    @Test
    void malformedLineFails() throws Exception {
        String topic = "csv-failing-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String value = i == 70 ? "70|seventy|2023-11-14 22:13:20|x"
                    : String.format(Locale.ROOT, "%d|%d|%s|n", i, i, KafkaParityTest.sqlTimestamp(1_700_000_000_000L + i * 100L));
            records.add(KafkaBroker.record(topic, 0, 1_700_000_000_000L + i, null, value));
        }
        KafkaBroker.produce(records);
        long natively = FetchEmitter.recordsDecodedNatively();
        ParityHarness.check(ParityCase.of("csv failing", "SELECT auction, price + 1 FROM bids", Map.of())
                .withDdl(csvTable(topic, "")).fails("Failed to deserialize CSV row"));
        assertTrue(FetchEmitter.recordsDecodedNatively() > natively, "the native scan decoded no record");
    }

    /**
     * The TUMBLE aggregation into a csv topic, written by the native sink with failures injected
     * into Sluice's run: the committed records (decimals, doubles, timestamps and quoted texts)
     * must be stock Flink's byte for byte.
     */
    @Test
    void insertIntoCsvExactlyOnceWithFailures() throws Exception {
        KafkaParityTest.checkInsert(csvTable(bids, ", 'properties.max.poll.records' = '100'"),
                "ws TIMESTAMP(3), auction INT, n BIGINT, avg_price DOUBLE, total DECIMAL(20, 2), notes STRING",
                "'format' = 'csv', 'csv.null-literal' = 'n/a'",
                "INSERT INTO out_t SELECT window_start, auction, COUNT(*), AVG(CAST(price AS DOUBLE)),"
                        + " CAST(SUM(price) AS DECIMAL(20, 2)) / 7, MAX(note)"
                        + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                        + " GROUP BY window_start, window_end, auction", true);
    }
}
