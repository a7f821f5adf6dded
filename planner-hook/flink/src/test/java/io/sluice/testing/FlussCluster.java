package io.sluice.testing;

import io.sluice.fuzz.FuzzCases;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The tests' Fluss cluster: the one `make test` starts (bin/sluice-fluss: ZooKeeper, a
 * coordinator server and a tablet server, its bootstrap servers in SLUICE_FLUSS_BOOTSTRAP), or
 * started here through bin/sluice-fluss when a test runs outside make.
 */
public final class FlussCluster {
    private static String bootstrap;

    private FlussCluster() {}

    /** The cluster's bootstrap servers (the coordinator's), starting it if none runs. */
    public static synchronized String bootstrap() {
        if (bootstrap == null) {
            String env = System.getenv("SLUICE_FLUSS_BOOTSTRAP");
            try {
                // Starting is a no-op for a running cluster.
                String started = run("start").trim();
                String[] lines = started.split("\n");
                bootstrap = env != null && !env.isEmpty() ? env : lines[lines.length - 1].trim();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("the tests' Fluss cluster (bin/sluice-fluss start) did not start: " + e.getMessage(), e);
            }
        }
        return bootstrap;
    }

    /** The DDL of a Fluss catalog named {@code name} on the cluster, as Fluss's connector registers it. */
    public static String catalogDdl(String name) {
        return "CREATE CATALOG " + name + " WITH ('type' = 'fluss', 'bootstrap.servers' = '" + bootstrap() + "')";
    }

    private static String run(String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(FuzzCases.repoRoot().resolve("bin/sluice-fluss").toString(), command)
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("bin/sluice-fluss " + command + " failed: " + out);
        }
        return out;
    }
}
