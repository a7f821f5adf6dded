package io.sluice;

import io.sluice.planner.SluiceProgram;
import io.sluice.planner.Verdict;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.planner.calcite.CalciteConfig;
import org.apache.flink.table.planner.calcite.CalciteConfigBuilder;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkStreamProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;

/**
 * Entry points for programmatic use: {@link #install} puts Sluice's stage at the end of a table
 * environment's stream optimizer; {@link #explain} tells what Sluice decides for a statement.
 */
public final class Sluice {
    /** Name of Sluice's program in Flink's chained stream program. */
    public static final String PROGRAM_NAME = "sluice";

    private Sluice() {}

    /** Installs Sluice into a streaming table environment. Calling it twice is harmless. */
    public static void install(TableEnvironment tEnv) {
        FlinkChainedProgram<StreamOptimizeContext> program = FlinkStreamProgram.buildProgram(tEnv.getConfig());
        if (program.get(PROGRAM_NAME).isEmpty()) {
            program.addLast(PROGRAM_NAME, new SluiceProgram());
        }
        CalciteConfig calcite = new CalciteConfigBuilder().replaceStreamProgram(program).build();
        tEnv.getConfig().setPlannerConfig(calcite);
    }

    /**
     * Plans {@code statement} (without running it) and returns Sluice's verdict for it. The
     * table environment must have Sluice installed.
     */
    public static Verdict verdict(TableEnvironment tEnv, String statement) {
        SluiceProgram.clearLastVerdict();
        tEnv.explainSql(statement);
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
