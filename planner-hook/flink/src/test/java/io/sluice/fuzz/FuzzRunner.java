package io.sluice.fuzz;

import io.sluice.Sluice;
import io.sluice.planner.Verdict;
import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;
import io.sluice.testing.ParityHarness.Outcome;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs fuzz cases on stock Flink and on Sluice in the running MiniCluster and compares every
 * expression's values byte for byte (by {@link ParityHarness#renderValue}).
 *
 * <p>A case's expressions run as the columns of one SELECT. Expressions that Sluice would not run
 * natively are found by planning halves of the list (cheap: no job), set aside and counted by
 * reason. When a job fails, the failing expressions are found the same way by running halves; an
 * expression that fails on Flink must fail on Sluice too. A mismatch is shrunk (rows, then
 * subexpressions) to a small case that still mismatches, and saved as a regression file.
 */
public final class FuzzRunner {
    /** A mismatch, shrunk: the minimal case (one expression) and what each engine produced. */
    public record Mismatch(FuzzCase minimal, String flink, String sluice) {
        @Override
        public String toString() {
            return "seed " + minimal.seed() + ": " + minimal.exprs().get(0).render() + "\n  rows: "
                    + minimal.rowTexts() + "\n  config: " + minimal.config() + "\n  Flink:  " + flink + "\n  Sluice: " + sluice;
        }
    }

    /** What a run of cases found. */
    public static final class Report {
        int exprs;
        int compared;
        int failedOnBoth;
        int invalid;
        int jobs;
        final Map<String, Integer> fallbackReasons = new TreeMap<>();
        final Map<String, Integer> comparedByFunction = new TreeMap<>();
        final List<String> invalidExamples = new ArrayList<>();
        final List<Mismatch> mismatches = new ArrayList<>();

        public int exprs() { return exprs; }
        public int compared() { return compared; }
        public int invalid() { return invalid; }
        public List<Mismatch> mismatches() { return mismatches; }
        public Map<String, Integer> comparedByFunction() { return comparedByFunction; }

