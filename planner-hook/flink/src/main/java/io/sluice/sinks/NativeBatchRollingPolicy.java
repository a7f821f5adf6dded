package io.sluice.sinks;

import io.sluice.runtime.NativeBatch;

import org.apache.flink.streaming.api.functions.sink.filesystem.PartFileInfo;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.CheckpointRollingPolicy;

import java.io.IOException;

/**
 * The rolling policy of Flink's filesystem table sink for bulk formats
 * (FileSystemTableSink.TableRollingPolicy), for native batches: roll on every checkpoint, when a
 * part file exceeds 'sink.rolling-policy.file-size', and after the rollover or inactivity
 * interval.
 */
public final class NativeBatchRollingPolicy extends CheckpointRollingPolicy<NativeBatch, String> {
    private static final long serialVersionUID = 1L;

    private final long fileSize;
    private final long rolloverInterval;
    private final long inactivityInterval;

    public NativeBatchRollingPolicy(long fileSize, long rolloverInterval, long inactivityInterval) {
        this.fileSize = fileSize;
        this.rolloverInterval = rolloverInterval;
        this.inactivityInterval = inactivityInterval;
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileInfo<String> part) {
        return true; // bulk formats cannot resume a part file after a checkpoint
    }

    @Override
    public boolean shouldRollOnEvent(PartFileInfo<String> part, NativeBatch element) throws IOException {
        return part.getSize() > fileSize;
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileInfo<String> part, long currentTime) {
        return currentTime - part.getCreationTime() >= rolloverInterval
                || currentTime - part.getLastUpdateTime() >= inactivityInterval;
    }
}
