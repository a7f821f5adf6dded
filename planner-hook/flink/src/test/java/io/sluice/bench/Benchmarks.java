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
                .append(CalcBenchmark.RUNS).append(" runs; throughput is rows read / the job's net runtime.\n");
        md.append("Every Sluice run is asserted native (a fallback fails the benchmark).\n\n");
        if (only.isEmpty() || only.equals("window")) {
            md.append(WindowBenchmark.section());
        }
        if (only.isEmpty() || only.equals("calc")) {
            md.append(CalcBenchmark.section());
        }
        md.append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
                .append(Runtime.getRuntime().maxMemory() / (1 << 20)).append(" MiB max heap, ")
                .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
                .append(", ").append(cpuModel()).append(". Flink 2.2.1 MiniCluster, JVM args ")
                .append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append(".\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.println("wrote " + out);
        System.exit(0);
    }

    /** Runs a script on Sluice and fails the benchmark if its plan is not native. */
    static TimedRun.Result nativeRun(String script, int parallelism, long rows) throws Exception {
        TimedRun.Result s = TimedRun.run(script, true, parallelism, rows);
        if (!s.nativePlan()) {
            System.err.println("Sluice run is not native:\n" + s.verdict());
            System.exit(1);
        }
        return s;
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
