package io.sluice.testing;

import org.apache.flink.types.Row;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parity case of any suite, as data: its setup, a statement, and what Sluice must do. The
 * oracle is always stock Flink run on the same setup; the expectation says how Sluice must run
 * the job (natively, falling back with a reason, or with an edge left to Flink) and whether both
 * engines fail. Suites describe their cases with this type alone, in code or in JSON files under
 * {@code src/test/resources/parity/} ({@link ParityCases#load}).
 *
 * @param name a short unique name
 * @param schema the column list of {@code CREATE TABLE t (...)} over {@code rows}; "" when the
 *     case has no such table
 * @param rows the rows of t (RowKinds included)
 * @param query the statement both engines run (a SELECT, or an INSERT)
 * @param expect what Sluice must do
 * @param parallelism the job's default parallelism; above 1 the output order is not
 *     deterministic and outputs are compared as multisets
 * @param unordered compare outputs as multisets even at parallelism 1 (rows that Flink emits
 *     together, such as the windows one watermark fires, come in no defined order)
 * @param config table options set in both environments
 * @param ddl statements run in both environments before the query (after table t), with
 *     {@code ${name}} replaced from {@code vars} and the suite's fixtures
 * @param vars the suite's setup parameters (table options, fixture names, DDL fragments, a
 *     harness's clock), which the suite's environment reads by name
 */
public record ParityCase(
        String name,
        String schema,
        List<Row> rows,
        String query,
        Expectation expect,
        int parallelism,
        boolean unordered,
        Map<String, String> config,
        List<String> ddl,
        Map<String, String> vars) {

    /** A case over table t that must run natively and match Flink. */
    public static ParityCase nativeCase(String name, String schema, List<Row> rows, String query) {
        return new ParityCase(name, schema, rows, query, Expectation.nativeRun(), 1, false, Map.of(), List.of(), Map.of());
    }

    /** A case over table t that must fall back with a reason containing {@code reason}, and still match Flink. */
    public static ParityCase fallback(String name, String schema, List<Row> rows, String query, String reason) {
        return new ParityCase(name, schema, rows, query, Expectation.fallback(reason), 1, false, Map.of(), List.of(), Map.of());
    }

    /** A case of a suite's own setup (no table t), described by its vars, that must run natively. */
    public static ParityCase of(String name, String query, Map<String, String> vars) {
        return new ParityCase(name, "", List.of(), query, Expectation.nativeRun(), 1, false, Map.of(), List.of(), Map.copyOf(vars));
    }

    /** Whether the island must run natively. */
    public boolean expectNative() {
        return expect.isNative();
    }

    /** The fallback reason (or edge note) the verdict must contain. */
    public String reason() {
        return expect.reason();
    }

    /** A setup parameter, or {@code fallback} when the case does not set it. */
    public String var(String key, String fallback) {
        return vars.getOrDefault(key, fallback);
    }

    /** The same case at another parallelism. */
    public ParityCase withParallelism(int p) {
        return new ParityCase(name + "-p" + p, schema, rows, query, expect, p, unordered, config, ddl, vars);
    }

    /** The same case compared as multisets. */
    public ParityCase asMultiset() {
        return new ParityCase(name, schema, rows, query, expect, parallelism, true, config, ddl, vars);
    }

    /** The same case with a table option set (in both runs). */
    public ParityCase with(String key, String value) {
        Map<String, String> c = new LinkedHashMap<>(config);
        c.put(key, value);
        return new ParityCase(name, schema, rows, query, expect, parallelism, unordered, Map.copyOf(c), ddl, vars);
    }

    /** The same case with more statements run before its query (in both runs). */
    public ParityCase withDdl(String... statements) {
        List<String> d = new java.util.ArrayList<>(ddl);
        d.addAll(List.of(statements));
        return new ParityCase(name, schema, rows, query, expect, parallelism, unordered, config, List.copyOf(d), vars);
    }

    /** The same case with the setup parameters vars (added to its own). */
    public ParityCase withVars(Map<String, String> more) {
        Map<String, String> v = new LinkedHashMap<>(vars);
        v.putAll(more);
        return new ParityCase(name, schema, rows, query, expect, parallelism, unordered, config, ddl, Map.copyOf(v));
    }

    /** The same case with another expectation. */
    public ParityCase expecting(Expectation e) {
        return new ParityCase(name, schema, rows, query, e, parallelism, unordered, config, ddl, vars);
    }

    /** The same case, on which both engines must fail (with any failure). */
    public ParityCase fails() {
        return expecting(expect.failing(""));
    }

    /** The same case, on which both engines must fail and Sluice's failure contains {@code text}. */
    public ParityCase fails(String text) {
        return expecting(expect.failing(text));
    }

    /** {@code ddl} with {@code ${name}} replaced from vars, then from {@code fixtures}. */
    public List<String> ddl(Map<String, String> fixtures) {
        return ddl.stream().map(s -> substitute(s, fixtures)).toList();
    }

    /** {@code s} with {@code ${name}} replaced from vars, then from {@code fixtures}. */
    public String substitute(String s, Map<String, String> fixtures) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (true) {
            int at = s.indexOf("${", i);
            if (at < 0) {
                return out.append(s, i, s.length()).toString();
            }
            int end = s.indexOf('}', at);
            if (end < 0) {
                throw new IllegalArgumentException(name + ": unterminated ${ in " + s);
            }
            String key = s.substring(at + 2, end);
            String v = vars.containsKey(key) ? vars.get(key) : fixtures.get(key);
            if (v == null) {
                throw new IllegalArgumentException(name + ": no value for ${" + key + "} in " + s);
            }
            out.append(s, i, at).append(v);
            i = end + 1;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
