package io.sluice.sources.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;

/**
 * All records one fetch of Flink's Kafka split reader returned for one partition, in offset
 * order, as one element of the source: what the native decoding takes in one call. It is a
 * {@link ConsumerRecord} (of the partition, at the last record's offset) so that it travels
 * through the Kafka source's reader, whose element type that is; the emitter that takes it sets
 * the split's offset to the last record's plus one, so that a checkpoint between two elements
 * holds exactly the offset stock Flink's would after the same records.
 */
public final class PartitionFetch extends ConsumerRecord<byte[], byte[]> {
    private final List<ConsumerRecord<byte[], byte[]>> records;

    PartitionFetch(List<ConsumerRecord<byte[], byte[]>> records) {
        super(records.get(0).topic(), records.get(0).partition(), records.get(records.size() - 1).offset(), null, null);
        this.records = List.copyOf(records);
    }

    /** The partition's records of the fetch, in offset order (at least one). */
    public List<ConsumerRecord<byte[], byte[]>> records() {
        return records;
    }

    /** The offset the partition resumes from after these records. */
    public long nextOffset() {
        return offset() + 1;
    }
}
