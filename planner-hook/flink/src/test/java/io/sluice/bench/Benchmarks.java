package io.sluice.bench;

import io.sluice.cli.TimedRun;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code make bench}: every benchmark on stock Flink and on Sluice in one run on one machine;
 * writes the medians and ratios to docs/benchmarks.md. A Sluice run that is not native fails
 * the benchmark.
 */
public final class Benchmarks {
    private Benchmarks() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/benchmarks.md");
        String only = System.getProperty("sluice.bench.only", "");
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n");
        md.append("Written by `make bench` (planner-hook/flink/src/test/java/io/sluice/bench). Each row: the same job on\n");
        md.append("stock Flink and on Sluice, in one run of the benchmark on one machine, median of ")
                .append(Measurements.RUNS).append(" runs; throughput is rows read / the job's net runtime.\n");
        md.append("Each engine's runs of a query run in a JVM of their own (same JVM arguments), after a warm-up run on a\n")
                .append("small input and ").append(Measurements.WARMUPS).append(" untimed runs on the full input (steady state: stock Flink's window jobs ran up\n")
                .append("to three times slower in their first full-size runs in a fresh JVM). All runs of a measurement submit their\n")
                .append("jobs to one MiniCluster started in that JVM, as to a standing session cluster (io.sluice.bench.SessionCluster).\n");
        md.append("Every Sluice run is asserted native (a fallback fails the benchmark).\n\n");
        if (wants(only, "window")) {
            md.append(WindowBenchmark.section());
        }
        if (wants(only, "parquet")) {
            md.append(ParquetBenchmark.section());
        }
        if (wants(only, "iceberg")) {
            md.append(IcebergBenchmark.section());
        }
        if (wants(only, "adbc")) {
            md.append(AdbcBenchmark.section());
        }
        if (wants(only, "join")) {
            md.append(JoinBenchmark.section());
        }
        if (wants(only, "interval-join")) {
            md.append(JoinBenchmark.intervalSection());
        }
        if (wants(only, "group-agg")) {
            md.append(ChangelogBenchmark.groupAggSection());
        }
        if (wants(only, "regular-join")) {
            md.append(ChangelogBenchmark.joinAggSection());
        }
        if (wants(only, "dedup")) {
            md.append(ChangelogBenchmark.dedupSection());
        }
        if (wants(only, "topn")) {
            md.append(ChangelogBenchmark.topNSection());
        }
        if (wants(only, "over")) {
            md.append(EventTimeBenchmark.overSection());
        }
        if (wants(only, "session")) {
            md.append(EventTimeBenchmark.sessionSection());
        }
        if (wants(only, "calc")) {
            md.append(CalcBenchmark.section());
        }
        if (java.util.Arrays.asList(only.split(",")).contains("nexmark")) {
            // Only when asked for (make bench-nexmark): it needs the Kafka broker and takes long.
            md.append(NexmarkBenchmark.section());
        }
        md.append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
                .append(Runtime.getRuntime().maxMemory() / (1 << 20)).append(" MiB max heap, ")
                .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
                .append(", ").append(cpuModel()).append(". Flink ").append(org.apache.flink.runtime.util.EnvironmentInformation.getVersion()).append(" MiniCluster, JVM args ")
                .append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append(".\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        String text = md.toString();
        if (!only.isEmpty() && Files.exists(out)) {
            text = merge(Files.readString(out), text);
        }
        Files.writeString(out, text);
        System.out.println("wrote " + out);
        System.exit(0);
    }

    /** Runs a script on Sluice and fails the benchmark if its plan is not native. */
    static TimedRun.Result nativeRun(String script, int parallelism, long rows) throws Exception {
        TimedRun.Result s = TimedRun.run(SessionCluster.environment(parallelism, false), script, true, rows);
        if (!s.nativePlan()) {
            System.err.println("Sluice run is not native:\n" + s.verdict());
            System.exit(1);
        }
        return s;
    }

    /**
     * Whether a run measures the section {@code name}: every section when sluice.bench.only is
     * empty, else those it lists (comma-separated, e.g. {@code join,group-agg}).
     */
    static boolean wants(String only, String name) {
        return only.isEmpty() || java.util.Arrays.asList(only.split(",")).contains(name);
    }

    /**
     * The previous benchmark page with the sections of a partial run (sluice.bench.only)
     * replaced or added, and the partial run's machine line: other sections keep their numbers.
     */
    /** When this run started (UTC, to the minute), to tell the sections of one partial run. */
    static final String RUN_STARTED = java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC)
            .truncatedTo(java.time.temporal.ChronoUnit.MINUTES).toString();

    static String merge(String previous, String partial) {
        java.util.LinkedHashMap<String, String> sections = new java.util.LinkedHashMap<>();
        String head = splitSections(previous, sections);
        java.util.LinkedHashMap<String, String> fresh = new java.util.LinkedHashMap<>();
        splitSections(partial, fresh);
        int at = previous.lastIndexOf("\nMachine: ") + 1;
        String machine = at > 0 ? previous.substring(at) : partial.substring(partial.lastIndexOf("Machine: "));
        String partialMachine = partial.substring(partial.lastIndexOf("Machine: ")).strip();
        // The page's machine line starts a line; a separate run's note carries its machine inline.
        String pageMachine = "(?ms)^Machine: .*\\z";
        sections.replaceAll((title, body) -> body.replaceAll(pageMachine, ""));
        fresh.forEach((title, body) -> sections.put(title, body.replaceAll(pageMachine, "").stripTrailing()
                + "\n\nThis section was measured in a separate run (sluice.bench.only=" + System.getProperty("sluice.bench.only", "")
                + ", started " + RUN_STARTED + "; the sections whose note names the same start come from one run). "
                + partialMachine + "\n\n"));
        StringBuilder sb = new StringBuilder(head);
        sections.values().forEach(sb::append);
        // Once every section names the run it came from, the page's machine line (of an older
        // full run) describes none of them.
        boolean allSeparate = sections.values().stream().allMatch(b -> b.contains("measured in a separate run"));
        return sb.append(allSeparate ? "" : machine).toString().stripTrailing() + "\n";
    }

    /** Splits a page into its text before the first "## " section and the sections by title. */
    private static String splitSections(String page, java.util.Map<String, String> sections) {
        String[] parts = page.split("(?m)^(?=## )");
        for (int i = 1; i < parts.length; i++) {
            sections.put(parts[i].substring(0, parts[i].indexOf('\n')), parts[i]);
        }
        return parts[0];
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux: leave the model out
        }
        return "unknown CPU";
    }

    static String format(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
