package io.sluice.sinks.iceberg;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * Flink's v2 Iceberg sink ({@link IcebergSink}, 'table.exec.iceberg.use-v2-sink') with native
 * data files: the connector's own sink, built as its table sink builds it, provides the
 * pre-commit aggregator (manifests), the committer (one commit per checkpoint, skipped when the
 * snapshot summary already has the job's checkpoint) and the post-commit maintenance; only its
 * writer is replaced, by one that takes native batches and hands over the same
 * {@link WriteResult}s.
 */
final class NativeIcebergSink<C>
        implements Sink<NativeBatch>,
                SupportsCommitter<C>,
                SupportsPreCommitTopology<WriteResult, C>,
                SupportsPostCommitTopology<C> {
    private static final long serialVersionUID = 1L;

    /** The connector's sink; C is its (package-private) IcebergCommittable. */
    private final IcebergSink connector;
    private final TaskWriterFactory<NativeBatch> files;

    NativeIcebergSink(IcebergSink connector, TaskWriterFactory<NativeBatch> files) {
        this.connector = connector;
        this.files = files;
    }

    @SuppressWarnings("unchecked")
    private SupportsCommitter<C> committer() {
        return (SupportsCommitter<C>) (Object) connector;
    }

    @SuppressWarnings("unchecked")
    private SupportsPreCommitTopology<WriteResult, C> preCommit() {
        return (SupportsPreCommitTopology<WriteResult, C>) (Object) connector;
    }

    @SuppressWarnings("unchecked")
    private SupportsPostCommitTopology<C> postCommit() {
        return (SupportsPostCommitTopology<C>) (Object) connector;
    }

    @Override
    public SinkWriter<NativeBatch> createWriter(WriterInitContext context) {
        files.initialize(context.getTaskInfo().getIndexOfThisSubtask(), context.getTaskInfo().getAttemptNumber());
        return new Writer(files);
    }

    @Override
    public Committer<C> createCommitter(CommitterInitContext context) throws java.io.IOException {
        return committer().createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<C> getCommittableSerializer() {
        return committer().getCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<C>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> writeResults) {
        return preCommit().addPreCommitTopology(writeResults);
    }

    @Override
    public SimpleVersionedSerializer<WriteResult> getWriteResultSerializer() {
        return preCommit().getWriteResultSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<C>> committables) {
        postCommit().addPostCommitTopology(committables);
    }

    /** As the connector's IcebergSinkWriter: one WriteResult of the files written per checkpoint. */
    private static final class Writer implements CommittingSinkWriter<NativeBatch, WriteResult> {
        private final TaskWriterFactory<NativeBatch> files;
        private TaskWriter<NativeBatch> writer;

        Writer(TaskWriterFactory<NativeBatch> files) {
            this.files = files;
            this.writer = files.create();
        }

        @Override
        public void write(NativeBatch batch, Context context) throws IOException {
            writer.write(batch);
        }

        @Override
        public void flush(boolean endOfInput) {
            // files are completed in prepareCommit, as the connector's writer does
        }

        @Override
        public Collection<WriteResult> prepareCommit() throws IOException {
            WriteResult result = writer.complete();
            writer = files.create();
            return List.of(result);
        }

        @Override
        public void close() throws Exception {
            if (writer != null) {
                writer.close();
            }
        }
    }
}
