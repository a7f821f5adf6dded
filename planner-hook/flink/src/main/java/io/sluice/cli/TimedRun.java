package io.sluice.cli;

import io.sluice.Sluice;
import io.sluice.planner.Verdict;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a SQL script whose last statement is an INSERT and measures the INSERT job's net runtime
 * (Flink's JobExecutionResult#getNetRuntime: cluster start-up excluded). Used by the demo and the
 * benchmarks, so that both measure the same way.
 */
public final class TimedRun {
    /** Result of one run. */
    public record Result(boolean sluice, boolean nativePlan, Verdict verdict, long millis, long rows) {
        /** Rows per second of net runtime. */
        public double rowsPerSecond() {
            return rows * 1000.0 / Math.max(1, millis);
        }
    }

    private TimedRun() {}

    /**
     * Executes every statement but the last, then the last (an INSERT) as a timed job.
     *
     * @param rows the number of rows the job reads (for the throughput)
     */
    public static Result run(String script, boolean sluice, int parallelism, long rows) throws Exception {
        return run(SluiceCli.environment(parallelism, null, !sluice), script, sluice, rows);
    }

    /**
     * {@link #run(String, boolean, int, long)} in a table environment made by the caller (e.g. on
     * a cluster that outlives the run); with Sluice installed in it if sluice.
     */
    public static Result run(StreamTableEnvironment tEnv, String script, boolean sluice, long rows) throws Exception {
        List<String> stmts = SqlScript.split(script);
        for (String s : stmts.subList(0, stmts.size() - 1)) {
            SqlScript.execute(tEnv, s);
        }
        String insert = stmts.get(stmts.size() - 1);
        Verdict verdict = sluice ? Sluice.verdict(tEnv, insert) : null;
        TableResult result = tEnv.executeSql(insert);
        JobExecutionResult done = result.getJobClient()
                .orElseThrow(() -> new IllegalStateException("no job for " + insert))
                .getJobExecutionResult()
                .get();
        long millis = done.getNetRuntime(TimeUnit.MILLISECONDS);
        return new Result(sluice, verdict != null && verdict.isNative(), verdict, millis, rows);
    }
}
