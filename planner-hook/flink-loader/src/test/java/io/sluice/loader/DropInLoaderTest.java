package io.sluice.loader;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.planner.loader.PlannerModule;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flink as a distribution runs it: the planner only through flink-table-planner-loader, no Sluice
 * code in the job. A plain TableEnvironment must plan native Calcs and run them, with the results
 * of the same job on stock Flink (sluice.enabled = false).
 */
class DropInLoaderTest {
    static final String SOURCE = "CREATE TABLE src (i INT, s STRING) WITH ('connector' = 'datagen', "
            + "'number-of-rows' = '50', 'fields.i.kind' = 'sequence', 'fields.i.start' = '1', 'fields.i.end' = '50', "
            + "'fields.s.kind' = 'sequence', 'fields.s.start' = '1', 'fields.s.end' = '50')";
    static final String QUERY = "SELECT i * 2, UPPER(s) || '!' FROM src WHERE i % 3 <> 0";

    static TableEnvironment env(boolean sluice) {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.getConfig().getConfiguration().setString("parallelism.default", "1");
        t.getConfig().getConfiguration().setString("sluice.enabled", String.valueOf(sluice));
        t.executeSql(SOURCE);
        return t;
    }

    static List<Row> run(TableEnvironment t) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = t.executeSql(QUERY).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    static long nativeBatches() throws Exception {
        // The runtime operator is loaded by Flink's own class loader (owner-first in the planner's).
        Class<?> op = Class.forName("io.sluice.runtime.NativeChainOperator");
        return (long) op.getMethod("batches").invoke(null);
    }

    @Test
    void aPlainTableEnvironmentRunsCalcsNatively() throws Exception {
        assertNull(PlannerModule.getInstance().sluiceInactiveReason());
        TableEnvironment sluice = env(true);
        String explain = sluice.explainSql(QUERY);
        assertTrue(explain.contains("SluiceChain("), explain);

        List<Row> flink = run(env(false));
        long before = nativeBatches();
        List<Row> got = run(sluice);
        assertTrue(nativeBatches() > before, "no batch ran natively");
        assertEquals(flink, got);
        assertEquals(34, flink.size()); // 1..50 without the 16 multiples of 3
    }

    @Test
    void theRuntimeClassesExistOnceInTheJvm() throws Exception {
        ClassLoader planner = PlannerModule.getInstance().getSubmoduleClassLoader();
        assertEquals(Class.forName("io.sluice.jni.NativeLib"), planner.loadClass("io.sluice.jni.NativeLib"));
        assertEquals(Class.forName("io.sluice.runtime.NativeChainOperator"),
                planner.loadClass("io.sluice.runtime.NativeChainOperator"));
        assertNotNull(planner.loadClass("io.sluice.planner.SluiceProgram"));
    }

    @Test
    void failsClosedOnAnotherFlinkVersion() {
        assertEquals(SluiceLoader.SUPPORTED_FLINK_VERSION, SluiceLoader.flinkVersion());
        assertNull(SluiceLoader.inactiveReason(SluiceLoader.SUPPORTED_FLINK_VERSION));
        String reason = SluiceLoader.inactiveReason("2.3.0");
        assertNotNull(reason);
        assertTrue(reason.contains("2.3.0"), reason);
        assertFalse(reason.isEmpty());
    }
}
