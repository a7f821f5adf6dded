package io.sluice.testing;

import org.apache.flink.types.Row;

import java.util.List;

/**
 * One parity case, as data: the schema of table {@code t}, its rows, a query over it, and whether
 * Sluice must run it natively or fall back (with a reason containing {@code reason}).
 *
 * @param name a short unique name
 * @param schema the column list of {@code CREATE TABLE t (...)}
 * @param rows the rows of t (RowKinds included)
 * @param query a SELECT over t
 * @param expectNative true if Sluice must run the query natively
 * @param reason for a fallback case, text the fallback reasons must contain
 * @param parallelism the job's default parallelism; above 1 the output order is not
 *     deterministic and outputs are compared as multisets
 */
public record ParityCase(
        String name, String schema, List<Row> rows, String query, boolean expectNative, String reason, int parallelism) {

    /** A case that must run natively and match Flink. */
    public static ParityCase nativeCase(String name, String schema, List<Row> rows, String query) {
        return new ParityCase(name, schema, rows, query, true, null, 1);
    }

    /** A case that must fall back with a reason containing {@code reason}, and still match Flink. */
    public static ParityCase fallback(String name, String schema, List<Row> rows, String query, String reason) {
        return new ParityCase(name, schema, rows, query, false, reason, 1);
    }

    /** The same case at another parallelism. */
    public ParityCase withParallelism(int p) {
        return new ParityCase(name + "-p" + p, schema, rows, query, expectNative, reason, p);
    }

    @Override
    public String toString() {
        return name;
    }
}
