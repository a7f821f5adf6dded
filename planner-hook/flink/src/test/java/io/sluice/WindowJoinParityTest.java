package io.sluice;

import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.RowsTableFactory;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Window joins against stock Flink's WindowJoinOperator: two window TVFs joined on their windows
 * and keys, of every join type, with a condition on both rows, on out-of-order rows, NULL keys
 * (matching nothing) and keys on one side only.
 * Both inputs reach the native join through columnar exchanges; the rows of one watermark come
 * in no defined order, so outputs compare as multisets.
 */
class WindowJoinParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final String SCHEMA = WindowAggregateParityTest.SCHEMA;

    /**
     * Rows of one input: keys (NULL among them), values with NULLs, event times rising by whole
     * seconds with up to 900 ms of disorder. None is later than its own input's watermark (event
     * time - 1 s): which rows of two inputs a join drops as late depends on how the inputs
     * interleave, in Flink as in Sluice, so the parity cases keep to rows that are never late.
     */
    static List<Row> joinRows(long seed, int count, String... keys) {
        Random rnd = new Random(seed);
        List<Row> rows = new ArrayList<>();
        long second = 0;
        for (int n = 0; n < count; n++) {
            if (rnd.nextInt(3) == 0) {
                second += 1 + rnd.nextInt(2);
            }
            long millis = second * 1000 + (rnd.nextInt(4) == 0 ? -rnd.nextInt(900) : rnd.nextInt(100));
            Long v = rnd.nextInt(9) == 0 ? null : (long) rnd.nextInt(800) - 200;
            Double d = rnd.nextInt(9) == 0 ? null : rnd.nextDouble();
            Integer i = rnd.nextInt(9) == 0 ? null : rnd.nextInt(4);
            rows.add(Row.of(keys[rnd.nextInt(keys.length)], v, d, i,
                    WindowAggregateParityTest.BASE.plusNanos(Math.max(0, millis) * 1_000_000L)));
        }
        return rows;
    }

    static List<Row> rightRows() {
        return joinRows(23, 240, "a", "b", "Grüße", "f", null);
    }

    static List<Row> leftRows() {
        return joinRows(11, 300, "a", "b", "c", "Grüße", "e", null);
    }

    static final String RIGHT_ID = RowsTableFactory.register(rightRows());

    /** Table u of the right rows, beside t of the left ones. */
    static final String RIGHT_TABLE = "CREATE TABLE u (" + SCHEMA + ") WITH ('connector' = '" + RowsTableFactory.IDENTIFIER
            + "', 'data-id' = '" + RIGHT_ID + "')";

    static String tvf(String table, String window) {
        return "(SELECT * FROM TABLE(" + window.replace("TABLE t", "TABLE " + table) + "))";
    }

    /** L JOIN R of the join type on the windows and k, with an extra condition. */
    static ParityCase join(String name, String type, String window, String select, String condition) {
        String q = "SELECT " + select + " FROM " + tvf("t", window) + " L " + type + " JOIN " + tvf("u", window) + " R "
                + "ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k" + condition;
        return joinCase(name, q);
    }

    static ParityCase joinCase(String name, String query) {
        return ParityCase.nativeCase(name, SCHEMA, leftRows(), query).asMultiset().withDdl(RIGHT_TABLE);
    }

    static final String TUMBLE = "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)";
    static final String HOP = "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)";
    static final String CUMULATE = "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)";
    static final String BOTH = "L.k, L.v, L.i, R.v AS rv, R.i AS ri, L.window_start, L.window_end, R.window_start AS rws";

    static List<ParityCase> cases() {
        String semiWhere = " WHERE L.k IN (SELECT R.k FROM " + tvf("u", TUMBLE) + " R "
                + "WHERE L.window_start = R.window_start AND L.window_end = R.window_end)";
        String antiWhere = " WHERE NOT EXISTS (SELECT * FROM " + tvf("u", TUMBLE) + " R "
                + "WHERE L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k AND R.v > L.v)";
        return List.of(
                join("inner-tumble", "", TUMBLE, BOTH, ""),
                join("inner-condition", "", TUMBLE, BOTH, " AND L.v > R.v"),
                join("left-tumble", "LEFT", TUMBLE, BOTH, ""),
                join("right-condition", "RIGHT", TUMBLE, BOTH, " AND R.i <> L.i"),
                join("full-tumble", "FULL", TUMBLE, BOTH, " AND L.v < R.v + 100"),
                join("inner-hop", "", HOP, BOTH, ""),
                // Mini-batches on event time (the shape of Nexmark q8): each input's watermarks
                // go on once per interval of event time.
                WindowAggregateParityTest.rowTimeMiniBatch(join("mini-batch-full-tumble", "FULL", TUMBLE, BOTH, " AND L.v < R.v + 100"), "2 s"),
                WindowAggregateParityTest.rowTimeMiniBatch(join("mini-batch-inner-hop", "", HOP, BOTH, ""), "3 s").withParallelism(2),
                join("left-cumulate", "LEFT", CUMULATE, BOTH, " AND L.d > R.d"),
                joinCase("semi-in", "SELECT L.k, L.v, L.window_start FROM " + tvf("t", TUMBLE) + " L" + semiWhere),
                joinCase("anti-not-exists", "SELECT L.k, L.v, L.window_end FROM " + tvf("t", TUMBLE) + " L" + antiWhere),
                join("inner-tumble", "", TUMBLE, BOTH, "").withParallelism(2),
                join("full-hop", "FULL", HOP, BOTH, "").withParallelism(2),
                // Without columnar exchanges the native join could not tell its inputs apart: the
                // whole job stays Flink's, and the verdict says why.
                join("row-exchanges", "", TUMBLE, BOTH, "").with("sluice.exchange.columnar", "false")
                        .expecting(io.sluice.testing.Expectation.fallback("columnar exchanges")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
