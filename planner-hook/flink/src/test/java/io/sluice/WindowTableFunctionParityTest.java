package io.sluice;

import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.testing.ParityCase.fallback;
import static io.sluice.testing.ParityCase.nativeCase;

/**
 * Window TVFs that no aggregation follows (selected, filtered, projected) against stock Flink's
 * AlignedWindowTableFunctionOperator: each row once per window, in the order of Flink's group
 * window assigners, late rows kept (only a window aggregation or join drops them);
 * TIMESTAMP_LTZ time attributes in fixed and daylight-saving zones.
 * At parallelism 1 the rows compare in order.
 */
class WindowTableFunctionParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;
    static final String TUMBLE = "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)";
    static final String HOP = "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)";
    static final String CUMULATE = "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '8' SECOND)";

    /** WindowAggregateParityTest's rows, every seventh without an event time. */
    static List<Row> rowsWithNullTimes() {
        List<Row> out = new ArrayList<>();
        List<Row> rows = WindowAggregateParityTest.rows();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            out.add(Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3), i % 7 == 3 ? null : r.getField(4)));
        }
        return out;
    }

    static ParityCase tvf(String name, String window, String select) {
        return nativeCase(name, SCHEMA, WindowAggregateParityTest.rows(), "SELECT " + select + " FROM TABLE(" + window + ")");
    }

    static List<ParityCase> cases() {
        return List.of(
                tvf("tumble", TUMBLE, "*"),
                tvf("tumble-offset", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '2' SECOND)", "*"),
                tvf("tumble-negative-offset", "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '-3' SECOND)", "*"),
                tvf("hop", HOP, "*"),
                tvf("hop-offset", "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND, INTERVAL '1' SECOND)", "*"),
                tvf("cumulate", CUMULATE, "*"),
                // A Calc on the window columns after the TVF, in the same native chain.
                nativeCase("hop-filtered", SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT k, v + 1 AS v1, window_start, window_end, window_time FROM TABLE(" + HOP + ") "
                                + "WHERE v > 0 AND window_end > ts + INTERVAL '3' SECOND"),
                nativeCase("cumulate-window-columns", SCHEMA, WindowAggregateParityTest.rows(),
                        "SELECT window_start, window_end, CAST(window_time AS STRING) AS wt, k FROM TABLE(" + CUMULATE + ") "
                                + "WHERE k IS NOT NULL"),
                // Flink's watermark assigner fails on a NULL event time before any window is
                // assigned; the native assigner fails the same way.
                nativeCase("null-event-times", SCHEMA, rowsWithNullTimes(), "SELECT * FROM TABLE(" + HOP + ")")
                        .fails("RowTime field should not be null"),
                tvf("hop", HOP, "*").withParallelism(2),
                // TIMESTAMP_LTZ: windows on the session zone's wall clock; window_time an instant.
                nativeCase("ltz-plus8", WindowAggregateParityTest.LTZ_SCHEMA, WindowAggregateParityTest.ltzRows(),
                        "SELECT * FROM TABLE(" + HOP + ")").with("table.local-time-zone", "GMT+08:00"),
                nativeCase("ltz-dst-cumulate", WindowAggregateParityTest.LTZ_SCHEMA, WindowAggregateParityTest.dstRows(),
                        "SELECT k, ts, window_start, window_end, window_time FROM TABLE("
                                + "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY))")
                        .with("table.local-time-zone", "America/Los_Angeles"),
                nativeCase("ltz-dst-tumble-hour", WindowAggregateParityTest.LTZ_SCHEMA, WindowAggregateParityTest.dstRows(),
                        "SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR))")
                        .with("table.local-time-zone", "Australia/Lord_Howe"),
                // Each row takes the clock when it arrives: not native yet.
                fallback("proctime", "k STRING, v BIGINT, pt AS PROCTIME()", List.of(Row.of("a", 1L), Row.of("b", 2L)),
                        "SELECT k, v, window_start, window_end FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '1' HOUR))",
                        "processing-time window table functions"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
