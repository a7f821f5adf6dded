package io.sluice.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The runs of one benchmark section: each measurement's median (after a warm-up run), its fastest
 * run and every run's throughput, and the table rows and spread list of the page.
 */
final class Measurements {
    /** Timed runs per measurement. */
    static final int RUNS = Integer.getInteger("sluice.bench.runs", 3);
    /**
     * Untimed full-size runs before them: in a fresh JVM stock Flink's window jobs ran at a third
     * of their later speed for the first two full-size runs (the JIT still compiling its paths),
     * so the timed runs compare steady states.
     */
    static final int WARMUPS = Integer.getInteger("sluice.bench.warmups", 2);

    private final String section;
    private final Map<String, String> spread = new LinkedHashMap<>();
    private final Map<String, Double> fastest = new LinkedHashMap<>();

    /** @param section the section's name in the progress output */
    Measurements(String section) {
        this.section = section;
    }

    /**
     * One engine's median throughput over {@link #RUNS} runs of {@code full} (a fresh script per
     * run) after a warm-up run of {@code warm} and {@link #WARMUPS} untimed runs of {@code full},
     * at parallelism {@code p}, in a JVM of its own
     * ({@link ForkedJvm}). A Sluice run must be native, with a native scan and sink where the
     * job has columnar ones, or the benchmark fails.
     */
    double measure(String name, boolean sluice, int p, String warm, long warmRows, Supplier<String> full, long rows)
            throws Exception {
        double[] rates = ForkedJvm.measure(section + "/" + name, () -> SessionCluster.with(p, () -> {
            ParquetBenchmark.run(warm, sluice, p, warmRows);
            for (int i = 0; i < WARMUPS; i++) {
                double w = ParquetBenchmark.run(full.get(), sluice, p, rows).rowsPerSecond();
                System.out.printf(Locale.ROOT, "%s %s warm-up %d: %.0f rows/s%n", section, name, i + 1, w);
            }
            double[] r = new double[RUNS];
            for (int i = 0; i < RUNS; i++) {
                r[i] = ParquetBenchmark.run(full.get(), sluice, p, rows).rowsPerSecond();
                System.out.printf(Locale.ROOT, "%s %s run %d: %.0f rows/s%n", section, name, i + 1, r[i]);
            }
            return r;
        }));
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        fastest.put(name, sorted[sorted.length - 1]);
        spread.put(name, Arrays.stream(sorted).mapToObj(v -> Benchmarks.format("%,.0f", v))
                .collect(Collectors.joining(" / ")));
        return sorted[sorted.length / 2];
    }

    /** {@link #measure(String, boolean, int, String, long, Supplier, long)} at parallelism 2. */
    double measure(String name, boolean sluice, String warm, long warmRows, Supplier<String> full, long rows)
            throws Exception {
        return measure(name, sluice, 2, warm, warmRows, full, rows);
    }

    /**
     * The table of a section that measured stock Flink with heap and RocksDB state and Sluice
     * (their medians, Sluice's ratio to each), this measurement's spread and the job's SQL.
     * {@code rocksRows} says what the RocksDB runs read when it is less (e.g. "500,000 rows").
     */
    void engineTable(StringBuilder md, String query, double heap, double rocks, String rocksRows, double sluice, String sql) {
        md.append("| query | engine | rows/s | Sluice / engine |\n|---|---|---|---|\n");
        md.append(Benchmarks.format("| %s | stock Flink, heap state | %,.0f | %.2fx |%n", query, heap, sluice / heap));
        md.append(Benchmarks.format("| %s | stock Flink, RocksDB state (%s) | %,.0f | %.2fx |%n", query, rocksRows, rocks, sluice / rocks));
        md.append(Benchmarks.format("| %s | Sluice | %,.0f | |%n", query, sluice));
        spread(md);
        md.append("```sql\n").append(sql.strip()).append("\n```\n\n");
    }

    /**
     * A section of one job measured on stock Flink with heap state ({@code rows} inputs rows),
     * with RocksDB state ({@code rocksRows}, "{@code rocksRows} {@code rocksUnit}" in the table)
     * and on Sluice: its title, description and {@link #engineTable}. {@code script} gives the
     * job for a number of rows per input and a state backend; {@code inputs} is its number of
     * inputs (throughput counts the rows of all of them).
     */
    String engineSection(String title, String description, String query, java.util.function.BiFunction<Long, String, String> script,
            long inputs, long rows, long rocksRows, String rocksUnit) throws Exception {
        double heap = measureJob(script, inputs, "flink-heap", false, "hashmap", rows);
        double rocks = measureJob(script, inputs, "flink-rocksdb", false, "rocksdb", rocksRows);
        double sluice = measureJob(script, inputs, "sluice", true, "hashmap", rows);
        StringBuilder md = new StringBuilder("## ").append(title).append("\n\n").append(description.strip()).append("\n\n");
        engineTable(md, query, heap, rocks, Benchmarks.format("%,d %s", rocksRows, rocksUnit), sluice, script.apply(rows, "hashmap"));
        return md.toString();
    }

    /** One engine's median on a job with a warm-up of at most 500,000 rows per input. */
    double measureJob(java.util.function.BiFunction<Long, String, String> script, long inputs, String name, boolean sluice,
            String stateBackend, long rows) throws Exception {
        long warmup = Math.min(rows, 500_000L);
        return measure(name, sluice, script.apply(warmup, stateBackend), inputs * warmup,
                () -> script.apply(rows, stateBackend), inputs * rows);
    }

    /** A table row: both medians, their ratio, and Sluice against stock Flink's fastest run. */
    void row(StringBuilder md, String job, String name, double flink, double sluice) {
        md.append(Benchmarks.format("| %s | %,.0f | %,.0f | %.2fx | %.2fx |%n",
                job, flink, sluice, sluice / flink, sluice / fastest.get(name + "-flink")));
    }

    /** Every run's throughput, sorted, per measurement. */
    void spread(StringBuilder md) {
        md.append("\nEvery run (rows/s, sorted), to show the spread on this VM:\n\n");
        spread.forEach((name, runs) -> md.append("- ").append(name).append(": ").append(runs).append('\n'));
        md.append("\n");
    }
}
