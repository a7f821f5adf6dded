package io.sluice.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * Runs each measurement of {@code make bench} (one engine on one query: a warm-up run and the timed
 * runs) in a JVM of its own, started with this JVM's arguments and class path. In one shared JVM
 * the engine measured later ran slower: the JIT compiles Flink's chaining and mailbox call sites
 * for the operators it has seen, and those that later meet another engine's operators turn
 * megamorphic; the earlier MiniClusters also leave their garbage behind.
 *
 * <p>{@code -Dsluice.bench.measurement=<section>/<name>} runs that one measurement in this JVM
 * (how the forked JVM is told what to run; also handy for profiling one engine);
 * {@code -Dsluice.bench.fork=false} runs every measurement in this JVM.
 */
final class ForkedJvm {
    private static final String MEASUREMENT = "sluice.bench.measurement";
    private static final String RESULT = "sluice.bench.result";
    private static final String ONLY = "sluice.bench.only";

    private ForkedJvm() {}

    /**
     * The rows/s of each timed run of the measurement {@code id} ("section/name"): run by body in
     * a fresh JVM. In a JVM told to run another measurement, body is skipped and a placeholder
     * returned; in the JVM told to run this one, the result is written and the JVM exits.
     */
    static double[] measure(String id, Callable<double[]> body) throws Exception {
        String target = System.getProperty(MEASUREMENT, "");
        if (!target.isEmpty()) {
            if (!target.equals(id)) {
                return new double[] {1};
            }
            double[] rates = body.call();
            String result = System.getProperty(RESULT, "");
            if (!result.isEmpty()) {
                Files.writeString(Path.of(result), Arrays.stream(rates).mapToObj(Double::toString)
                        .collect(Collectors.joining(" ")));
            }
            System.exit(0);
        }
        if (!Boolean.parseBoolean(System.getProperty("sluice.bench.fork", "true"))) {
            return body.call();
        }
        Path result = Files.createTempFile("sluice-bench-", ".txt");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(ProcessHandle.current().info().command().orElse("java"));
            for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (!arg.startsWith("-D" + MEASUREMENT + "=") && !arg.startsWith("-D" + RESULT + "=")
                        && !arg.startsWith("-D" + ONLY + "=")) {
                    cmd.add(arg);
                }
            }
            cmd.add("-D" + ONLY + "=" + id.substring(0, id.indexOf('/')));
            cmd.add("-D" + MEASUREMENT + "=" + id);
            cmd.add("-D" + RESULT + "=" + result);
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(Benchmarks.class.getName());
            int exit = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            String text = Files.readString(result).strip();
            if (exit != 0 || text.isEmpty()) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "benchmark measurement %s failed in its JVM (exit code %d)", id, exit));
            }
            return Arrays.stream(text.split(" ")).mapToDouble(Double::parseDouble).toArray();
        } finally {
            Files.deleteIfExists(result);
        }
    }
}
