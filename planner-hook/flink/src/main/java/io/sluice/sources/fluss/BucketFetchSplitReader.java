package io.sluice.sources.fluss;

import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.flink.source.split.LogSplit;
import org.apache.fluss.flink.source.split.SourceSplitBase;
import org.apache.fluss.metadata.PhysicalTablePath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogRequest;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.messages.PbFetchLogReqForTable;
import org.apache.fluss.rpc.messages.PbFetchLogRespForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogRespForTable;
import org.apache.fluss.rpc.protocol.Errors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches the logs of a Fluss table's buckets raw: one FetchLog request per leader for the
 * buckets it leads (the projected columns only, as Fluss's LogFetcher asks for them), each
 * bucket's answer one {@link BucketFetch} of untouched log batches. Errors are handled as Fluss's
 * LogFetchCollector handles them: a leader that moved or a bucket the metadata does not know
 * refreshes the metadata and is fetched again; an offset out of range or a corrupt message fails
 * the job, naming the table, the bucket and the offset.
 */
final class BucketFetchSplitReader implements SplitReader<BucketFetch, SourceSplitBase> {
    private static final Logger LOG = LoggerFactory.getLogger(BucketFetchSplitReader.class);
    /** How long a round that got no bucket's answer waits before the next (Fluss's client retries alike). */
    static final long RETRY_BACKOFF_MS = 100;

    private final Configuration conf;
    private final TablePath tablePath;
    private final int[] fetchedFields;
    private final Map<TableBucket, String> splitIds = new LinkedHashMap<>();
    private final Map<TableBucket, Long> offsets = new HashMap<>();
    private Connection connection;
    private MetadataUpdater metadata;
    /** The table's id and schema id, as the splits and the client's metadata give them. */
    private long tableId = -1;
    private int schemaId = -1;
    /** Whether the last fetch round ended on errors only: the next one waits a moment first. */
    private boolean backOff;

    /**
     * @param fetchedFields the table's columns the scan reads, ascending (null: all of them),
     *     which the tablet server projects the batches to
     */
    BucketFetchSplitReader(Configuration conf, TablePath tablePath, int[] fetchedFields) {
        this.conf = conf;
        this.tablePath = tablePath;
        this.fetchedFields = fetchedFields;
    }

    @Override
    public RecordsWithSplitIds<BucketFetch> fetch() throws IOException {
        RecordsBySplits.Builder<BucketFetch> out = new RecordsBySplits.Builder<>();
        if (splitIds.isEmpty()) {
            return out.build();
        }
        if (backOff) {
            try {
                Thread.sleep(RETRY_BACKOFF_MS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IOException("Fluss table " + tablePath + ": interrupted while fetching", ie);
            }
        }
        backOff = true; // unless a bucket's answer comes
        connect();
        // One request per leader for the buckets it leads.
        Map<Integer, List<TableBucket>> byLeader = new HashMap<>();
        for (TableBucket b : splitIds.keySet()) {
            int leader;
            try {
                leader = metadata.leaderFor(b);
            } catch (RuntimeException e) {
                refreshMetadata(b, e);
                continue;
            }
            byLeader.computeIfAbsent(leader, l -> new ArrayList<>()).add(b);
        }
        Map<Integer, CompletableFuture<FetchLogResponse>> pending = new HashMap<>();
        for (Map.Entry<Integer, List<TableBucket>> e : byLeader.entrySet()) {
            TabletServerGateway leader = metadata.newTabletServerClientForNode(e.getKey());
            if (leader == null) {
                // The leader is not among the tablet servers the client knows (one restarting).
                refreshMetadata(e.getValue().get(0), null);
                continue;
            }
            FetchLogRequest request = new FetchLogRequest().setFollowerServerId(-1)
                    .setMaxBytes((int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES).getBytes())
                    .setMinBytes((int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MIN_BYTES).getBytes())
                    .setMaxWaitMs((int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_WAIT_MAX_TIME).toMillis());
            PbFetchLogReqForTable forTable = request.addTablesReq().setTableId(tableId)
                    .setProjectionPushdownEnabled(fetchedFields != null);
            if (fetchedFields != null) {
                forTable.setProjectedFields(fetchedFields);
            }
            int bucketBytes = (int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES_FOR_BUCKET).getBytes();
            for (TableBucket b : e.getValue()) {
                forTable.addBucketsReq().setBucketId(b.getBucket()).setFetchOffset(offsets.get(b)).setMaxFetchBytes(bucketBytes);
            }
            pending.put(e.getKey(), leader.fetchLog(request));
        }
        for (Map.Entry<Integer, CompletableFuture<FetchLogResponse>> e : pending.entrySet()) {
            FetchLogResponse response;
            try {
                response = e.getValue().get(60, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IOException("Fluss table " + tablePath + ": interrupted while fetching", ie);
            } catch (ExecutionException | TimeoutException failure) {
                // The leader is gone or unreachable: fetch its buckets again with fresh metadata.
                refreshMetadata(byLeader.get(e.getKey()).get(0), failure);
                continue;
            }
            for (PbFetchLogRespForTable forTable : response.getTablesRespsList()) {
                if (forTable.getTableId() != tableId) {
                    throw new IOException("Fluss table " + tablePath + ": an answer for table id " + forTable.getTableId()
                            + ", fetched for " + tableId);
                }
                for (PbFetchLogRespForBucket r : forTable.getBucketsRespsList()) {
                    TableBucket b = new TableBucket(tableId, r.getBucketId());
                    BucketFetch f = received(b, r);
                    if (f != null) {
                        out.add(f.splitId(), f);
                    }
                }
            }
        }
        return out.build();
    }

    /** The fetch of one bucket's answer (null when it brought no whole batch). */
    private BucketFetch received(TableBucket b, PbFetchLogRespForBucket r) throws IOException {
        Long from = offsets.get(b);
        String splitId = splitIds.get(b);
        if (from == null || splitId == null) {
            return null; // unsubscribed meanwhile
        }
        if (r.hasErrorCode() && r.getErrorCode() != Errors.NONE.code()) {
            Errors error = Errors.forCode(r.getErrorCode());
            String message = r.hasErrorMessage() ? r.getErrorMessage() : error.name();
            switch (error) {
                case NOT_LEADER_OR_FOLLOWER, LOG_STORAGE_EXCEPTION, KV_STORAGE_EXCEPTION, STORAGE_EXCEPTION,
                        FENCED_LEADER_EPOCH_EXCEPTION, UNKNOWN_TABLE_OR_BUCKET_EXCEPTION, UNKNOWN_SERVER_ERROR:
                    refreshMetadata(b, error.exception(message));
                    return null;
                default:
                    throw new IOException(String.format("Fluss table %s, bucket %d, offset %d: %s (%s)",
                            tablePath, b.getBucket(), from, message, error));
            }
        }
        if (r.hasRemoteLogFetchInfo()) {
            throw new IOException(String.format("Fluss table %s, bucket %d, offset %d: the log is in remote (tiered)"
                    + " segments, which Sluice's native scan does not read yet", tablePath, b.getBucket(), from));
        }
        if (!r.hasRecords() || r.getRecordsSize() == 0) {
            return null;
        }
        byte[] records = r.getRecords();
        long next = LogBatches.nextOffset(records, from, schemaId, () -> String.format("Fluss table %s, bucket %d, offset %d",
                tablePath, b.getBucket(), from));
        backOff = false;
        if (next == from) {
            return null; // only a partial batch: fetched again, with more bytes to come
        }
        offsets.put(b, next);
        return new BucketFetch(splitId, b, records, from, next);
    }

    /**
     * Forgets the table's bucket leaders, which the next round loads again, as Fluss's LogFetcher
     * does after a fetch fails on a leader that moved or went away.
     */
    private void refreshMetadata(TableBucket b, Throwable why) {
        LOG.debug("Fluss table {}, bucket {}: refreshing the metadata", tablePath, b.getBucket(), why);
        metadata.invalidPhysicalTableBucketMeta(Set.of(PhysicalTablePath.of(tablePath)));
        try {
            metadata.updateTableOrPartitionMetadata(tablePath, null);
        } catch (RuntimeException e) {
            LOG.warn("Fluss table {}: the metadata could not be refreshed; fetching again", tablePath, e);
        }
    }

    private void connect() throws IOException {
        if (connection == null) {
            connection = ConnectionFactory.createConnection(conf);
            metadata = ((FlussConnection) connection).getMetadataUpdater();
        }
        if (schemaId < 0) {
            metadata.checkAndUpdateTableMetadata(Set.of(tablePath));
            TableInfo info = metadata.getTableInfoOrElseThrow(tablePath);
            if (info.getTableId() != tableId) {
                throw new IOException("Fluss table " + tablePath + " has the id " + info.getTableId() + ", its splits " + tableId
                        + " (the table was dropped and created again?)");
            }
            schemaId = info.getSchemaId();
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<SourceSplitBase> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("split change " + change.getClass().getSimpleName());
        }
        for (SourceSplitBase split : change.splits()) {
            if (!split.isLogSplit() || split.getPartitionName() != null) {
                throw new IllegalStateException("Sluice's native Fluss scan reads the log splits of tables without"
                        + " partitions; got " + split);
            }
            LogSplit log = split.asLogSplit();
            if (log.getStoppingOffset().isPresent()) {
                throw new IllegalStateException("Sluice's native Fluss scan reads unbounded log splits; got " + split);
            }
            if (tableId >= 0 && split.getTableBucket().getTableId() != tableId) {
                throw new IllegalStateException("splits of two tables: " + tableId + " and " + split);
            }
            tableId = split.getTableBucket().getTableId();
            splitIds.put(split.getTableBucket(), split.splitId());
            offsets.put(split.getTableBucket(), log.getStartingOffset());
        }
    }

    /** Makes the split readers of one source reader (one per fetcher thread). */
    record Factory(Configuration conf, TablePath tablePath, int[] fetchedFields) implements java.io.Serializable {
        BucketFetchSplitReader create() {
            return new BucketFetchSplitReader(conf, tablePath, fetchedFields);
        }
    }

    /** Nothing to interrupt: a fetch waits at most the server's fetch wait time (client.scanner.log.fetch.wait-max-time). */
    @Override
    public void wakeUp() {}

    @Override
    public void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
    }
}
