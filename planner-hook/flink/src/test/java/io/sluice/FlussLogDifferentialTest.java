package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.jni.NativeLib;
import io.sluice.testing.FlussCluster;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.flink.utils.FlinkConversions;
import org.apache.fluss.flink.utils.FlussRowToFlinkRowConverter;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogRequest;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.messages.PbFetchLogReqForTable;
import org.apache.fluss.rpc.messages.PbFetchLogRespForBucket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The native decoding of Fluss log batches held to Fluss's own reader, on a real cluster: tables
 * written by Flink's Fluss sink (several INSERTs, so several batches), their bucket's log fetched
 * raw from the tablet server (the bytes of FetchLog's answer, as the native scan will get them)
 * and decoded in Go, against the same log read by Fluss's LogScanner and converted to Flink rows
 * by Fluss's connector; both as BinaryRowData, row for row and byte for byte, RowKinds included.
 */
class FlussLogDifferentialTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String DATABASE = "sluice_tests";
    /** Every type the decoder takes, NULLs in each. */
    static final String COLUMNS = "b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE,"
            + " d1 DECIMAL(10, 2), d2 DECIMAL(38, 10), str STRING, bin BYTES, dt DATE, tm TIME(3),"
            + " ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ltz3 TIMESTAMP_LTZ(3), ltz6 TIMESTAMP_LTZ(6), ts0 TIMESTAMP(0), ltz0 TIMESTAMP_LTZ(0)";
    static String suffix;

    @BeforeAll
    static void setUp() throws Exception {
        NativeLib.ensureLoaded();
        suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        env().executeSql("CREATE DATABASE IF NOT EXISTS fluss." + DATABASE).await();
    }

    static StreamTableEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        t.executeSql(FlussCluster.catalogDdl("fluss"));
        return t;
    }

    /** A row of random values of COLUMNS (as SQL), NULL in about one column of eight. */
    static String randomRow(Random rnd, int i) {
        List<String> v = new ArrayList<>();
        v.add(rnd.nextBoolean() ? "TRUE" : "FALSE");
        v.add("CAST(" + (rnd.nextInt(256) - 128) + " AS TINYINT)");
        v.add("CAST(" + (rnd.nextInt(65536) - 32768) + " AS SMALLINT)");
        v.add(String.valueOf(rnd.nextInt()));
        v.add("CAST(" + rnd.nextLong() + " AS BIGINT)");
        v.add("CAST(" + (rnd.nextInt(2000000) - 1000000) / 64.0 + " AS FLOAT)");
        v.add("CAST(" + rnd.nextGaussian() * 1e6 + " AS DOUBLE)");
        v.add("CAST(" + (rnd.nextInt(2000000) - 1000000) / 100.0 + " AS DECIMAL(10, 2))");
        v.add("CAST('" + (rnd.nextLong() % 1_000_000_000_000L) + "." + String.format(Locale.ROOT, "%010d", Math.abs(rnd.nextLong() % 10_000_000_000L)) + "' AS DECIMAL(38, 10))");
        v.add("'" + (i % 3 == 0 ? "" : "s" + rnd.nextInt(1000) + "é€") + "'");
        byte[] bytes = new byte[rnd.nextInt(5)];
        rnd.nextBytes(bytes);
        v.add("X'" + HexFormat.of().formatHex(bytes) + "'");
        v.add("DATE '" + java.time.LocalDate.ofEpochDay(rnd.nextInt(40000) - 10000) + "'");
        v.add("TIME '" + java.time.LocalTime.ofNanoOfDay(rnd.nextInt(86_400_000) * 1_000_000L) + "'");
        v.add("TIMESTAMP '" + timestamp(rnd, 3) + "'");
        v.add("TIMESTAMP '" + timestamp(rnd, 6) + "'");
        v.add("TO_TIMESTAMP_LTZ(" + (rnd.nextLong() % 4_000_000_000_000L) + ", 3)");
        v.add("CAST(TIMESTAMP '" + timestamp(rnd, 6) + "' AS TIMESTAMP_LTZ(6))");
        v.add("CAST(TIMESTAMP '" + timestamp(rnd, 0) + "' AS TIMESTAMP(0))");
        v.add("TO_TIMESTAMP_LTZ(" + (rnd.nextLong() % 4_000_000_000L) + ", 0)");
        String[] types = {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10, 2)", "DECIMAL(38, 10)",
            "STRING", "BYTES", "DATE", "TIME(3)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(6)",
            "TIMESTAMP(0)", "TIMESTAMP_LTZ(0)"};
        for (int c = 0; c < v.size(); c++) {
            if (rnd.nextInt(8) == 0) {
                v.set(c, "CAST(NULL AS " + types[c] + ")");
            }
        }
        return "(" + String.join(", ", v) + ")";
    }

    /**
     * A random TIMESTAMP literal; before 1970 in whole milliseconds only, since Fluss's own reader
     * fails on a fraction of a millisecond there (the native decoding fails alike: a test of
     * sources/flusslog).
     */
    static String timestamp(Random rnd, int precision) {
        long micros = (rnd.nextLong() % 3_000_000_000_000_000L);
        if (micros < 0) {
            micros -= micros % 1000;
        }
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000, java.time.ZoneOffset.UTC);
        if (precision == 3) {
            t = t.withNano(t.getNano() / 1_000_000 * 1_000_000);
        } else if (precision == 0) {
            t = t.withNano(0);
        }
        return t.format(java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT));
    }

    /** A log table of every type, written in five INSERTs (five batches at least). */
    @Test
    void logTableBatches() throws Exception {
        String table = "types_" + suffix;
        StreamTableEnvironment t = env();
        t.executeSql("CREATE TABLE fluss." + DATABASE + "." + table + " (" + COLUMNS + ") WITH ('bucket.num' = '1')").await();
        Random rnd = new Random(11);
        for (int insert = 0; insert < 5; insert++) {
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < 40 + insert * 30; i++) {
                rows.add(randomRow(rnd, i));
            }
            t.executeSql("INSERT INTO fluss." + DATABASE + "." + table + " VALUES " + String.join(", ", rows)).await();
        }
        compare(table, false, 5);
    }

    /**
     * A primary-key table's changelog: first rows inserted (+I), then updated again and again
     * (-U, +U), in batches of change types.
     */
    @Test
    void primaryKeyTableChanges() throws Exception {
        String table = "changes_" + suffix;
        StreamTableEnvironment t = env();
        t.executeSql("CREATE TABLE fluss." + DATABASE + "." + table + " (id INT NOT NULL, " + COLUMNS
                + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')").await();
        Random rnd = new Random(13);
        for (int insert = 0; insert < 4; insert++) {
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                rows.add("(" + rnd.nextInt(30) + ", " + randomRow(rnd, i).substring(1));
            }
            t.executeSql("INSERT INTO fluss." + DATABASE + "." + table + " VALUES " + String.join(", ", rows)).await();
        }
        compare(table, true, 4);
    }

    /** Fetches the table's bucket raw and through Fluss's reader, and compares the rows. */
    static void compare(String table, boolean changelog, int minBatches) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", FlussCluster.bootstrap());
        try (Connection c = ConnectionFactory.createConnection(conf); Table t = c.getTable(TablePath.of(DATABASE, table))) {
            org.apache.fluss.types.RowType flussType = t.getTableInfo().getRowType();
            RowType flinkType = FlinkConversions.toFlinkRowType(flussType);
            // Fluss's own reader, from the start of the log.
            List<byte[]> expected = new ArrayList<>();
            RowDataSerializer serializer = new RowDataSerializer(flinkType);
            FlussRowToFlinkRowConverter converter = new FlussRowToFlinkRowConverter(flussType);
            List<byte[]> actual = rawRows((FlussConnection) c, t, flinkType, changelog, minBatches);
            try (LogScanner scanner = t.newScan().createLogScanner()) {
                scanner.subscribeFromBeginning(0);
                long deadline = System.currentTimeMillis() + 60_000;
                while (expected.size() < actual.size() && System.currentTimeMillis() < deadline) {
                    ScanRecords records = scanner.poll(Duration.ofSeconds(1));
                    for (ScanRecord r : records) {
                        BinaryRowData row = serializer.toBinaryRow(converter.toFlinkRowData(r));
                        expected.add(java.util.Arrays.copyOfRange(row.getSegments()[0].getArray(), row.getOffset(),
                                row.getOffset() + row.getSizeInBytes()));
                    }
                }
            }
            assertEquals(expected.size(), actual.size(), "rows of Fluss's reader and of the native decoding");
            for (int r = 0; r < actual.size(); r++) {
                assertArrayEquals(expected.get(r), actual.get(r), "row " + r + " of " + table);
            }
        }
    }

    /**
     * The bucket's log fetched raw from its leader (FetchLog, no projection) until the high
     * watermark, each answer's batches decoded in Go; at least minBatches batches.
     */
    static List<byte[]> rawRows(FlussConnection c, Table t, RowType rowType, boolean changelog, int minBatches) throws Exception {
        long tableId = t.getTableInfo().getTableId();
        MetadataUpdater metadata = c.getMetadataUpdater();
        metadata.checkAndUpdateTableMetadata(Set.of(t.getTableInfo().getTablePath()));
        TabletServerGateway leader = metadata.newTabletServerClientForNode(metadata.leaderFor(new TableBucket(tableId, 0)));
        byte[] type = rowType.asSerializableString().getBytes(StandardCharsets.UTF_8);
        List<byte[]> rows = new ArrayList<>();
        long offset = 0;
        long highWatermark = Long.MAX_VALUE;
        int batches = 0;
        long deadline = System.currentTimeMillis() + 60_000;
        while (offset < highWatermark) {
            assertTrue(System.currentTimeMillis() < deadline, "fetched to offset " + offset + " of " + highWatermark + " in a minute");
            FetchLogRequest request = new FetchLogRequest().setFollowerServerId(-1).setMaxBytes(1 << 20).setMaxWaitMs(100).setMinBytes(1);
            PbFetchLogReqForTable forTable = request.addTablesReq().setTableId(tableId).setProjectionPushdownEnabled(false);
            forTable.addBucketsReq().setBucketId(0).setFetchOffset(offset).setMaxFetchBytes(64 << 10);
            FetchLogResponse response = leader.fetchLog(request).get(30, TimeUnit.SECONDS);
            PbFetchLogRespForBucket bucket = response.getTablesRespAt(0).getBucketsRespAt(0);
            assertFalse(bucket.hasErrorCode() && bucket.getErrorCode() != 0, () -> "fetch error " + bucket.getErrorMessage());
            highWatermark = bucket.getHighWatermark();
            if (!bucket.hasRecords() || bucket.getRecordsSize() == 0) {
                continue;
            }
            ByteBuffer out = ByteBuffer.wrap(NativeLib.flussLogRows(type, changelog, bucket.getRecords())).order(ByteOrder.LITTLE_ENDIAN);
            int n = out.getInt();
            assertTrue(n > 0, "no whole batch in " + bucket.getRecordsSize() + " bytes at offset " + offset);
            for (int b = 0; b < n; b++, batches++) {
                long base = out.getLong();
                long next = out.getLong();
                assertTrue(base <= offset && next > offset, "batch [" + base + ", " + next + ") fetched at " + offset);
                offset = next;
                int count = out.getInt();
                int[] offsets = new int[count + 1];
                for (int i = 0; i <= count; i++) {
                    offsets[i] = out.getInt();
                }
                int start = out.position();
                for (int i = 0; i < count; i++) {
                    byte[] row = new byte[offsets[i + 1] - offsets[i]];
                    out.get(start + offsets[i], row);
                    rows.add(row);
                }
                out.position(start + offsets[count]);
            }
        }
        assertTrue(batches >= minBatches, batches + " batches, expected at least " + minBatches);
        return rows;
    }
}