        public int fallbacks() {
            return fallbackReasons.values().stream().mapToInt(Integer::intValue).sum();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format("%d expressions: %d compared natively (%d failed on both engines), %d fell back, %d invalid; %d jobs%n",
                    exprs, compared, failedOnBoth, fallbacks(), invalid, jobs));
            sb.append("compared per function: ").append(comparedByFunction).append('\n');
            fallbackReasons.forEach((r, n) -> sb.append(String.format("  fallback x%d: %s%n", n, r)));
            invalidExamples.forEach(e -> sb.append("  invalid: ").append(e).append('\n'));
            mismatches.forEach(m -> sb.append("MISMATCH ").append(m).append('\n'));
            return sb.toString();
        }
    }

    /**
     * The fuzz table's rows are binary, as from Parquet, Iceberg or any exchange: with Java
     * Strings in the rows Flink would order strings by UTF-16 code units when both operands
     * carry one (docs/divergences.md), which depends on the source, not on the query.
     */
    private static final String BINARY_ROWS = ", 'binary-rows' = 'true'";

    private final Path regressionDir;
    private final Report report = new Report();
    private int shrinkBudget;

    /** A runner that saves shrunk mismatches in regressionDir (none if null). */
    public FuzzRunner(Path regressionDir) {
        this.regressionDir = regressionDir;
    }

    public Report report() {
        return report;
    }

    /** Runs one case and adds what it found to the report. */
    public void run(FuzzCase c) {
        report.exprs += c.exprs().size();
        List<ExprNode> planned = new ArrayList<>();
        classifyPlans(c, c.exprs(), planned);
        // Expressions that plan natively by halves need not together: Flink's constant
        // reduction gives up on a whole Calc when it cannot compile one of its constants (and
        // then e.g. ELEMENT(ARRAY[2]) stays in the plan and falls back). Run them in groups that
        // plan natively as they run.
        List<List<ExprNode>> groups = new ArrayList<>();
        groupNative(c, planned, groups);
        for (List<ExprNode> g : groups) {
            runNative(c, new ArrayList<>(g));
        }
    }

    /** Splits exprs into groups that plan natively together, by halves; the others fall back. */
    private void groupNative(FuzzCase c, List<ExprNode> exprs, List<List<ExprNode>> groups) {
        if (exprs.isEmpty()) {
            return;
        }
        String why = planProblem(c, exprs);
        if (why == null) {
            groups.add(exprs);
            return;
        }
        if (exprs.size() == 1) {
            // Native only beside others (classifyPlans accepted it in a group).
            report.fallbackReasons.merge(why, 1, Integer::sum);
            return;
        }
        int half = exprs.size() / 2;
        groupNative(c, exprs.subList(0, half), groups);
        groupNative(c, exprs.subList(half, exprs.size()), groups);
    }

    /** Runs expressions that plan natively together on both engines and compares them. */
    private void runNative(FuzzCase c, List<ExprNode> runnable) {
        List<ExprNode> failing = new ArrayList<>();
        Outcome flink = execute(c, runnable, false);
        if (flink.failed()) {
            findFailing(c, runnable, false, failing);
            runnable.removeAll(failing);
            for (ExprNode e : failing) {
                Outcome s = execute(c.with(c.rowTexts(), List.of(e)), List.of(e), true);
                if (s.failed()) {
                    report.failedOnBoth++;
                    report.compared++;
                    count(e);
                } else {
                    mismatch(c, e, "failed: " + rootCause(flinkFailure(c, e)), render(s.rows(), 0));
                }
            }
            if (runnable.isEmpty()) {
                return;
            }
            flink = execute(c, runnable, false);
            if (flink.failed()) {
                throw new IllegalStateException("seed " + c.seed() + ": Flink failed on expressions that each ran alone: "
                        + rootCause(flink.failure()));
            }
        }
        long before = ParityHarness.nativeBatches();
        Outcome sluice = execute(c, runnable, true);
        if (!sluice.failed() && !c.rowTexts().isEmpty() && ParityHarness.nativeBatches() == before) {
            throw new IllegalStateException("seed " + c.seed() + ": the plan was native but no batch ran natively");
        }
        if (sluice.failed()) {
            List<ExprNode> sluiceFailing = new ArrayList<>();
            findFailing(c, runnable, true, sluiceFailing);
            for (ExprNode e : sluiceFailing) {
                int k = runnable.indexOf(e);
                mismatch(c, e, render(flink.rows(), k), "failed: " + rootCause(execute(c, List.of(e), true).failure()));
            }
            runnable.removeAll(sluiceFailing);
            if (runnable.isEmpty()) {
                return;
            }
            flink = execute(c, runnable, false);
            sluice = execute(c, runnable, true);
            if (flink.failed() || sluice.failed()) {
                throw new IllegalStateException("seed " + c.seed() + ": expressions that each run alone fail together on "
                        + (flink.failed() ? "Flink: " + rootCause(flink.failure()) : "Sluice: " + rootCause(sluice.failure())));
            }
        }
        for (int k = 0; k < runnable.size(); k++) {
            String want = render(flink.rows(), k);
            String got = render(sluice.rows(), k);
            if (want.equals(got)) {
                report.compared++;
                count(runnable.get(k));
            } else {
                mismatch(c, runnable.get(k), want, got);
            }
        }
    }

    private void count(ExprNode e) {
        java.util.Set<String> fns = new java.util.TreeSet<>();
        e.forEach(n -> {
            if (!n.fn().isEmpty()) {
                fns.add(n.fn());
            }
        });
        fns.forEach(f -> report.comparedByFunction.merge(f, 1, Integer::sum));
    }

    /** Splits exprs into runnable ones (plan natively) and reports the others, by halves. */
    private void classifyPlans(FuzzCase c, List<ExprNode> exprs, List<ExprNode> runnable) {
        String why = planProblem(c, exprs);
        if (why == null) {
            runnable.addAll(exprs);
            return;
        }
        if (exprs.size() == 1) {
            if (why.startsWith("invalid: ")) {
                report.invalid++;
                if (report.invalidExamples.size() < 20) {
                    report.invalidExamples.add(exprs.get(0).render() + " -- " + why);
                }
            } else {
                report.fallbackReasons.merge(why, 1, Integer::sum);
            }
            return;
        }
        int half = exprs.size() / 2;
        classifyPlans(c, exprs.subList(0, half), runnable);
        classifyPlans(c, exprs.subList(half, exprs.size()), runnable);
    }

    /** Null if Sluice plans the expressions natively, else why not. */
    private String planProblem(FuzzCase c, List<ExprNode> exprs) {
        String query = FuzzCase.query(exprs);
        Verdict v;
        try {
            v = Sluice.verdict(ParityHarness.newEnv(parityCase(c, query), true, BINARY_ROWS), query);
        } catch (Exception | AssertionError e) {
            // AssertionError: Calcite's own checks (e.g. a simplification that changes a type);
            // a checked Exception: Flink's Scala code generation (e.g. "Unsupported operand
            // types: IF(boolean, DATE, DATE)" while reducing constants), which stock Flink's
            // planning throws as well.
            return "invalid: " + rootCause(e);
        }
        if (v.isNative()) {
            return null;
        }
        // Reasons name the expression; keep the part that names the function for counting.
        String reasons = String.join("; ", v.reasons());
        return reasons.replaceAll("Calc#\\d+: projection \\d+ \\(e\\d+\\): ", "")
                .replaceAll(" NOT NULL", "").replaceAll("'[^']*'", "'…'");
    }

    /** Adds to failing the expressions that fail alone, searching by halves. */
    private void findFailing(FuzzCase c, List<ExprNode> exprs, boolean sluice, List<ExprNode> failing) {
        if (exprs.size() == 1) {
            failing.add(exprs.get(0));
            return;
        }
        int half = exprs.size() / 2;
        for (List<ExprNode> part : List.of(exprs.subList(0, half), exprs.subList(half, exprs.size()))) {
            if (execute(c, part, sluice).failed()) {
                findFailing(c, part, sluice, failing);
            }
        }
    }

    private Throwable flinkFailure(FuzzCase c, ExprNode e) {
        return execute(c, List.of(e), false).failure();
    }

    private Outcome execute(FuzzCase c, List<ExprNode> exprs, boolean sluice) {
        report.jobs++;
        String query = FuzzCase.query(exprs);
        StreamTableEnvironment tEnv = ParityHarness.newEnv(parityCase(c, query), sluice, BINARY_ROWS);
        return ParityHarness.collect(tEnv, query);
    }

    private static ParityCase parityCase(FuzzCase c, String query) {
        return new ParityCase("fuzz-" + c.seed(), c.ddl(), c.rows(), query, io.sluice.testing.Expectation.nativeRun(), 1, false, c.config(),
                java.util.List.of(), java.util.Map.of());
    }

    private static String render(List<Row> rows, int column) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(ParityHarness.renderValue(rows.get(i).getField(column)));
        }
        return sb.append(']').toString();
    }

    static String rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        return t.getClass().getSimpleName() + ": " + (nl >= 0 ? m.substring(0, nl) : m);
    }

    // ---- mismatches ----

    private void mismatch(FuzzCase c, ExprNode e, String flink, String sluice) {
        shrinkBudget = 120;
        FuzzCase min = shrink(c.with(c.rowTexts(), List.of(e)));
        String[] outs = outputs(min);
        Mismatch m = new Mismatch(min, outs == null ? flink : outs[0], outs == null ? sluice : outs[1]);
        report.mismatches.add(m);
        save(m);
    }

    /** Flink's and Sluice's outputs of a one-expression case, or null if it does not mismatch. */
    private String[] outputs(FuzzCase c) {
        if (planProblem(c, c.exprs()) != null) {
            return null;
        }
        Outcome f = execute(c, c.exprs(), false);
        Outcome s = execute(c, c.exprs(), true);
        String fs = f.failed() ? "failed: " + rootCause(f.failure()) : render(f.rows(), 0);
        String ss = s.failed() ? "failed: " + rootCause(s.failure()) : render(s.rows(), 0);
        if (f.failed() == s.failed() && (f.failed() || fs.equals(ss))) {
            return null;
        }
        return new String[] {fs, ss};
    }

    private boolean reproduces(FuzzCase c) {
        if (shrinkBudget-- <= 0) {
            return false;
        }
        return outputs(c) != null;
    }

    /** Greedy shrinking: fewer rows, then smaller expressions, until nothing smaller mismatches. */
    private FuzzCase shrink(FuzzCase c) {
        c = shrinkRows(c);
        boolean progress = true;
        while (progress) {
            progress = false;
            ExprNode e = c.exprs().get(0);
            List<ExprNode> candidates = e.shrinkCandidates(c.leaves());
            candidates.sort(java.util.Comparator.comparingInt(ExprNode::size));
            for (ExprNode smaller : candidates) {
                FuzzCase next = c.with(c.rowTexts(), List.of(smaller));
                if (reproduces(next)) {
                    c = next;
                    progress = true;
                    break;
                }
            }
        }
        return shrinkRows(c);
    }

    private FuzzCase shrinkRows(FuzzCase c) {
        List<List<String>> rows = new ArrayList<>(c.rowTexts());
        for (int chunk = Math.max(1, rows.size() / 2); chunk >= 1 && rows.size() > 1; chunk /= 2) {
            for (int start = 0; start < rows.size() && rows.size() > 1; ) {
                List<List<String>> fewer = new ArrayList<>(rows.subList(0, start));
                fewer.addAll(rows.subList(Math.min(rows.size(), start + chunk), rows.size()));
                if (!fewer.isEmpty() && reproduces(c.with(fewer, c.exprs()))) {
                    rows = fewer;
                } else {
                    start += chunk;
                }
            }
            if (chunk == 1) {
                break;
            }
        }
        return c.with(rows, c.exprs());
    }

    private void save(Mismatch m) {
        if (regressionDir == null) {
            return;
        }
        var json = m.minimal().toJson();
        json.put("flink", m.flink());
        json.put("sluice", m.sluice());
        String sql = m.minimal().exprs().get(0).render();
        String name = String.format("seed-%d-%08x.json", m.minimal().seed(), sql.hashCode());
        try {
            Files.createDirectories(regressionDir);
            Files.writeString(regressionDir.resolve(name),
                    FuzzCase.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot save fuzz regression " + name + ": " + e, e);
        }
    }
}
