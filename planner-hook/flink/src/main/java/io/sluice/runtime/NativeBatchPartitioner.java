package io.sluice.runtime;

import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.ConfigurableStreamPartitioner;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The partitioner of a columnar hash exchange. Go has already computed every row's key group
 * exactly as Flink's KeyGroupStreamPartitioner does and split the producer's batch into one
 * {@link NativeBatch} per target channel; this partitioner sends each batch to its channel. Like
 * Flink's hash partitioner it maps key groups to subtasks by ranges when the consumer is
 * rescaled. In-flight batches cannot be split again after a rescale, so the edge takes aligned
 * checkpoints (Flink then aligns the consumer's inputs even when unaligned checkpoints are on).
 */
public final class NativeBatchPartitioner extends StreamPartitioner<NativeBatch>
        implements ConfigurableStreamPartitioner {
    private static final long serialVersionUID = 1L;

    private int maxParallelism;

    public NativeBatchPartitioner() {
        disableUnalignedCheckpoints();
    }

    @Override
    public int selectChannel(SerializationDelegate<StreamRecord<NativeBatch>> record) {
        NativeBatch batch = record.getInstance().getValue();
        if (batch.channels() != numberOfChannels || batch.channel() < 0 || batch.channel() >= numberOfChannels) {
            throw new IllegalStateException("columnar exchange: " + batch + " was split for channel "
                    + batch.channel() + " of " + batch.channels() + ", the edge has " + numberOfChannels
                    + " channels");
        }
        return batch.channel();
    }

    /** The number of key groups of the consumer (Flink configures it when the task starts). */
    public int maxParallelism() {
        return maxParallelism;
    }

    @Override
    public void configure(int maxParallelism) {
        this.maxParallelism = maxParallelism;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.RANGE;
    }

    @Override
    public StreamPartitioner<NativeBatch> copy() {
        NativeBatchPartitioner p = new NativeBatchPartitioner();
        p.maxParallelism = maxParallelism;
        p.setup(numberOfChannels);
        return p;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public String toString() {
        return "HASH[native]";
    }
}
