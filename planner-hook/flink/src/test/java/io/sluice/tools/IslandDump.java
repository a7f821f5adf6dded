package io.sluice.tools;

import io.sluice.Sluice;
import io.sluice.cli.SluiceCli;
import io.sluice.cli.SqlScript;
import io.sluice.planner.SluiceProgram;

import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints the island JSON that Sluice sends to Go for the last statement of a SQL script: the
 * source of the Go decoder's golden files under testkit/islands/testdata.
 */
public final class IslandDump {
    public static void main(String[] args) throws Exception {
        List<String> stmts = SqlScript.split(Files.readString(Path.of(args[0])));
        StreamTableEnvironment tEnv = SluiceCli.environment(1, null, false);
        for (String s : stmts.subList(0, stmts.size() - 1)) {
            SqlScript.execute(tEnv, s);
        }
        Sluice.verdict(tEnv, stmts.get(stmts.size() - 1));
        System.out.println(new String(SluiceProgram.lastIslandJson(), StandardCharsets.UTF_8));
        System.exit(0);
    }
}
