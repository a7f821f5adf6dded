package io.sluice.sinks.adbc;

import io.sluice.jni.NativeLib;

import org.apache.flink.api.connector.sink2.Committer;

import java.util.Collection;

/**
 * Commits the checkpoints of an exactly-once ADBC sink once they complete: Go commits each
 * committable's prepared transaction (which recorded the commit itself), or moves its stage
 * table into the table in one transaction that records it, so a commit Flink replays after a
 * restore is recognised and skipped. A commit that fails fails the job
 * (Flink restores and commits again).
 */
final class AdbcCommitter implements Committer<byte[]> {
    private final byte[] sinkJson;
    private long committer;

    AdbcCommitter(byte[] sinkJson) {
        this.sinkJson = sinkJson;
    }

    @Override
    public void commit(Collection<CommitRequest<byte[]>> requests) {
        if (requests.isEmpty()) {
            return;
        }
        if (committer == 0) {
            NativeLib.ensureLoaded();
            committer = NativeLib.adbcCommitterOpen(sinkJson);
        }
        for (CommitRequest<byte[]> r : requests) {
            if (!NativeLib.adbcCommit(committer, r.getCommittable())) {
                r.signalAlreadyCommitted();
            }
        }
    }

    @Override
    public void close() {
        if (committer != 0) {
            long c = committer;
            committer = 0;
            NativeLib.close(c);
        }
    }
}
