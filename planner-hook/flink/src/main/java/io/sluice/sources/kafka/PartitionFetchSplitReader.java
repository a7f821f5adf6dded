package io.sluice.sources.kafka;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Flink's Kafka split reader, whose fetches come out as one {@link PartitionFetch} per partition
 * instead of one element per record. Everything else is Flink's: the consumer and its polls,
 * split assignment, starting and stopping offsets (a record at or past a bounded split's stopping
 * offset is left out, as Flink's reader leaves it out), finished splits, and the offset commits
 * on completed checkpoints (Flink's fetcher manager finds a {@link KafkaPartitionSplitReader}).
 */
public class PartitionFetchSplitReader extends KafkaPartitionSplitReader {

    public PartitionFetchSplitReader(Properties props, SourceReaderContext context, KafkaSourceReaderMetrics metrics) {
        super(props, context, metrics);
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched = super.fetch();
        Map<String, PartitionFetch> bySplit = new LinkedHashMap<>();
        String split;
        while ((split = fetched.nextSplit()) != null) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            ConsumerRecord<byte[], byte[]> r;
            while ((r = fetched.nextRecordFromSplit()) != null) {
                records.add(r);
            }
            if (!records.isEmpty()) {
                bySplit.put(split, new PartitionFetch(records));
            }
        }
        Set<String> finished = fetched.finishedSplits();
        fetched.recycle();
        return new Fetches(bySplit, finished);
    }

    /** A fetch as one element per split. */
    private static final class Fetches implements RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> {
        private final Iterator<Map.Entry<String, PartitionFetch>> splits;
        private final Set<String> finished;
        private PartitionFetch current;

        Fetches(Map<String, PartitionFetch> bySplit, Set<String> finished) {
            this.splits = bySplit.entrySet().iterator();
            this.finished = finished;
        }

        @Override
        public String nextSplit() {
            if (!splits.hasNext()) {
                current = null;
                return null;
            }
            Map.Entry<String, PartitionFetch> e = splits.next();
            current = e.getValue();
            return e.getKey();
        }

        @Override
        public ConsumerRecord<byte[], byte[]> nextRecordFromSplit() {
            PartitionFetch f = current;
            current = null;
            return f;
        }

        @Override
        public Set<String> finishedSplits() {
            return finished;
        }
    }
}
