package io.sluice.planner;

import io.sluice.sinks.NativeSink;
import io.sluice.sources.NativeSource;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.serde.CompiledPlanSerdeUtil;
import org.apache.flink.table.planner.plan.nodes.exec.serde.SerdeContext;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectWriter;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON that Go receives for an island: Flink's own exec-node JSON (the format of
 * COMPILE PLAN) for each node, in data-flow order, each with the row type of its input, plus the
 * Sluice options that the native side needs.
 *
 * <pre>{"version":1, "nodes": [{"inputType": LogicalType, "exec": ExecNode}...], "options": {k: v}}</pre>
 *
 * <p>A node of two inputs (a join) has {"inputTypes": [left, right]} instead of "inputType".
 *
 * <p>A node that Flink cannot serialize is sent as {"exec": {"type": "unserializable:Name"}} so
 * that the verdict names it.
 */
public final class IslandPlan {
    static final int VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private IslandPlan() {}

    /**
     * One node of an island: its exec node and the row type it reads. A node Flink cannot
     * serialize but Sluice reads or writes natively (an Iceberg scan or sink) carries its own
     * description instead (rawExec), and the native source or sink that replaces it.
     */
    public record Entry(
            String name, LogicalType inputType, ExecNode<?> exec, JsonNode rawExec, NativeSource source, NativeSink sink,
            List<LogicalType> inputTypes) {
        /** A node of one input (or none). */
        public Entry(
                String name, LogicalType inputType, ExecNode<?> exec, JsonNode rawExec, NativeSource source, NativeSink sink) {
            this(name, inputType, exec, rawExec, source, sink, null);
        }

        /** A node described by Flink's exec-node JSON. */
        public Entry(String name, LogicalType inputType, ExecNode<?> exec) {
            this(name, inputType, exec, null, null, null);
        }
    }

    /** Serializes the island made of {@code nodes}. */
    public static byte[] toJson(SerdeContext ctx, List<Entry> nodes, Map<String, String> options) {
        try {
            ObjectWriter writer = CompiledPlanSerdeUtil.createJsonObjectWriter(ctx);
            ObjectNode root = MAPPER.createObjectNode();
            root.put("version", VERSION);
            ArrayNode arr = root.putArray("nodes");
            for (Entry e : nodes) {
                ObjectNode n = arr.addObject();
                n.put("name", e.name());
                if (e.inputType() != null) {
                    n.set("inputType", MAPPER.readTree(writer.writeValueAsString(e.inputType())));
                }
                if (e.inputTypes() != null) {
                    ArrayNode types = n.putArray("inputTypes");
                    for (LogicalType t : e.inputTypes()) {
                        types.add(MAPPER.readTree(writer.writeValueAsString(t)));
                    }
                }
                JsonNode exec;
                if (e.rawExec() != null) {
                    exec = e.rawExec();
                } else {
                    try {
                        exec = MAPPER.readTree(writer.writeValueAsString(e.exec()));
                    } catch (Exception ex) {
                        exec = MAPPER.createObjectNode().put("type", "unserializable:" + e.name());
                    }
                }
                n.set("exec", exec);
            }
            ObjectNode opts = root.putObject("options");
            options.forEach(opts::put);
            return MAPPER.writeValueAsBytes(root);
        } catch (Exception e) {
            throw new IllegalStateException("cannot serialize Sluice island plan", e);
        }
    }

    /** Parses verdict JSON returned by the native side. */
    public static JsonNode parse(byte[] json) {
        try {
            return MAPPER.readTree(new String(json, StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException("cannot parse Sluice verdict", e);
        }
    }
}
