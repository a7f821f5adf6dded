package io.sluice.tools;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/** Prints Flink's compiled plan JSON for the SQL given as arguments (a development aid). */
public final class PlanDump {
    public static void main(String[] args) {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.executeSql("CREATE TABLE src (i INT, l BIGINT, d DOUBLE, s STRING, b BOOLEAN, dc DECIMAL(10,2), ts TIMESTAMP(3)) WITH ('connector'='datagen')");
        for (String q : args) {
            t.executeSql("CREATE TABLE IF NOT EXISTS snk" + " (x STRING) WITH ('connector'='blackhole')");
            System.out.println("=== " + q);
            System.out.println(t.compilePlanSql(q).asJsonString());
        }
    }
}
