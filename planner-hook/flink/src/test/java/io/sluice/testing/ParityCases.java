package io.sluice.testing;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads parity cases from a JSON file under {@code src/test/resources/parity/}: an object with
 * the cases ({@code "cases"}), the defaults every case starts from ({@code "defaults"}, same keys;
 * its vars and config merge with a case's) and a description ({@code "about"}), or a bare array of
 * cases. One case:
 *
 * <pre>{@code
 * {"name": "projection", "about": "why the case exists", "query": "SELECT s, i FROM pq",
 *  "vars": {"tableOptions": ", 'parquet.utc-timezone' = 'true'"},
 *  "expect": "native" | {"fallback": "reason"} | {"edge": "note"},
 *  "fails": "text in Sluice's failure",
 *  "parallelism": 2, "unordered": true, "config": {"key": "value"}, "ddl": ["CREATE TABLE ..."]}
 * }</pre>
 *
 * <p>Only name and query are required; a case expects a native run by default. Unknown keys and
 * duplicate names are errors, so that a typo cannot silently drop what a case demands. The
 * suite's constants ({@code ${NAME}}, e.g. a schema it shares with its Java code) are replaced
 * when the file is loaded; other {@code ${...}} stay for {@link ParityCase#substitute}.
 */
public final class ParityCases {
    private static final Set<String> KEYS =
            Set.of("name", "about", "query", "vars", "expect", "fails", "parallelism", "unordered", "config", "ddl");

    private ParityCases() {}

    /** The cases of a resource file, e.g. {@code "parity/parquet.json"}. */
    public static List<ParityCase> load(String resource) {
        return load(resource, Map.of());
    }

    /** The cases of a resource file, with the suite's constants replaced. */
    public static List<ParityCase> load(String resource, Map<String, String> constants) {
        try (InputStream in = ParityCases.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no parity case file " + resource + " on the test class path");
            }
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return parse(resource, new ObjectMapper().readTree(text), constants);
        } catch (IOException e) {
            throw new IllegalArgumentException("parity case file " + resource + ": " + e.getMessage(), e);
        }
    }

    static List<ParityCase> parse(String where, JsonNode root, Map<String, String> constants) {
        JsonNode cases = root;
        JsonNode defaults = null;
        if (root.isObject()) {
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!Set.of("about", "defaults", "cases").contains(k)) {
                    throw new IllegalArgumentException(where + ": unknown key '" + k + "' (known: about, defaults, cases)");
                }
            }
            cases = root.get("cases");
            defaults = root.get("defaults");
        }
        if (cases == null || !cases.isArray()) {
            throw new IllegalArgumentException(where + ": an array of cases expected");
        }
        List<ParityCase> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode c : cases) {
            JsonNode n = replace(merge(defaults, c), constants);
            String name = text(where, n, "name", null);
            if (name == null || !names.add(name)) {
                throw new IllegalArgumentException(where + ": a case without a name, or a second case named " + name);
            }
            String at = where + " case " + name;
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!KEYS.contains(k)) {
                    throw new IllegalArgumentException(at + ": unknown key '" + k + "' (known: " + KEYS + ")");
                }
            }
            String query = text(at, n, "query", null);
            if (query == null) {
                throw new IllegalArgumentException(at + ": no query");
            }
            Expectation expect = expectation(at, n.get("expect"));
            if (n.has("fails")) {
                expect = expect.failing(text(at, n, "fails", ""));
            }
            int parallelism = n.has("parallelism") ? n.get("parallelism").asInt() : 1;
            if (parallelism < 1) {
                throw new IllegalArgumentException(at + ": parallelism " + n.get("parallelism"));
            }
            List<String> ddl = new ArrayList<>();
            if (n.has("ddl")) {
                for (JsonNode s : n.get("ddl")) {
                    ddl.add(s.asText());
                }
            }
            out.add(new ParityCase(name, "", List.of(), query, expect, parallelism,
                    n.path("unordered").asBoolean(false), strings(at, n.get("config")), List.copyOf(ddl),
                    strings(at, n.get("vars"))));
        }
        return out;
    }

    /** A case over the defaults: the case's keys win; vars and config merge. */
    private static JsonNode merge(JsonNode defaults, JsonNode c) {
        if (defaults == null) {
            return c;
        }
        var out = ((ObjectNode) defaults).deepCopy();
        c.fields().forEachRemaining(e -> {
            JsonNode d = out.get(e.getKey());
            if (d != null && d.isObject() && e.getValue().isObject()) {
                var m = ((ObjectNode) d).deepCopy();
                m.setAll((ObjectNode) e.getValue());
                out.set(e.getKey(), m);
            } else {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    /** A node with the constants replaced in every string. */
    private static JsonNode replace(JsonNode n, Map<String, String> constants) {
        if (constants.isEmpty()) {
            return n;
        }
        if (n.isTextual()) {
            String s = n.asText();
            for (Map.Entry<String, String> e : constants.entrySet()) {
                s = s.replace("${" + e.getKey() + "}", e.getValue());
            }
            return new TextNode(s);
        }
        if (n.isObject()) {
            var out = new ObjectMapper().createObjectNode();
            n.fields().forEachRemaining(e -> out.set(e.getKey(), replace(e.getValue(), constants)));
            return out;
        }
        if (n.isArray()) {
            var out = new ObjectMapper().createArrayNode();
            n.forEach(e -> out.add(replace(e, constants)));
            return out;
        }
        return n;
    }

    private static Expectation expectation(String at, JsonNode e) {
        if (e == null || e.isTextual() && e.asText().equals("native")) {
            return Expectation.nativeRun();
        }
        if (e.isObject() && e.size() == 1 && e.has("fallback")) {
            return Expectation.fallback(e.get("fallback").asText());
        }
        if (e.isObject() && e.size() == 1 && e.has("edge")) {
            return Expectation.edge(e.get("edge").asText());
        }
        throw new IllegalArgumentException(at + ": expect is \"native\", {\"fallback\": reason} or {\"edge\": note}, not " + e);
    }

    private static String text(String at, JsonNode n, String key, String fallback) {
        JsonNode v = n.get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(at + ": " + key + " must be a string");
        }
        return v.asText();
    }

    private static Map<String, String> strings(String at, JsonNode n) {
        if (n == null) {
            return Map.of();
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException(at + ": an object of strings expected, not " + n);
        }
        Map<String, String> m = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return Map.copyOf(m);
    }
}
