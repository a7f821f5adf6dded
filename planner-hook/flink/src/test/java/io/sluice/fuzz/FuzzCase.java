package io.sluice.fuzz;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.types.Row;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One case of the differential expression fuzzer, as testkit/fuzz generates it: a table (schema
 * and rows, values as text) and expressions over it. Rows keep their text so that a shrunk case
 * can be written back as a regression file.
 */
public record FuzzCase(
        long seed,
        Map<String, String> config,
        List<Column> schema,
        List<List<String>> rowTexts,
        List<ExprNode> exprs,
        Map<String, List<String>> leaves) {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A column of the table. */
    public record Column(String name, String type, String cls) {}

    /** Parses one line of sqlfuzz output (or a regression file). */
    public static FuzzCase parse(String json) {
        try {
            return fromJson(JSON.readTree(json));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("fuzz case is not valid JSON: " + e.getMessage(), e);
        }
    }

    /** A regression file's "expect" field: "native" (the default) or "fallback: <reason text>". */
    public static String expectation(String json) {
        try {
            return JSON.readTree(json).path("expect").asText("native");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("fuzz case is not valid JSON: " + e.getMessage(), e);
        }
    }

    static FuzzCase fromJson(JsonNode n) {
        Map<String, String> config = new LinkedHashMap<>();
        n.path("config").fields().forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
        List<Column> schema = new ArrayList<>();
        for (JsonNode c : n.path("schema")) {
            schema.add(new Column(c.get("name").asText(), c.get("type").asText(), c.get("cls").asText()));
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : n.path("rows")) {
            List<String> row = new ArrayList<>();
            for (JsonNode v : r) {
                row.add(v.isNull() ? null : v.asText());
            }
            rows.add(row);
        }
        List<ExprNode> exprs = new ArrayList<>();
        for (JsonNode e : n.path("exprs")) {
            exprs.add(ExprNode.fromJson(e));
        }
        Map<String, List<String>> leaves = new LinkedHashMap<>();
        n.path("leaves").fields().forEachRemaining(e -> {
            List<String> cols = new ArrayList<>();
            e.getValue().forEach(v -> cols.add(v.asText()));
            leaves.put(e.getKey(), cols);
        });
        return new FuzzCase(n.path("seed").asLong(), config, schema, rows, exprs, leaves);
    }

    /** The case as JSON, in the format of sqlfuzz. */
    public ObjectNode toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.put("seed", seed);
        ObjectNode cfg = n.putObject("config");
        config.forEach(cfg::put);
        ArrayNode sch = n.putArray("schema");
        for (Column c : schema) {
            sch.addObject().put("name", c.name()).put("type", c.type()).put("cls", c.cls());
        }
        ArrayNode rows = n.putArray("rows");
        for (List<String> r : rowTexts) {
            ArrayNode row = rows.addArray();
            r.forEach(row::add);
        }
        ArrayNode ex = n.putArray("exprs");
        exprs.forEach(e -> ex.add(e.toJson()));
        ObjectNode lv = n.putObject("leaves");
        leaves.forEach((k, v) -> {
            ArrayNode a = lv.putArray(k);
            v.forEach(a::add);
        });
        return n;
    }

    /** The same table and options with other rows and expressions. */
    public FuzzCase with(List<List<String>> rows, List<ExprNode> exprs) {
        return new FuzzCase(seed, config, schema, rows, exprs, leaves);
    }

    /** The column list of CREATE TABLE t (...). */
    public String ddl() {
        StringBuilder sb = new StringBuilder();
        for (Column c : schema) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(c.name()).append(' ').append(c.type());
        }
        return sb.toString();
    }

    /** The rows as Flink rows. */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        for (List<String> texts : rowTexts) {
            Object[] fields = new Object[schema.size()];
            for (int i = 0; i < fields.length; i++) {
                String v = texts.get(i);
                fields[i] = v == null ? null : value(schema.get(i), v);
            }
            out.add(Row.of(fields));
        }
        return out;
    }

    /** Parses a value in sqlfuzz's text format for the column's type. */
    static Object value(Column c, String v) {
        String t = c.type();
        String root = t.contains("(") ? t.substring(0, t.indexOf('(')) : t;
        try {
            if (t.startsWith("ARRAY<") || t.startsWith("MAP<")) {
                return nestedValue(c, t, readJson(v));
            }
            switch (root) {
                case "BOOLEAN": return Boolean.parseBoolean(v);
                case "TINYINT": return Byte.parseByte(v);
                case "SMALLINT": return Short.parseShort(v);
                case "INT": return Integer.parseInt(v);
                case "BIGINT": return Long.parseLong(v);
                case "FLOAT": return Float.intBitsToFloat(Integer.parseUnsignedInt(v.substring(2), 16));
                case "DOUBLE": return Double.longBitsToDouble(Long.parseUnsignedLong(v.substring(2), 16));
                case "DECIMAL": return new BigDecimal(v);
                case "STRING": case "VARCHAR": case "CHAR": return v;
                case "BYTES": case "BINARY": case "VARBINARY": return Base64.getDecoder().decode(v);
                case "DATE": return LocalDate.parse(v);
                case "TIME": return LocalTime.parse(v);
                case "TIMESTAMP": return LocalDateTime.parse(v);
                case "TIMESTAMP_LTZ": return Instant.parse(v);
                default: throw new IllegalArgumentException("no fuzz value format for type " + t);
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("column " + c.name() + " " + t + ": bad value '" + v + "': " + e.getMessage(), e);
        }
    }

    /**
     * An ARRAY (a JSON array of its elements) or a MAP (a JSON array of [key, value] pairs, in
     * order) of scalar elements in sqlfuzz's text format.
     */
    static Object nestedValue(Column c, String t, JsonNode json) {
        String inner = t.substring(t.indexOf('<') + 1, t.lastIndexOf('>'));
        if (t.startsWith("ARRAY<")) {
            Object[] out = (Object[]) java.lang.reflect.Array.newInstance(externalClass(inner), json.size());
            for (int i = 0; i < out.length; i++) {
                out[i] = element(c, inner, json.get(i));
            }
            return out;
        }
        int comma = inner.indexOf(", ");
        java.util.Map<Object, Object> map = new java.util.LinkedHashMap<>();
        for (JsonNode pair : json) {
            map.put(element(c, inner.substring(0, comma), pair.get(0)), element(c, inner.substring(comma + 2), pair.get(1)));
        }
        return map;
    }

    private static JsonNode readJson(String v) {
        try {
            return JSON.readTree(v);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    private static Object element(Column c, String type, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        return value(new Column(c.name(), type, c.cls()), v.isTextual() ? v.asText() : v.toString());
    }

    private static Class<?> externalClass(String type) {
        switch (type) {
            case "INT": return Integer.class;
            case "BIGINT": return Long.class;
            case "STRING": return String.class;
            default: throw new IllegalArgumentException("no fuzz array format for elements of type " + type);
        }
    }

    /** The SELECT that evaluates the expressions, each as column e0, e1, ... */
    public static String query(List<ExprNode> exprs) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < exprs.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(exprs.get(i).render()).append(" AS e").append(i);
        }
        return sb.append(" FROM t").toString();
    }
}
