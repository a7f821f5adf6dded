package io.sluice;

import io.sluice.runtime.NativeChainOperator;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsSinkFactory;
import io.sluice.testing.RowsTableFactory;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rescaling native keyed state (a window aggregation, session windows, a window join, an interval join, group
 * aggregations, a deduplication, a Top-N, an OVER aggregation): the job runs at
 * parallelism 2, is stopped with a savepoint, resumes at parallelism 3, is stopped again, and
 * finishes at parallelism 1. Flink redistributes the raw keyed state by key group; the rows
 * written by the three runs together equal the output of one uninterrupted stock Flink run.
 * With a maximum parallelism of 3 the middle run owns exactly one key group per subtask.
 */
class WindowRescaleTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    /**
     * A job: its query over table t of the rows, and the other tables it reads; a changelog job
     * is compared by its final table.
     */
    record Job(String name, String query, List<Row> rows, List<String> ddl, boolean changelog) {
        Job(String name, String query, List<Row> rows, List<String> ddl) {
            this(name, query, rows, ddl, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<org.junit.jupiter.params.provider.Arguments> jobs() {
        Job agg = new Job("window aggregation", WindowAggregateParityTest.query(
                "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '3' SECOND)", "k", WindowAggregateParityTest.AGGS),
                WindowAggregateParityTest.rows(2000), List.of());
        ParityCase join = WindowJoinParityTest.join("rescale", "FULL", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '3' SECOND)",
                WindowJoinParityTest.BOTH, " AND L.v < R.v + 300");
        Job windowJoin = new Job("window join", join.query(), WindowJoinParityTest.joinRows(11, 1500, "a", "b", "c", "e", null),
                List.of(WindowJoinParityTest.RIGHT_TABLE.replace("')", "', 'delay-ms' = '2')")));
        ParityCase interval = IntervalJoinParityTest.join("rescale", IntervalJoinParityTest.BOTH_ONE_ROWTIME, "FULL",
                IntervalJoinParityTest.WITHIN_2S,
                " AND L.v < R.v + 300");
        Job intervalJoin = new Job("interval join", interval.query(), windowJoin.rows(), windowJoin.ddl());
        List<org.junit.jupiter.params.provider.Arguments> out = new java.util.ArrayList<>();
        Job groupAgg = new Job("group aggregation", "SELECT k, " + WindowAggregateParityTest.AGGS + " FROM t GROUP BY k",
                WindowAggregateParityTest.rows(2000), List.of(), true);
        Job retracting = new Job("retracting group aggregation", "SELECT c, " + GroupAggregateParityTest.OVER_INNER
                + " FROM (" + GroupAggregateParityTest.INNER + ") GROUP BY c", WindowAggregateParityTest.rows(2000), List.of(), true);
        Job dedup = new Job("deduplication", DeduplicateParityTest.dedup("k, i", "ts DESC"), WindowAggregateParityTest.rows(2000),
                List.of(), true);
        Job topN = new Job("top-n", TopNParityTest.topN("k", "v DESC", "rn <= 3", true), WindowAggregateParityTest.rows(2000),
                List.of(), true);
        Job over = new Job("over aggregation", OverAggregateParityTest.over(OverAggregateParityTest.AGGS,
                OverAggregateParityTest.RANGE_2S), WindowAggregateParityTest.rows(2000), List.of());
        Job sessions = new Job("session windows", WindowAggregateParityTest.query(SessionWindowParityTest.session("k", "2"), "k",
                WindowAggregateParityTest.AGGS), WindowAggregateParityTest.rows(2000), List.of());
        // A changelog input (u aggregated per (k, i)) kept by its unique key, the join key.
        Job changelogJoin = new Job("regular join of a changelog", "SELECT L.k, L.v, R.i AS ri, R.c FROM t L "
                + "FULL JOIN (SELECT k, i, COUNT(*) AS c FROM u GROUP BY k, i) R ON L.k = R.k AND L.i = R.i",
                windowJoin.rows(), windowJoin.ddl(), true);
        for (Job j : List.of(agg, sessions, windowJoin, intervalJoin, groupAgg, retracting, dedup, topN, over, changelogJoin)) {
            for (int maxParallelism : new int[] {128, 3}) {
                out.add(org.junit.jupiter.params.provider.Arguments.of(j, maxParallelism));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}, max parallelism {1}")
    @org.junit.jupiter.params.provider.MethodSource("jobs")
    void rescaledRunsTogetherMatchOneStockRun(Job job, int maxParallelism, @TempDir Path savepoints) throws Exception {
        String data = RowsTableFactory.register(job.rows());

        StreamTableEnvironment stock = env(job, 1, maxParallelism, null, false, data, null);
        ParityHarness.Outcome expected = ParityHarness.collect(stock, job.query());
        assertEquals(null, expected.failure());

        String sink = "rescale-" + UUID.randomUUID();
        long restored = NativeChainOperator.KEY_GROUPS_RESTORED.get();
        long exchanged = NativeChainOperator.EXCHANGE_BATCHES.get();
        String savepoint = runAndStop(job, env(job, 2, maxParallelism, null, true, data, sink), savepoints);
        savepoint = runAndStop(job, env(job, 3, maxParallelism, savepoint, true, data, sink), savepoints);
        TableResult last = insert(job, env(job, 1, maxParallelism, savepoint, true, data, sink));
        last.await();

        assertTrue(NativeChainOperator.KEY_GROUPS_RESTORED.get() > restored, "no native state was restored");
        assertTrue(NativeChainOperator.EXCHANGE_BATCHES.get() > exchanged, "no batch crossed a columnar exchange");
        if (job.changelog()) {
            // Each run's changelog differs (the runs split the input differently), their sum
            // is the same table.
            assertEquals(WindowRecoveryTest.sorted(ParityHarness.materialized(expected.rows())),
                    WindowRecoveryTest.sorted(ParityHarness.materialized(RowsSinkFactory.rows(sink))));
        } else {
            assertEquals(WindowRecoveryTest.sorted(expected.rows()), WindowRecoveryTest.sorted(RowsSinkFactory.rows(sink)));
        }
    }

    static StreamTableEnvironment env(
            Job job, int parallelism, int maxParallelism, String savepoint, boolean sluice, String data, String sink) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.MAX_PARALLELISM, maxParallelism);
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        // No periodic watermarks: which rows are late must not depend on the runs' speed (see
        // WindowRecoveryTest).
        tEnv.getConfig().set("pipeline.auto-watermark-interval", "0 ms");
        if (sluice) {
            Sluice.install(tEnv);
        }
        tEnv.executeSql("CREATE TABLE t (" + WindowAggregateParityTest.SCHEMA + ") WITH ('connector' = '"
                + RowsTableFactory.IDENTIFIER + "', 'data-id' = '" + data + "', 'delay-ms' = '2')");
        job.ddl().forEach(tEnv::executeSql);
        if (sink != null) {
            StringBuilder columns = new StringBuilder();
            for (Column c : tEnv.sqlQuery(job.query()).getResolvedSchema().getColumns()) {
                LogicalType t = c.getDataType().getLogicalType();
                if (t instanceof TimestampType ts) {
                    t = new TimestampType(ts.isNullable(), ts.getPrecision()); // a plain column, not a time attribute
                }
                columns.append(columns.length() == 0 ? "" : ", ").append('`').append(c.getName()).append("` ")
                        .append(t.asSerializableString());
            }
            tEnv.executeSql("CREATE TABLE results (" + columns + ") WITH ('connector' = '" + RowsSinkFactory.IDENTIFIER
                    + "', 'sink-id' = '" + sink + "'" + (job.changelog() ? ", 'changelog' = 'all'" : "") + ")");
        }
        return tEnv;
    }

    static TableResult insert(Job job, StreamTableEnvironment tEnv) {
        assertTrue(Sluice.verdict(tEnv, job.query()).isNative(), () -> Sluice.verdict(tEnv, job.query()).toString());
        return tEnv.executeSql("INSERT INTO results " + job.query());
    }

    /** Runs the job for a while, stops it with a savepoint and returns the savepoint's path. */
    static String runAndStop(Job j, StreamTableEnvironment tEnv, Path dir) throws Exception {
        JobClient job = insert(j, tEnv).getJobClient().orElseThrow();
        Thread.sleep(1500);
        // A slow machine may still be deploying the tasks: a savepoint needs them all running.
        for (int attempt = 1; ; attempt++) {
            try {
                return job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (attempt == 10 || job.getJobStatus().get().isTerminalState()) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }
}
