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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka tables in the raw format against stock Flink on a real broker: a topic of text lines
 * (with empty values and records without a value among them) and one of little-endian BIGINTs,
 * read by the native scan (Go decodes the values; the records it cannot tell from a null value
 * go to Flink's deserializer), a value of the wrong length failing both engines alike, and
 * INSERTs into raw topics encoded in Go (a NULL field a record without a value), exactly once.
 */
class KafkaRawParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int RECORDS = 2000;
    static String lines;
    static String longs;
    /** The records of the lines topic without a value, or with an empty one. */
    static int emptyLines;

    @BeforeAll
    static void writeTopics() throws Exception {
        lines = "lines-" + UUID.randomUUID();
        longs = "longs-" + UUID.randomUUID();
        KafkaBroker.createTopic(lines, 4);
        KafkaBroker.createTopic(longs, 4);
        Random rnd = new Random(11);
        String[] words = {"bid", "Auktion", "enchère", "入札", "😀", "x", " "};
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            String value;
            switch (rnd.nextInt(40)) {
                case 0:
                    value = null;
                    emptyLines++;
                    break;
                case 1:
                    value = "";
                    emptyLines++;
                    break;
                default:
                    value = (1000 + rnd.nextInt(30)) + "," + words[rnd.nextInt(words.length)] + "," + rnd.nextInt(100_000);
            }
            records.add(KafkaBroker.record(lines, i % 4, 1_700_000_000_000L + i, null, value));
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(longs, i % 4, 1_700_000_000_000L + i, null,
                    ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(rnd.nextLong(-1_000_000, 1_000_000)).array());
            records.add(r);
        }
        KafkaBroker.produce(records);
    }

    static String rawTable(String name, String column, String topic, String formatOptions) {
        return "CREATE TABLE " + name + " (" + column + ") WITH ("
                + " 'connector' = 'kafka', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + KafkaBroker.bootstrap() + "',"
                + " 'properties.group.id' = 'sluice-tests', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw'" + formatOptions + ")";
    }

    static final String LINES = rawTable("lines", "line STRING", "%s", "");
    static final String LONGS = rawTable("longs", "v BIGINT", "%s", ", 'raw.endianness' = 'little-endian'");

    @Test
    void stringLines() {
        ParityCase c = ParityCase.of("raw lines",
                "SELECT line, CHAR_LENGTH(line) AS n, UPPER(line) AS u, SPLIT_INDEX(line, ',', 1) AS w FROM lines"
                        + " WHERE line IS NULL OR line <> '1000,x,1'", Map.of())
                .withDdl(String.format(LINES, lines)).withParallelism(2).asMultiset();
        KafkaParityTest.checkNativeScan(c, RECORDS, RECORDS - emptyLines, emptyLines);
    }

    @Test
    void littleEndianLongsAggregated() {
        ParityCase c = ParityCase.of("raw longs",
                "SELECT MOD(v, 7) AS k, COUNT(*) AS n, SUM(v) AS s, MIN(v) AS mn FROM longs GROUP BY MOD(v, 7)", Map.of())
                .withDdl(String.format(LONGS, longs)).withParallelism(2);
        KafkaParityTest.checkNativeScan(c, RECORDS, RECORDS, 0);
    }

    /** A value of the wrong length for BIGINT fails both engines with Flink's error. */
    @Test
    void wrongLengthFails() throws Exception {
        String topic = "short-longs-" + UUID.randomUUID();
        KafkaBroker.createTopic(topic, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            byte[] v = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(i).array();
            records.add(new ProducerRecord<>(topic, 0, 1_700_000_000_000L + i, null, i == 60 ? new byte[] {1, 2, 3} : v));
        }
        KafkaBroker.produce(records);
        long natively = FetchEmitter.recordsDecodedNatively();
        ParityHarness.check(ParityCase.of("wrong length", "SELECT v * 2 FROM longs", Map.of())
                .withDdl(String.format(LONGS, topic))
                .fails("Size of data received for deserializing BIGINT type is not 8."));
        assertTrue(FetchEmitter.recordsDecodedNatively() > natively, "the native scan decoded no record");
    }

    /** Lines into a raw STRING topic, a NULL field for some: records without a value. */
    @Test
    void insertStrings() throws Exception {
        KafkaParityTest.checkInsert(String.format(LINES, lines), "s STRING", "'format' = 'raw'",
                "INSERT INTO out_t SELECT CASE WHEN CHAR_LENGTH(line) > 12 THEN NULL ELSE CONCAT(UPPER(line), '|') END"
                        + " FROM lines", false);
    }

    /** Longs into a raw big-endian DOUBLE topic, with failures injected into Sluice's run. */
    @Test
    void insertDoublesExactlyOnceWithFailures() throws Exception {
        KafkaParityTest.checkInsert(String.format(LONGS, longs).replace("'raw.endianness' = 'little-endian'",
                "'raw.endianness' = 'little-endian', 'properties.max.poll.records' = '50'"),
                "d DOUBLE", "'format' = 'raw', 'raw.endianness' = 'big-endian'",
                "INSERT INTO out_t SELECT CASE WHEN MOD(v, 5) = 0 THEN NULL ELSE v / 3.0E0 END FROM longs", true);
    }
}
