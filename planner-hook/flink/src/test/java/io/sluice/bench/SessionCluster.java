package io.sluice.bench;

import io.sluice.cli.SluiceCli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.util.MiniClusterPipelineExecutorServiceLoader;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * The MiniCluster a measurement's JVM starts once and submits every run of the measurement to
 * (warm-ups and timed runs), as jobs are submitted to a standing session cluster. With a cluster
 * per job (Flink's local environment), each run also started a JobManager and a TaskManager whose
 * start-up code the JIT was still compiling while the timed job ran: a fixed cost, outside the net
 * runtime but taking one of the two cores from the job, that weighed on the shorter (faster) job.
 * The cluster has one TaskManager with as many slots as the job's parallelism, as the local
 * environment gives it (so managed memory per slot, e.g. RocksDB's, is the same).
 */
final class SessionCluster {
    private static MiniCluster cluster;

    private SessionCluster() {}

    /** Runs body with a session cluster of parallelism slots, closed afterwards. */
    static <T> T with(int parallelism, Callable<T> body) throws Exception {
        MiniClusterConfiguration config = new MiniClusterConfiguration.Builder()
                .setConfiguration(new Configuration())
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(parallelism)
                .build();
        try (MiniCluster mc = new MiniCluster(config)) {
            mc.start();
            cluster = mc;
            return body.call();
        } finally {
            cluster = null;
        }
    }

    /**
     * A table environment of parallelism p on the session cluster, with Sluice unless vanilla; on
     * a cluster of its own (Flink's local environment) outside {@link #with}.
     */
    static StreamTableEnvironment environment(int p, boolean vanilla) {
        if (cluster == null) {
            return SluiceCli.environment(p, null, vanilla);
        }
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(
                new MiniClusterPipelineExecutorServiceLoader(cluster),
                MiniClusterPipelineExecutorServiceLoader.updateConfigurationForMiniCluster(
                        new Configuration(), List.of(), List.of()),
                null);
        env.setParallelism(p);
        return SluiceCli.environment(env, vanilla);
    }
}
