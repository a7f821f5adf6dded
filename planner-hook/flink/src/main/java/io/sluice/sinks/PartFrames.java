package io.sluice.sinks;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import java.nio.ByteBuffer;
import java.util.function.LongFunction;

/**
 * The parts Go splits a native batch into before a sink (by partition): frames of, big-endian,
 * the part's batch handle (int64), its rows (int32), its tag's length (int32) and the tag. The
 * part batches stay the caller's: they are handed on unowned (a chained writer reads them during
 * the call, a network edge copies them there) and released here, also when handing on fails.
 */
public final class PartFrames {
    /** What is done with one part. */
    @FunctionalInterface
    public interface PartConsumer {
        /** Hands on the part batch {@code handle} of {@code rows} rows with its {@code tag}. */
        void accept(long handle, int rows, ByteBuffer tag);
    }

    private PartFrames() {}

    /**
     * Splits {@code batch} with {@code split} (given the batch's handle, it returns the frames),
     * releasing the batch if it is owned, then hands each part to {@code parts}.
     */
    public static void split(NativeBatch batch, LongFunction<byte[]> split, PartConsumer parts) {
        ByteBuffer frames;
        try {
            frames = ByteBuffer.wrap(split.apply(batch.handle()));
        } finally {
            if (batch.owned()) {
                batch.release();
            }
        }
        try {
            while (frames.hasRemaining()) {
                long part = frames.getLong();
                int rows = frames.getInt();
                int length = frames.getInt();
                ByteBuffer tag = frames.slice(frames.position(), length);
                frames.position(frames.position() + length);
                try {
                    parts.accept(part, rows, tag);
                } finally {
                    NativeLib.close(part);
                }
            }
        } finally {
            while (frames.hasRemaining()) {
                long part = frames.getLong();
                frames.getInt();
                int tag = frames.getInt();
                frames.position(frames.position() + tag);
                NativeLib.close(part);
            }
        }
    }
}
