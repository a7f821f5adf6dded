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
    private final List<String> edgeNotes;

    public Verdict(boolean nativePlan, List<Node> nodes, List<String> reasons) {
        this(nativePlan, nodes, reasons, List.of());
    }

    private Verdict(boolean nativePlan, List<Node> nodes, List<String> reasons, List<String> edgeNotes) {
        this.nativePlan = nativePlan;
        this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
        this.reasons = Collections.unmodifiableList(new ArrayList<>(reasons));
        this.edgeNotes = Collections.unmodifiableList(new ArrayList<>(edgeNotes));
    }

    /** This verdict with notes on sources that could be read natively but are not, and why. */
    public Verdict withEdgeNotes(List<String> notes) {
        return new Verdict(nativePlan, nodes, reasons, notes);
    }

    /**
     * Why columnar sources of the plan are read by Flink's own readers (rows into the island)
     * rather than natively; empty when every such source is native. These never make a plan
     * fall back.
     */
    public List<String> edgeNotes() {
        return edgeNotes;
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
        for (String r : edgeNotes) {
            sb.append("  [row edge] ").append(r).append('\n');
        }
        return sb.toString();
    }
}
