package io.sluice.planner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What Sluice decided for one optimized plan: native or not, and for every node of the island
 * whether it is supported and why not.
 */
public final class Verdict {
    /** The decision for one node. */
    public record Node(String name, String type, boolean supported, List<String> reasons) {}

    private final boolean nativePlan;
    private final List<Node> nodes;
    private final List<String> reasons;

    public Verdict(boolean nativePlan, List<Node> nodes, List<String> reasons) {
        this.nativePlan = nativePlan;
        this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
        this.reasons = Collections.unmodifiableList(new ArrayList<>(reasons));
    }

    /** True when the island was replaced by native operators. */
    public boolean isNative() {
        return nativePlan;
    }

    public List<Node> nodes() {
        return nodes;
    }

    /** Every reason the plan is not native, one line each ("node: reason"). */
    public List<String> reasons() {
        return reasons;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("== Sluice verdict ==\n");
        sb.append(nativePlan ? "NATIVE: the island runs in Sluice\n" : "FALLBACK: the job runs on stock Flink\n");
        for (Node n : nodes) {
            sb.append(n.supported() ? "  [native]   " : "  [fallback] ").append(n.name());
            if (n.type() != null && !n.type().isEmpty()) {
                sb.append(" (").append(n.type()).append(")");
            }
            sb.append('\n');
            for (String r : n.reasons()) {
                sb.append("      - ").append(r).append('\n');
            }
        }
        for (String r : reasons) {
            if (nodes.stream().noneMatch(n -> n.reasons().stream().anyMatch(r::endsWith))) {
                sb.append("  - ").append(r).append('\n');
            }
        }
        return sb.toString();
    }
}
