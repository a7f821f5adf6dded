package io.sluice.sources.adbc;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Queue;

/** Hands an ADBC scan's splits to the readers that ask, one at a time. */
final class AdbcSplitEnumerator implements SplitEnumerator<AdbcSplit, Collection<AdbcSplit>> {
    private final SplitEnumeratorContext<AdbcSplit> context;
    private final Queue<AdbcSplit> remaining;

    AdbcSplitEnumerator(SplitEnumeratorContext<AdbcSplit> context, Collection<AdbcSplit> splits) {
        this.context = context;
        this.remaining = new ArrayDeque<>(splits);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtask, String requesterHostname) {
        AdbcSplit next = remaining.poll();
        if (next != null) {
            context.assignSplit(next, subtask);
        } else {
            context.signalNoMoreSplits(subtask);
        }
    }

    @Override
    public void addSplitsBack(List<AdbcSplit> splits, int subtask) {
        remaining.addAll(splits);
    }

    @Override
    public void addReader(int subtask) {
        // Readers ask for splits when they start.
    }

    @Override
    public Collection<AdbcSplit> snapshotState(long checkpointId) {
        return List.copyOf(remaining);
    }

    @Override
    public void close() {}
}
