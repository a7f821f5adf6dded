package io.sluice;

import io.sluice.testing.Expectation;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static io.sluice.WindowAggregateParityTest.AGGS;
import static io.sluice.WindowAggregateParityTest.FILTERED;
import static io.sluice.WindowAggregateParityTest.SCHEMA;

/**
 * SESSION window aggregations (the window TVF with PARTITION BY) against stock
 * Flink's session windows: each row's window [ts, ts + gap) merges with the sessions it
 * touches, so that rows out of order bridge two sessions into one; rows whose window ends
 * behind the watermark without touching a live session are dropped; sessions fire when the
 * watermark reaches their end. Compared as multisets (sessions fired by one watermark come out
 * in the order of Flink's timer heap).
 */
class SessionWindowParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static String session(String partition, String gap) {
        return "SESSION(TABLE t" + (partition.isEmpty() ? "" : " PARTITION BY " + partition) + ", DESCRIPTOR(ts), INTERVAL '"
                + gap + "' SECOND)";
    }

    static ParityCase sessionCase(String name, String window, String keys, String aggs) {
        return ParityCase.nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(),
                WindowAggregateParityTest.query(window, keys, aggs)).asMultiset();
    }

    static List<ParityCase> cases() {
        return List.of(
                sessionCase("partitioned-2s", session("k", "2"), "k", AGGS),
                sessionCase("partitioned-1s", session("k", "1"), "k", AGGS),
                sessionCase("partitioned-5s", session("k", "5"), "k", AGGS),
                sessionCase("two-partition-keys", session("(k, i)", "2"), "k, i", "COUNT(*) AS c, SUM(v) AS sv, MAX(d) AS mxd"),
                sessionCase("partitioned-by-int", session("i", "1"), "i", AGGS),
                // Without PARTITION BY, Flink plans sessions over the whole input (a window
                // table function) and a group aggregation of them.
                sessionCase("unpartitioned", session("", "2"), "k", AGGS)
                        .expecting(Expectation.fallback("SESSION window table functions")),
                sessionCase("filtered", session("k", "2"), "k", FILTERED),
                // Many rows bridging two sessions, over NaN: which session's MIN/MAX the other
                // merges into decides the result, as Flink's HashSet of merged windows orders them.
                ParityCase.nativeCase("nan-merges", SCHEMA, WindowAggregateParityTest.rows(3000),
                        WindowAggregateParityTest.query(session("k", "2"), "k", "COUNT(*) AS c, MIN(d) AS mnd, MAX(d) AS mxd"))
                        .asMultiset(),
                sessionCase("many-keys", session("i", "3"), "i", AGGS).withParallelism(2),
                sessionCase("ties", session("k", "2"), "k", AGGS)
                        .with("table.optimizer.agg-phase-strategy", "TWO_PHASE"),
                ParityCase.nativeCase("tied-times", SCHEMA, OverAggregateParityTest.tiedRows(),
                        WindowAggregateParityTest.query(session("k", "2"), "k", AGGS)).asMultiset(),
                ParityCase.nativeCase("string-max", SCHEMA, WindowAggregateParityTest.rows(),
                        WindowAggregateParityTest.query(session("i", "2"), "i", "MAX(k) AS mxk, MIN(k) AS mnk, COUNT(k) AS ck"))
                        .asMultiset(),
                sessionCase("distinct", session("k", "2"), "k", "COUNT(DISTINCT i) AS di")
                        .expecting(Expectation.fallback("DISTINCT")),
                ParityCase.nativeCase("ltz", WindowAggregateParityTest.LTZ_SCHEMA, WindowAggregateParityTest.ltzRows(),
                        WindowAggregateParityTest.query(session("k", "2"), "k", AGGS))
                        .expecting(Expectation.fallback("TIMESTAMP_LTZ")).asMultiset());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
