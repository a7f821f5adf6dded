package io.sluice.fuzz;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A generated expression (testkit/fuzz Node): a SQL template in which {k} is the k-th argument,
 * its class, and the registry function it calls (empty for a column or literal).
 */
public record ExprNode(String cls, String fn, String sql, List<ExprNode> args) {

    static ExprNode fromJson(JsonNode n) {
        List<ExprNode> args = new ArrayList<>();
        for (JsonNode a : n.path("args")) {
            args.add(fromJson(a));
        }
        return new ExprNode(n.path("cls").asText(), n.path("fn").asText(""), n.path("sql").asText(), List.copyOf(args));
    }

    ObjectNode toJson() {
        ObjectNode n = FuzzCase.JSON.createObjectNode();
        n.put("cls", cls);
        if (!fn.isEmpty()) {
            n.put("fn", fn);
        }
        n.put("sql", sql);
        if (!args.isEmpty()) {
            args.forEach(a -> n.withArray("args").add(a.toJson()));
        }
        return n;
    }

    /** The expression as SQL, as testkit/fuzz renders it. */
    public String render() {
        if (args.isEmpty()) {
            return sql;
        }
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int close = c == '{' ? sql.indexOf('}', i) : -1;
            if (close > i) {
                try {
                    int k = Integer.parseInt(sql.substring(i + 1, close));
                    if (k < args.size()) {
                        sb.append(args.get(k).operand());
                        i = close + 1;
                        continue;
                    }
                } catch (NumberFormatException notPlaceholder) {
                    // literal text
                }
            }
            sb.append(c);
            i++;
        }
        return sb.toString();
    }

    /** As testkit/fuzz: no parentheses around a column name or a single call NAME(...). */
    private String operand() {
        return args.isEmpty() && sql.matches("[_a-z][_a-z0-9]*") || isCall(sql) ? render() : "(" + render() + ")";
    }

    static boolean isCall(String tmpl) {
        int open = tmpl.indexOf('(');
        if (open <= 0 || !tmpl.endsWith(")") || !tmpl.substring(0, open).matches("[A-Z_0-9]+")) {
            return false;
        }
        int depth = 0;
        boolean quoted = false;
        for (int i = open; i < tmpl.length(); i++) {
            char c = tmpl.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
                if (depth == 0 && i != tmpl.length() - 1) {
                    return false;
                }
            }
        }
        return depth == 0;
    }

    /** Number of nodes in the tree. */
    public int size() {
        return 1 + args.stream().mapToInt(ExprNode::size).sum();
    }

    /** Visits every node, this one first. */
    public void forEach(Consumer<ExprNode> f) {
        f.accept(this);
        args.forEach(a -> a.forEach(f));
    }

    /**
     * Smaller expressions that may still show a mismatch: every descendant of the same class,
     * and this tree with one call replaced by a column of its class.
     */
    public List<ExprNode> shrinkCandidates(java.util.Map<String, List<String>> leaves) {
        List<ExprNode> out = new ArrayList<>();
        for (ExprNode a : args) {
            a.forEach(d -> {
                if (d.cls.equals(cls) && !d.args.isEmpty()) {
                    out.add(d);
                }
            });
        }
        for (int k = 0; k < args.size(); k++) {
            ExprNode a = args.get(k);
            if (!a.args.isEmpty()) {
                for (String col : leaves.getOrDefault(a.cls, List.of())) {
                    out.add(withArg(k, new ExprNode(a.cls, "", col, List.of())));
                }
            }
            for (ExprNode smaller : a.shrinkCandidates(leaves)) {
                out.add(withArg(k, smaller));
            }
        }
        return out;
    }

    private ExprNode withArg(int k, ExprNode a) {
        List<ExprNode> copy = new ArrayList<>(args);
        copy.set(k, a);
        return new ExprNode(cls, fn, sql, List.copyOf(copy));
    }
}
