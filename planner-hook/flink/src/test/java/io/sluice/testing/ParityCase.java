package io.sluice.testing;

import org.apache.flink.types.Row;

import java.util.List;
import java.util.Map;

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
 * @param unordered compare outputs as multisets even at parallelism 1 (rows that Flink emits
 *     together, such as the windows one watermark fires, come in no defined order)
 * @param config table options set in both environments
 */
public record ParityCase(
        String name,
        String schema,
        List<Row> rows,
        String query,
        boolean expectNative,
        String reason,
        int parallelism,
        boolean unordered,
        Map<String, String> config) {

    /** A case that must run natively and match Flink. */
    public static ParityCase nativeCase(String name, String schema, List<Row> rows, String query) {
        return new ParityCase(name, schema, rows, query, true, null, 1, false, Map.of());
    }

    /** A case that must fall back with a reason containing {@code reason}, and still match Flink. */
    public static ParityCase fallback(String name, String schema, List<Row> rows, String query, String reason) {
        return new ParityCase(name, schema, rows, query, false, reason, 1, false, Map.of());
    }

    /** The same case at another parallelism. */
    public ParityCase withParallelism(int p) {
        return new ParityCase(name + "-p" + p, schema, rows, query, expectNative, reason, p, unordered, config);
    }

    /** The same case compared as multisets. */
    public ParityCase asMultiset() {
        return new ParityCase(name, schema, rows, query, expectNative, reason, parallelism, true, config);
    }

    /** The same case with a table option set (in both runs). */
    public ParityCase with(String key, String value) {
        Map<String, String> c = new java.util.LinkedHashMap<>(config);
        c.put(key, value);
        return new ParityCase(name, schema, rows, query, expectNative, reason, parallelism, unordered, Map.copyOf(c));
    }

    @Override
    public String toString() {
        return name;
    }
}
