package io.sluice;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;

/** The options a user sets in the Flink configuration or with {@code SET 'key' = 'value'}. */
public final class SluiceOptions {
    private SluiceOptions() {}

    public static final ConfigOption<Boolean> ENABLED =
            ConfigOptions.key("sluice.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Run supported jobs natively. When false every job runs on stock Flink.");

    public static final ConfigOption<Integer> BATCH_ROWS =
            ConfigOptions.key("sluice.batch.rows")
                    .intType()
                    .defaultValue(8192)
                    .withDescription("Rows buffered at a row edge before a batch is sent to the native pipeline.");

    public static final ConfigOption<Duration> BATCH_MAX_DELAY =
            ConfigOptions.key("sluice.batch.max-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription("Longest time a row waits in a partly filled batch before the batch is "
                            + "flushed (0 = only on size, watermark, checkpoint and end of input).");

    public static final ConfigOption<Boolean> EXCHANGE_COLUMNAR =
            ConfigOptions.key("sluice.exchange.columnar")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Hash exchanges between native operators carry Arrow batches, split per "
                            + "target subtask in Go by Flink's key groups. When false they carry Flink's rows.");

    public static final ConfigOption<String> EXCHANGE_COMPRESSION =
            ConfigOptions.key("sluice.exchange.compression")
                    .stringType()
                    .defaultValue("none")
                    .withDescription("Compression of the Arrow IPC batches on columnar exchanges: 'none' or 'lz4' "
                            + "(LZ4-frame compressed buffers; less network traffic for more CPU).");

    public static final ConfigOption<Boolean> LOG_FALLBACK_REASONS =
            ConfigOptions.key("sluice.log-fallback-reasons")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Log, at INFO, why a job runs on stock Flink.");

    public static final ConfigOption<MemorySize> NATIVE_MEMORY_LIMIT =
            ConfigOptions.key("sluice.native.memory-limit")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription("Soft limit of the Go heap in each TaskManager process (GOMEMLIMIT); the "
                            + "JVM does not see this memory. Unset: no limit. The first native operator of a "
                            + "process sets it.");

    /**
     * Test hook: in the first attempt of each native operator, the native library panics (a real Go
     * runtime panic) when this many batches have been processed (0 = never).
     */
    public static final ConfigOption<Integer> DEBUG_PANIC_AFTER_BATCHES =
            ConfigOptions.key("sluice.debug.panic-after-batches")
                    .intType()
                    .defaultValue(0)
                    .withDescription("For tests only: make the native library panic after N batches in a first attempt.");

    /**
     * Test hook: native operators fail in their first N attempts, each time when it has
     * processed {@link #DEBUG_PANIC_AFTER_BATCHES} batches (operators with keyed state: at that
     * batch or the first one after a checkpoint that holds their state has completed, so that every
     * restart restores state): even attempts by a Go panic, odd attempts by a Java exception.
     */
    public static final ConfigOption<Integer> DEBUG_FAIL_ATTEMPTS =
            ConfigOptions.key("sluice.debug.fail-attempts")
                    .intType()
                    .defaultValue(0)
                    .withDescription("For tests only: the number of attempts in which native window operators fail "
                            + "(see sluice.debug.panic-after-batches).");

    /** Test hook: native chains sleep this long before each batch (to let checkpoints happen mid-input). */
    public static final ConfigOption<Integer> DEBUG_BATCH_DELAY_MS =
            ConfigOptions.key("sluice.debug.batch-delay-ms")
                    .intType()
                    .defaultValue(0)
                    .withDescription("For tests only: milliseconds native chains sleep before each batch.");
}
