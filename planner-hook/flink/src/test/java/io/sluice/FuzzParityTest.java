package io.sluice;

import io.sluice.fuzz.FuzzCase;
import io.sluice.fuzz.FuzzCases;
import io.sluice.fuzz.FuzzRunner;
import io.sluice.testing.SluiceMiniCluster;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The differential expression fuzzer at fixed seeds: a few thousand random expressions drawn from
 * the registry's call shapes (testkit/fuzz), each run on stock Flink and on Sluice and compared
 * value by value; then every saved regression case. `make fuzz DURATION=...` runs longer.
 */
class FuzzParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SluiceMiniCluster.extension();

    static final int CASES = Integer.getInteger("sluice.fuzz.cases", 60);
    static final int FIRST = Integer.getInteger("sluice.fuzz.first", 1);

    @Test
    void fixedSeeds() {
        FuzzRunner runner = new FuzzRunner(FuzzCases.regressionDir());
        for (FuzzCase c : FuzzCases.generate(FIRST, CASES, 40, 24)) {
            runner.run(c);
        }
        FuzzRunner.Report r = runner.report();
        System.out.println(r);
        assertTrue(r.mismatches().isEmpty(), () -> r.mismatches().size() + " mismatches (shrunk cases saved under "
                + FuzzCases.regressionDir() + "):\n" + r);
        // The grammar draws only what the registry says is native and well typed: most
        // expressions must run natively, and none may be rejected by Flink's validator.
        assertTrue(r.compared() >= r.exprs() * 3 / 4, () -> "too few expressions ran natively:\n" + r);
        assertTrue(r.invalid() <= r.exprs() / 100, () -> "too many invalid expressions:\n" + r);
        for (String f : new String[] {"+", "CAST", "CASE", "SUBSTRING", "LIKE", "SEARCH", "ROUND", "EXTRACT", "GREATEST"}) {
            assertTrue(r.comparedByFunction().getOrDefault(f, 0) >= 5, () -> f + " was hardly compared:\n" + r);
        }
    }

    /**
     * Every shrunk mismatch ever saved: it must now agree with Flink, natively, or fall back with
     * the reason its "expect" field names ("fallback: <text>") where the fix was to fall back.
     */
    @Test
    void savedRegressions() throws IOException {
        for (Path f : FuzzCases.regressions()) {
            String json = Files.readString(f);
            FuzzCase c = FuzzCase.parse(json);
            String expect = FuzzCase.expectation(json);
            FuzzRunner runner = new FuzzRunner(null);
            runner.run(c);
            FuzzRunner.Report r = runner.report();
            assertTrue(r.mismatches().isEmpty(), () -> f + " mismatches again:\n" + r);
            assertEquals(0, r.invalid(), () -> f + " no longer plans:\n" + r);
            if (expect.startsWith("fallback: ")) {
                String reason = expect.substring("fallback: ".length());
                assertEquals(c.exprs().size(), r.fallbacks(), () -> f + ": expected a fallback:\n" + r);
                assertTrue(r.toString().contains(reason), () -> f + ": fallback reason does not name '" + reason + "':\n" + r);
            } else {
                assertEquals(c.exprs().size(), r.compared(), () -> f + ": not compared natively:\n" + r);
            }
        }
    }
}
