package io.sluice;

import io.sluice.testing.KafkaBroker;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.kafka.clients.producer.ProducerRecord;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changes written into upsert-kafka tables against stock Flink on a real broker: aggregations
 * over a topic of JSON bids, exactly once, their +I/+U records keyed by the primary key and their
 * -D (and -U) written as tombstones, by Go from the native chain's batches, and the same
 * committed records in both engines' topics.
 */
class KafkaUpsertParityTest {
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
