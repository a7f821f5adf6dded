package io.sluice;

import io.sluice.planner.SluiceProgram;
import io.sluice.planner.SluiceStreamProgram;
import io.sluice.planner.Verdict;

import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.planner.calcite.CalciteConfig;
import org.apache.flink.table.planner.calcite.CalciteConfigBuilder;

/**
 * Entry points for programmatic use: {@link #install} puts Sluice's stage at the end of a table
 * environment's stream optimizer; {@link #explain} tells what Sluice decides for a statement.
 */
public final class Sluice {
    private Sluice() {}

    /** Installs Sluice into a streaming table environment. Calling it twice is harmless. */
    public static void install(TableEnvironment tEnv) {
        installInto(tEnv.getConfig());
    }

    /**
     * Installs Sluice into the planner configuration of a table config: the stream optimizer
     * becomes {@link SluiceStreamProgram}. Used by {@link #install} and by the drop-in loader,
     * which calls it for every planner it creates.
     */
    public static void installInto(TableConfig config) {
        CalciteConfig calcite = new CalciteConfigBuilder().replaceStreamProgram(new SluiceStreamProgram()).build();
        config.setPlannerConfig(calcite);
    }

    /** True when the planner configuration of {@code config} runs Sluice's stage. */
    public static boolean isInstalled(TableConfig config) {
        return config.getPlannerConfig()
                .unwrap(CalciteConfig.class)
                .map(c -> c.getStreamProgram().isDefined() && c.getStreamProgram().get() instanceof SluiceStreamProgram)
                .orElse(false);
    }

    /**
     * Plans {@code statement} (without running it) and returns Sluice's verdict for it. The
     * table environment must have Sluice installed.
     */
    public static Verdict verdict(TableEnvironment tEnv, String statement) {
        SluiceProgram.clearLastVerdict();
        try {
            tEnv.explainSql(statement);
        } catch (Exception e) {
            // Flink's own translation of a fallback plan can fail after Sluice has decided
            // (e.g. its code generation rejects an expression, as it does without Sluice): that
            // verdict stands. Without a verdict, or after a native one, the failure is the answer.
            Verdict decided = SluiceProgram.lastVerdict();
            if (decided == null || decided.isNative()) {
                throw e;
            }
        }
        Verdict v = SluiceProgram.lastVerdict();
        if (v == null) {
            throw new IllegalStateException("Sluice is not installed in this table environment");
        }
        return v;
    }

    /** Flink's EXPLAIN of {@code statement} followed by Sluice's verdict and fallback reasons. */
    public static String explain(TableEnvironment tEnv, String statement) {
        SluiceProgram.clearLastVerdict();
        String flink = tEnv.explainSql(statement);
        Verdict v = SluiceProgram.lastVerdict();
        return flink + "\n" + (v == null ? "== Sluice verdict ==\nSluice is not installed\n" : v.toString());
    }

}
