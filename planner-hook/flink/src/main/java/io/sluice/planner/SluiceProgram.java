package io.sluice.planner;

import io.sluice.SluiceOptions;
import io.sluice.jni.NativeLib;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.serde.SerdeContext;
import org.apache.flink.table.planner.plan.nodes.physical.FlinkPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalDataStreamScan;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalIntermediateTableScan;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLegacySink;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLegacyTableSourceScan;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalTableSourceScan;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalValues;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWatermarkAssigner;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWindowAggregate;
import org.apache.flink.table.planner.plan.optimize.program.FlinkOptimizeProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.hint.RelHint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last program of Flink's stream optimizer. It sees the optimized physical plan, sends the
 * island (everything between the source and sink edges) to Go for a verdict, and replaces the
 * island with native nodes only if every node in it is supported. Otherwise the plan is returned
 * unchanged and the reasons are recorded (and logged).
 */
public final class SluiceProgram implements FlinkOptimizeProgram<StreamOptimizeContext> {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceProgram.class);
    private static final ThreadLocal<Verdict> LAST = new ThreadLocal<>();
    private static final ThreadLocal<byte[]> LAST_ISLAND = new ThreadLocal<>();

    /** The island JSON of the last plan judged on this thread, or null (for tools and tests). */
    public static byte[] lastIslandJson() {
        return LAST_ISLAND.get();
    }

    /** The verdict of the last plan optimized on this thread, or null. */
    public static Verdict lastVerdict() {
        return LAST.get();
    }

    /** Forgets the last verdict of this thread. */
    public static void clearLastVerdict() {
        LAST.remove();
    }

    @Override
    public RelNode optimize(RelNode root, StreamOptimizeContext context) {
        ReadableConfig config = context.getTableConfig();
        if (!config.get(SluiceOptions.ENABLED)) {
            LAST.set(new Verdict(false, List.of(), List.of("sluice.enabled is false")));
            return root;
        }
        List<RelNode> island = new ArrayList<>();
        collectIsland(root, island, new IdentityHashMap<>());
        Map<String, String> options = nativeOptions(config);
        SerdeContext serde = new SerdeContext(
                null, context, (FlinkTypeFactory) root.getCluster().getTypeFactory(),
                FlinkSqlOperatorTable.instance(false));

        List<IslandPlan.Entry> entries = new ArrayList<>();
        Map<RelNode, IslandPlan.Entry> entryOf = new IdentityHashMap<>();
        for (RelNode rel : island) {
            IslandPlan.Entry e = entry(rel);
            entries.add(e);
            entryOf.put(rel, e);
        }
        Verdict verdict = judge(serde, entries, options);
        LAST.set(verdict);
        if (!verdict.isNative()) {
            if (config.get(SluiceOptions.LOG_FALLBACK_REASONS)) {
                LOG.info("Sluice: job runs on stock Flink:\n{}", verdict);
            }
            return annotateFallback(root, verdict);
        }
        LOG.info("Sluice: island of {} node(s) runs natively", island.size());
        Map<RelNode, byte[]> plans = new IdentityHashMap<>();
        for (RelNode rel : island) {
            plans.put(rel, IslandPlan.toJson(serde, List.of(entryOf.get(rel)), options));
        }
        return replace(root, plans, new IdentityHashMap<>());
    }

    /** Name of the hint that carries fallback reasons into EXPLAIN's optimized physical plan. */
    public static final String FALLBACK_HINT = "SLUICE_FALLBACK";

    /**
     * Adds the fallback reasons to the plan's sink as a hint, so that EXPLAIN (also the SQL
     * statement, in the SQL client) shows why the job runs on stock Flink. Hints of a physical sink
     * do not reach its exec node: the job runs exactly as without Sluice.
     */
    static RelNode annotateFallback(RelNode root, Verdict verdict) {
        if (!(root instanceof StreamPhysicalSink) || verdict.reasons().isEmpty()) {
            return root;
        }
        StreamPhysicalSink sink = (StreamPhysicalSink) root;
        List<RelHint> hints = new ArrayList<>(sink.hints());
        hints.add(RelHint.builder(FALLBACK_HINT).hintOptions(verdict.reasons()).build());
        return new StreamPhysicalSink(
                sink.getCluster(),
                sink.getTraitSet(),
                sink.getInput(),
                hints,
                sink.contextResolvedTable(),
                sink.tableSink(),
                sink.targetColumns(),
                sink.abilitySpecs(),
                sink.upsertMaterialize());
    }

    private static Map<String, String> nativeOptions(ReadableConfig config) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SluiceOptions.BATCH_ROWS.key(), String.valueOf(config.get(SluiceOptions.BATCH_ROWS)));
        return m;
    }

    /** Source and sink nodes are the edges; everything else belongs to the island. */
    static boolean isEdge(RelNode rel) {
        return rel instanceof StreamPhysicalTableSourceScan
                || rel instanceof StreamPhysicalLegacyTableSourceScan
                || rel instanceof StreamPhysicalDataStreamScan
                || rel instanceof StreamPhysicalIntermediateTableScan
                || rel instanceof StreamPhysicalValues
                || rel instanceof StreamPhysicalSink
                || rel instanceof StreamPhysicalLegacySink;
    }

    private static void collectIsland(RelNode rel, List<RelNode> out, Map<RelNode, Boolean> seen) {
        if (seen.put(rel, Boolean.TRUE) != null) {
            return;
        }
        for (RelNode in : rel.getInputs()) {
            collectIsland(in, out, seen);
        }
        if (!isEdge(rel)) {
            out.add(rel);
        }
    }

    private static String nodeName(RelNode rel) {
        return rel.getRelTypeName().replaceFirst("^StreamPhysical", "") + "#" + rel.getId();
    }

    private static IslandPlan.Entry entry(RelNode rel) {
        LogicalType inputType = rel.getInputs().size() == 1
                ? FlinkTypeFactory.toLogicalRowType(rel.getInput(0).getRowType())
                : null;
        ExecNode<?> exec = null;
        if (rel instanceof FlinkPhysicalRel) {
            try {
                exec = ((FlinkPhysicalRel) rel).translateToExecNode();
            } catch (RuntimeException e) {
                exec = null;
            }
        }
        return new IslandPlan.Entry(nodeName(rel), inputType, exec);
    }

    private static Verdict judge(SerdeContext serde, List<IslandPlan.Entry> entries, Map<String, String> options) {
        if (entries.isEmpty()) {
            return new Verdict(false, List.of(), List.of("the plan has no operators between its sources and sinks"));
        }
        NativeLib.ensureLoaded();
        byte[] island = IslandPlan.toJson(serde, entries, options);
        LAST_ISLAND.set(island);
        JsonNode v = IslandPlan.parse(NativeLib.verdict(island));
        List<Verdict.Node> nodes = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        JsonNode arr = v.get("nodes");
        for (int i = 0; i < arr.size(); i++) {
            JsonNode n = arr.get(i);
            List<String> rs = new ArrayList<>();
            n.path("reasons").forEach(r -> rs.add(r.asText()));
            String name = entries.get(i).name();
            nodes.add(new Verdict.Node(name, n.path("type").asText(), n.path("supported").asBoolean(), rs));
            for (String r : rs) {
                reasons.add(name + ": " + r);
            }
        }
        return new Verdict(v.path("supported").asBoolean() && reasons.isEmpty(), nodes, reasons);
    }

    private static RelNode replace(RelNode rel, Map<RelNode, byte[]> plans, Map<RelNode, RelNode> done) {
        RelNode memo = done.get(rel);
        if (memo != null) {
            return memo;
        }
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : rel.getInputs()) {
            RelNode n = replace(in, plans, done);
            changed |= n != in;
            inputs.add(n);
        }
        RelNode result = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
        byte[] plan = plans.get(rel);
        if (plan != null && rel instanceof StreamPhysicalCalc) {
            StreamPhysicalCalc calc = (StreamPhysicalCalc) result;
            result = new StreamPhysicalSluiceCalc(
                    calc.getCluster(), calc.getTraitSet(), calc.getInput(), calc.getProgram(), calc.getRowType(), plan);
        } else if (plan != null && rel instanceof StreamPhysicalWindowAggregate) {
            result = new StreamPhysicalSluiceWindowAggregate(
                    (StreamPhysicalWindowAggregate) result, result.getTraitSet(), result.getInput(0), plan);
        } else if (plan != null && rel instanceof StreamPhysicalLocalWindowAggregate) {
            result = new StreamPhysicalSluiceLocalWindowAggregate(
                    (StreamPhysicalLocalWindowAggregate) result, result.getTraitSet(), result.getInput(0), plan);
        } else if (plan != null && rel instanceof StreamPhysicalGlobalWindowAggregate) {
            result = new StreamPhysicalSluiceGlobalWindowAggregate(
                    (StreamPhysicalGlobalWindowAggregate) result, result.getTraitSet(), result.getInput(0), plan);
        } else if (plan != null && rel instanceof StreamPhysicalWatermarkAssigner) {
            result = new StreamPhysicalSluiceWatermarkAssigner(
                    (StreamPhysicalWatermarkAssigner) result, result.getTraitSet(), result.getInput(0), plan);
        }
        done.put(rel, result);
        return result;
    }
}
