package io.sluice.tools;

import io.sluice.cli.SluiceCli;
import io.sluice.cli.SqlScript;

import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Prints Flink's JSON execution plan (operators, parallelism, ship strategies) of a script's last statement. */
public final class ExecutionPlanDump {
    public static void main(String[] args) throws Exception {
        List<String> stmts = SqlScript.split(Files.readString(Path.of(args[0])));
        StreamTableEnvironment tEnv = SluiceCli.environment(1, null, args.length > 1 && args[1].equals("--vanilla"));
        for (String s : stmts.subList(0, stmts.size() - 1)) {
            SqlScript.execute(tEnv, s);
        }
        System.out.println(tEnv.explainSql(stmts.get(stmts.size() - 1), ExplainDetail.JSON_EXECUTION_PLAN));
        System.exit(0);
    }
}
