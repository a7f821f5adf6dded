package io.sluice.jni;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The one place where Java calls into Sluice's Go library. The library is extracted from the jar
 * and loaded once per JVM; every native method either returns normally or throws {@link
 * NativeException} with the Go error or panic message.
 *
 * <p>Native objects are identified by {@code long} handles and must be released with {@link
 * #close(long)}.
 */
public final class NativeLib {
    private static final String RESOURCE = "/native/linux-x86_64/libsluice.so";
    private static volatile boolean loaded;

    private NativeLib() {}

    /** Loads the library if this JVM has not loaded it yet. */
    public static void ensureLoaded() {
        if (loaded) {
            return;
        }
        synchronized (NativeLib.class) {
            if (loaded) {
                return;
            }
            String override = System.getProperty("sluice.native.library");
            if (override != null) {
                System.load(override);
            } else {
                System.load(extract().toString());
            }
            loaded = true;
        }
    }

    private static Path extract() {
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch)) {
            throw new UnsupportedOperationException("Sluice's native library is built for linux-x86_64, not " + arch);
        }
        try (InputStream in = NativeLib.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "Sluice native library " + RESOURCE + " is missing from the jar; build with `make build`");
            }
            Path file = Files.createTempFile("libsluice", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract Sluice native library", e);
        }
    }

    /**
     * Judges an island plan (UTF-8 JSON, see planner-hook/plan) and returns the verdict as UTF-8
     * JSON: {"supported": bool, "nodes": [{"id", "type", "supported", "reasons": [...]}]}.
     */
    public static native byte[] verdict(byte[] planJson);

    /** Compiles an island plan into a native pipeline and returns its handle. */
    public static native long open(byte[] planJson);

    /**
     * Runs one batch of BinaryRowData rows through the pipeline. Row i of the input is
     * inData[inOffsets[i] .. inOffsets[i+1]). Output rows are written the same way into outData and
     * outOffsets (row offsets, then for a Calc the input row of each output row). Returns the
     * number of output rows, or -1 when a buffer is too small: the output is then kept, {@link
     * #outputShape} tells its size and {@link #drain} fetches it into larger buffers.
     */
    public static native long process(
            long handle, ByteBuffer inData, ByteBuffer inOffsets, int rows, ByteBuffer outData, ByteBuffer outOffsets);

    /** The pending output's size: rows in the high 32 bits, bytes in the low 32 bits. */
    public static native long outputShape(long handle);

    /** Copies a pending output (see {@link #process}) and returns its row count. */
    public static native long drain(long handle, ByteBuffer outData, ByteBuffer outOffsets);

    /** Sets the soft limit of the Go heap (GOMEMLIMIT) and returns the previous one, in bytes. */
    public static native long setMemoryLimit(long bytes);

    private static long configuredMemoryLimit = -1;

    /**
     * Applies a Go heap limit once per process: the first caller's value wins (the Go runtime is
     * shared by every operator of the JVM); returns the limit in force.
     */
    public static synchronized long configureMemoryLimit(long bytes) {
        ensureLoaded();
        if (configuredMemoryLimit < 0 && bytes > 0) {
            setMemoryLimit(bytes);
            configuredMemoryLimit = bytes;
        }
        return configuredMemoryLimit;
    }

    /** Test hook: raises a real Go runtime panic inside the library (see sluice.debug.panic-after-batches). */
    public static native void debugPanic();

    /**
     * Routes BinaryRowData rows by key as native operators do. {@code spec} is UTF-8 JSON
     * {"rowType": serializable row type, "keys": [field...], "maxParallelism", "parallelism"};
     * for row r, {@code out} receives the key group at int index 2r and the owning subtask at 2r+1.
     */
    public static native void routeRows(byte[] spec, ByteBuffer inData, ByteBuffer inOffsets, int rows, ByteBuffer out);

    /**
     * Advances a window pipeline's event time and writes the rows it emits (fired windows, or
     * the partial aggregates of a local phase), as
     * {@link #process} writes rows (the row offsets only; no selection).
     */
    public static native long advanceWatermark(long handle, long watermark, ByteBuffer outData, ByteBuffer outOffsets);

    /**
     * Emits a watermark of a chain's mini-batch assigner (the start of a new interval of
     * processing time): the mini-batch operators after it finish their bundles, and their rows
     * are written before the watermark, as {@link #advanceWatermark} writes them.
     */
    public static native long miniBatchWatermark(long handle, long watermark, ByteBuffer outData, ByteBuffer outOffsets);

    /**
     * Flushes a window pipeline's buffer before a checkpoint barrier and writes the rows that
     * the flush produces (the partial aggregates of a local phase; none otherwise).
     */
    public static native long prepareCheckpoint(long handle, ByteBuffer outData, ByteBuffer outOffsets);

    /** Sets a window pipeline's event time restored from a checkpoint. */
    public static native void initializeWatermark(long handle, long watermark);

    /** Serializes one key group of a window pipeline's state, or returns null when it has none. */
    public static native byte[] snapshotKeyGroup(long handle, int keyGroup);

    /** Restores one key group of a window pipeline's state. */
    public static native void restoreKeyGroup(long handle, int keyGroup, byte[] state);

    /**
     * The state of a chain's keyed window aggregation: its estimated size in bytes, or with
     * {@code keys} the number of keys holding state.
     */
    public static native long stateSize(long handle, boolean keys);

    /** The number of late rows a window pipeline has dropped. */
    public static native long lateRowsDropped(long handle);

    /**
     * Emits a chain's periodic watermark (its watermark assigner's current watermark, if it
     * advanced) and writes the rows it produces, as {@link #advanceWatermark}.
     */
    public static native long emitPeriodicWatermark(long handle, ByteBuffer outData, ByteBuffer outOffsets);

    /**
     * Writes the watermarks of the last call as pairs of longs (the number of output rows before
     * the watermark, the watermark) and returns their number. Calls that write rows return the
     * number of watermarks in the high 32 bits of their result.
     */
    public static native int markers(long handle, ByteBuffer out);

    /** Releases a native object: a pipeline, a Parquet split reader or a batch. */
    public static native void close(long handle);

    /**
     * Opens a Parquet split for reading: the file {@code path} (UTF-8), the split's byte range,
     * and the rows of the split to skip (a restored position). {@code scanJson} is the island
     * JSON of the scan node; the reading JVM's default time zone is given by its offset in
     * seconds, if it has a fixed one. Returns the reader's handle.
     */
    public static native long parquetOpen(
            byte[] scanJson, byte[] path, long offset, long length, long skipRows, int zoneOffsetSeconds, boolean zoneFixed);

    /**
     * Splits output rows [from, to) of the last call of a chain that feeds a columnar hash
     * exchange into one native batch per target channel. Writes (channel | rows << 32, batch
     * handle) pairs of longs into out (16 bytes per channel of the exchange) and returns the
     * number of pairs.
     */
    public static native int exchangeBatches(long handle, int from, int to, ByteBuffer out);

    /**
     * Gives the arrival times of the next batch's rows to a chain that starts with a
     * processing-time window aggregation: count (first row, epoch milliseconds) pairs of longs,
     * each run of rows arriving at one time.
     */
    public static native void arrivals(long handle, ByteBuffer runs, int count);

    /**
     * Fires the processing-time windows of a chain that are due at the given processing time.
     * Returns what {@link #process} returns (never with watermarks).
     */
    public static native long advanceProcessingTime(long handle, long time, ByteBuffer outData, ByteBuffer outOffsets);

    /** The processing time at which a chain's next processing-time window fires (Long.MAX_VALUE: none). */
    public static native long nextProcessingTimer(long handle);

    /** Output rows [from, to) of a batch-output chain's last call, as a new native batch. */
    public static native long outputBatch(long handle, int from, int to);

    /**
     * Checks an ADBC sink's description (its options and column types); throws with the
     * table's configuration mistake.
     */
    public static native void adbcSinkCheck(byte[] description);

    /**
     * Opens a subtask's writer of an ADBC sink from its island JSON (fed with native batches) or
     * its description (fed with rows). {@code sinkId} (UTF-8) names the sink in every attempt of
     * the job; {@code restoredCheckpoint} is the restored checkpoint's id, 0 for none.
     */
    public static native long adbcWriterOpen(byte[] sinkJson, byte[] sinkId, int subtask, int parallelism, long restoredCheckpoint);

    /** Writes a native batch into an ADBC writer (the batch stays the caller's). */
    public static native void adbcWriterWrite(long writer, long batch);

    /** Writes rows (BinaryRowData bytes and rows + 1 offsets) into an ADBC writer. */
    public static native void adbcWriterWriteRows(long writer, ByteBuffer data, ByteBuffer offsets, int rows);

    /** Ingests an ADBC writer's buffered rows (committed too, unless exactly-once). */
    public static native void adbcWriterFlush(long writer);

    /** Ends an ADBC writer's checkpoint; returns its committable, empty for none. */
    public static native byte[] adbcWriterPrepareCommit(long writer);

    /** Tells an ADBC writer that Flink took a checkpoint (its next rows belong to a later one). */
    public static native void adbcWriterSnapshotted(long writer, long checkpointId);

    /**
     * Checks an ADBC scan's description (its options and column types); throws with the table's
     * configuration mistake. Returns the number of splits the scan reads.
     */
    public static native int adbcScanCheck(byte[] description);

    /**
     * Opens split {@code split} of an ADBC scan from its island JSON (native batches, read with
     * {@link #splitNext}) or its description (rows, read with {@link #adbcSplitRows}), skipping
     * its first {@code skipRows} rows; returns the split reader.
     */
    public static native long adbcSplitOpen(byte[] scanJson, int split, long skipRows);

    /**
     * The next batch of an ADBC split as BinaryRowData rows: the row count and the count + 1 row
     * offsets (little-endian ints, offsets from the end of the offsets), then the rows; null after
     * the last batch.
     */
    public static native byte[] adbcSplitRows(long reader);

    /** Opens the decoder of a native Fluss scan's fetches from the island JSON of its scan node. */
    public static native long flussFetchOpen(byte[] scanJson);

    /**
     * Decodes the whole log batches of one bucket's fetch ({@code records}, as the tablet server
     * returns them) into one native batch of the scan's columns, the rows before log offset
     * {@code from} dropped (-2, the log's start: none).
     */
    public static native long flussFetchDecode(long fetch, byte[] records, long from);

    /**
     * The rows the native Fluss scan decodes of a bucket fetch's log batches ({@code records}, as
     * the tablet server returns them), for the differential tests: rows of {@code rowType}
     * (LogicalType#asSerializableString of a ROW, UTF-8) with their RowKinds ({@code changelog}:
     * a primary-key table). Little-endian: the number of batches, then per batch its base offset
     * and the offset after it (longs), its number of rows, their offsets (rows + 1) and their BinaryRowData bytes.
     */
    public static native byte[] flussLogRows(byte[] rowType, boolean changelog, byte[] records);

    /**
     * Decodes records of the value format a Kafka table's options name ({@code options}:
     * "key=value" lines, UTF-8) into rows of {@code rowType} (LogicalType#asSerializableString
     * of a ROW), as the Kafka source's native decoding does, for the differential tests against
     * Flink's formats. Record r is {@code values[starts[r], starts[r + 1])} ({@code starts}:
     * little-endian ints). Returns, little-endian: the record count, per record the rows it
     * added (0 or 1; -1: left to Flink's deserializer), the row count, the row count + 1 offsets
     * and the BinaryRowData rows.
     */
    public static native byte[] valueRows(byte[] rowType, byte[] options, byte[] values, byte[] starts);

    /**
     * Encodes rows of {@code rowType} (BinaryRowData: row r is {@code rows[offsets[r],
     * offsets[r + 1])}, offsets little-endian ints) as records of the value format a Kafka
     * table's options name ({@code options}: "key=value" lines, UTF-8), as a Kafka sink's native
     * encoding does, for the differential tests against Flink's formats. Returns the records as
     * {@link io.sluice.sinks.kafka.RecordValues} reads them.
     */
    public static native byte[] valueRecords(byte[] rowType, byte[] options, byte[] rows, byte[] offsets);

    /**
     * Opens the decoder of a native Kafka scan's partition fetches from the island JSON of its
     * scan node; closed with {@link #close}.
     */
    public static native long kafkaFetchOpen(byte[] scanJson);

    /**
     * Decodes a fetch's record values from record {@code from} on and returns the first record
     * the native decoder leaves to Flink's deserializer (the record count when none). Record r is
     * bytes {@code [starts[r], starts[r + 1])} of the direct buffer {@code values}, whose first
     * {@code length} bytes hold the fetch; {@code starts} is a direct buffer of {@code records + 1}
     * little-endian ints. Go reads both buffers in place until the fetch is finished, so the
     * caller leaves them unchanged until then. Pass null buffers to go on with the fetch given
     * last.
     */
    public static native int kafkaFetchDecode(long fetch, ByteBuffer values, int length, ByteBuffer starts, int records, int from);

    /**
     * Appends the rows Flink's deserializer made of the record decoding stopped at (BinaryRowData:
     * row r is {@code rows[offsets[r], offsets[r + 1])}, offsets little-endian ints).
     */
    public static native void kafkaFetchAppendRows(long fetch, byte[] rows, byte[] offsets);

    /**
     * What a native Kafka scan needs besides each fetch's record values, as bits: 1, metadata
     * columns (the fetch's record metadata goes to {@link #kafkaFetchRecords} before it is
     * decoded); 2, a key format (the record keys go to {@link #kafkaFetchKeys}); 4, upserts (the
     * records without a value go to {@link #kafkaFetchTombstones}).
     */
    public static native int kafkaFetchNeeds(long fetch);

    /**
     * Marks the records of the fetch to decode next that have no value (tombstones): one byte per
     * record, 1 for a record whose value is null, else 0 (a direct buffer read in place until
     * {@link #kafkaFetchFinish}).
     */
    public static native void kafkaFetchTombstones(long fetch, ByteBuffer marks, int records);

    /**
     * Sets the record keys of the fetch to decode next: record r's key is
     * {@code keys[starts[r], starts[r + 1])} (direct buffers, little-endian starts, read in place
     * until {@link #kafkaFetchFinish}; a record without a key has an empty one).
     */
    public static native void kafkaFetchKeys(long fetch, ByteBuffer keys, int length, ByteBuffer starts, int records);

    /**
     * Sets the record metadata of the fetch to decode next: its topic (UTF-8) and partition, and
     * per record (24 bytes, little-endian, in a direct buffer read in place until
     * {@link #kafkaFetchFinish}) the offset long, the timestamp long, the leader epoch int
     * (Integer.MIN_VALUE: none) and the timestamp type's id int.
     */
    public static native void kafkaFetchRecords(long fetch, byte[] topic, int partition, ByteBuffer meta, int records);

    /** The fetch's rows as one native batch, in record order; starts the next fetch. */
    public static native long kafkaFetchFinish(long fetch);

    /**
     * The watermark of the last finished fetch: the maximum of the scan's watermark expression
     * over its rows (Long.MIN_VALUE when there is none).
     */
    public static native long kafkaFetchWatermark(long fetch);

    /** Opens the encoder of a native Kafka sink from the island JSON of its sink node. */
    public static native long kafkaEncoderOpen(byte[] sinkJson);

    /**
     * The record values of a native batch's rows, as the Kafka table's format writes them (rows
     * its NOT NULL columns drop are left out): little-endian, the record count, the count + 1
     * record ends, the records' bytes.
     */
    public static native byte[] kafkaEncode(long encoder, long batch);

    /** Opens the committer of an exactly-once ADBC sink. */
    public static native long adbcCommitterOpen(byte[] sinkJson);

    /**
     * Runs a request of the ADBC catalog (JSON: the operation, the endpoint, the schema and
     * table) on a connection of its own; returns the JSON answer.
     */
    public static native byte[] adbcCatalog(byte[] request);

    /** Commits a committable; false when it had been committed before. */
    public static native boolean adbcCommit(long committer, byte[] committable);

    /** Starts a Parquet part file for a native sink ({@code sinkJson}: its island JSON); returns the writer. */
    public static native long parquetWriterOpen(byte[] sinkJson, int zoneOffsetSeconds, boolean zoneFixed);

    /** Adds a native batch to a Parquet writer; returns the file bytes produced since the last call. */
    public static native byte[] parquetWriterWrite(long writer, long batch);

    /** Completes a Parquet file; returns its last bytes (the footer). */
    public static native byte[] parquetWriterFinish(long writer);

    /**
     * Opens the partitioner of a partitioned filesystem sink ({@code sinkJson}: the island JSON
     * of the sink node); returns it.
     */
    public static native long parquetPartitionerOpen(byte[] sinkJson);

    /**
     * Splits a native batch by partition (the batch stays the caller's). Returns, per partition,
     * big-endian: the handle of a new native batch of its rows without the partition columns
     * (int64, the caller releases it), its rows (int32), and the partition's path relative to
     * the table (int32 length, UTF-8 bytes), as Flink's filesystem sink names its buckets.
     */
    public static native byte[] parquetPartition(long partitioner, long batch);

    /**
     * Starts the Iceberg data-file writer of one sink subtask ({@code sinkJson}: the island JSON
     * of the sink node): one open file per partition (partition 0 for an unpartitioned table).
     */
    public static native long icebergWriterOpen(byte[] sinkJson);

    /**
     * Adds a native batch to an Iceberg writer; returns the bytes its partitions' files produced
     * as frames: big-endian int32 partition, int32 length, bytes.
     */
    public static native byte[] icebergWriterWrite(long writer, long batch);

    /** Completes a partition's open data file; returns its last bytes (the footer). */
    public static native byte[] icebergWriterFinish(long writer, int partition);

    /**
     * The metrics Iceberg's float and double writers collect, of a partition's last finished
     * file: JSON [{"id", "values", "nulls", "nans", "lower", "upper"}], bounds as double bits.
     */
    public static native byte[] icebergWriterFloatMetrics(long writer, int partition);

    /** A partition's values as JSON: null, a number or a string (bytes: base64) per partition field. */
    public static native byte[] icebergWriterPartition(long writer, int partition);

    /**
     * Starts the splitter of a partitioned Iceberg sink in the HASH distribution mode
     * ({@code sinkJson}: the island JSON of the sink node).
     */
    public static native long icebergSplitterOpen(byte[] sinkJson);

    /**
     * Splits a native batch by partition; returns the parts as frames, big-endian: the part's
     * batch handle (int64, owned by the caller), its rows (int32), 8 (int32), the partition's
     * number (int32) and the numbering's generation (int32: when it changes, the numbers start
     * over).
     */
    public static native byte[] icebergSplit(long splitter, long batch);

    /** A partition's values, as {@link #icebergWriterPartition} gives them. */
    public static native byte[] icebergSplitterPartition(long splitter, int partition);

    /**
     * Opens the byte range [start, start + length) of an Iceberg data file for reading, skipping
     * its first skipRows rows, with the island JSON of the Iceberg scan node. deletedPositions
     * (big-endian int64s, or null) are the positions of the file's rows that position deletes
     * delete: those rows are left out, and skipRows counts the rows left. Returns the reader's
     * handle.
     */
    public static native long icebergOpen(byte[] scanJson, byte[] path, long start, long length, long skipRows,
            byte[] deletedPositions);

    /**
     * Reads the next batch of a split reader (Parquet split, Iceberg file range); returns its
     * handle, or 0 after the last batch.
     */
    public static native long splitNext(long reader);

    /** The row count of a native batch. */
    public static native int batchRows(long batch);

    /** Writes a native batch as an Arrow IPC stream, its buffers LZ4-frame compressed when lz4. */
    public static native byte[] batchToIpc(long batch, boolean lz4);

    /** Reads an Arrow IPC stream into a new native batch and returns its handle. */
    public static native long batchFromIpc(byte[] ipc);

    /**
     * Runs a native batch through a chain that starts with a native scan (the batch is
     * borrowed). Returns what {@link #process} returns.
     */
    public static native long processBatch(long handle, long batch, ByteBuffer outData, ByteBuffer outOffsets);
}
