package io.sluice.fuzz;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.util.MiniClusterWithClientResource;

import java.time.Duration;
import java.time.Instant;

/**
 * `make fuzz DURATION=10m [SEED=n]`: runs generated cases on stock Flink and on Sluice until the
 * duration is over, saves every shrunk mismatch under testkit/fuzz/testdata/regressions and
 * exits with status 1 if there was one.
 */
public final class Fuzz {
    private Fuzz() {}

    public static void main(String[] args) throws Exception {
        Duration duration = parse(args.length > 0 ? args[0] : "5m");
        long seed = args.length > 1 && !args[1].isEmpty() ? Long.parseLong(args[1]) : System.currentTimeMillis() % 1_000_000_000L;
        MiniClusterWithClientResource cluster = new MiniClusterWithClientResource(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
        cluster.before();
        FuzzRunner runner = new FuzzRunner(FuzzCases.regressionDir());
        Instant end = Instant.now().plus(duration);
        System.out.println("fuzzing for " + duration + " from seed " + seed);
        try {
            while (Instant.now().isBefore(end)) {
                for (FuzzCase c : FuzzCases.generate(seed, 10, 40, 24)) {
                    runner.run(c);
                }
                seed += 10;
                System.out.println("up to seed " + (seed - 1) + ": " + runner.report().compared() + " compared, "
                        + runner.report().mismatches().size() + " mismatches");
            }
        } finally {
            cluster.after();
        }
        System.out.println(runner.report());
        System.exit(runner.report().mismatches().isEmpty() ? 0 : 1);
    }

    static Duration parse(String s) {
        char unit = s.charAt(s.length() - 1);
        long n = Long.parseLong(s.substring(0, s.length() - 1));
        return switch (unit) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("DURATION must look like 90s, 10m or 2h, not " + s);
        };
    }
}
