package io.sluice.bench;

import io.sluice.cli.TimedRun;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The runs of one benchmark section: each measurement's median (after a warm-up run), its fastest
 * run and every run's throughput, and the table rows and spread list of the page.
 */
final class Measurements {
    private final String section;
    private final Map<String, String> spread = new LinkedHashMap<>();
    private final Map<String, Double> fastest = new LinkedHashMap<>();

    /** @param section the section's name in the progress output */
    Measurements(String section) {
        this.section = section;
    }

    /**
     * One engine's median throughput over {@link CalcBenchmark#RUNS} runs of {@code full} (a fresh
     * script per run) after a warm-up run of {@code warm}, at parallelism 2. A Sluice run must be
     * native with a native scan, or the benchmark fails.
     */
    double measure(String name, boolean sluice, String warm, long warmRows, Supplier<String> full, long rows)
            throws Exception {
        ParquetBenchmark.run(warm, sluice, 2, warmRows);
        List<TimedRun.Result> runs = new ArrayList<>();
        for (int r = 0; r < CalcBenchmark.RUNS; r++) {
            runs.add(ParquetBenchmark.run(full.get(), sluice, 2, rows));
            System.out.printf(Locale.ROOT, "%s %s run %d: %.0f rows/s%n", section, name, r + 1, runs.get(r).rowsPerSecond());
        }
        fastest.put(name, runs.stream().mapToDouble(TimedRun.Result::rowsPerSecond).max().orElse(0));
        spread.put(name, runs.stream().mapToDouble(TimedRun.Result::rowsPerSecond).sorted()
                .mapToObj(v -> Benchmarks.format("%,.0f", v)).collect(Collectors.joining(" / ")));
        return CalcBenchmark.median(runs);
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
