package io.sluice.testing;

/**
 * What a parity case demands of Sluice besides stock Flink's results: how the job runs (natively,
 * falling back with a reason, or natively with one edge left to Flink) and whether both engines
 * must fail.
 *
 * @param run how Sluice must run the job
 * @param reason for {@link Run#FALLBACK}, text the fallback reasons contain; for
 *     {@link Run#EDGE}, text the edge notes contain
 * @param failure null when both engines must produce the same rows; otherwise both must fail,
 *     and Sluice's failure (its message or a cause's) contains this text ("" for any failure)
 * @param rowsDefined false for a fallback whose rows stock Flink itself does not determine (they
 *     depend on when processing-time timers fire against the end of a bounded input): both runs
 *     are stock Flink, so only the verdict and the absence of native batches are checked
 */
public record Expectation(Run run, String reason, String failure, boolean rowsDefined) {

    /** An expectation whose rows both engines must match. */
    public Expectation(Run run, String reason, String failure) {
        this(run, reason, failure, true);
    }

    /** How Sluice must run a case's job. */
    public enum Run {
        /** Every node of the island, and the edges the suite checks, run natively. */
        NATIVE,
        /** The whole job runs on stock Flink, with a reason. */
        FALLBACK,
        /** The island runs natively, but a source or sink stays Flink's, with a note. */
        EDGE
    }

    /** The job runs natively. */
    public static Expectation nativeRun() {
        return new Expectation(Run.NATIVE, null, null);
    }

    /** The job falls back to stock Flink with a reason containing {@code reason}. */
    public static Expectation fallback(String reason) {
        return new Expectation(Run.FALLBACK, reason, null);
    }

    /**
     * The job falls back with a reason containing {@code reason}, and its rows depend on when
     * stock Flink's processing-time timers fire, so two runs of stock Flink may differ.
     */
    public static Expectation fallbackTimerDriven(String reason) {
        return new Expectation(Run.FALLBACK, reason, null, false);
    }

    /** The island runs natively; an edge stays Flink's with a note containing {@code note}. */
    public static Expectation edge(String note) {
        return new Expectation(Run.EDGE, note, null);
    }

    /** The same run, with both engines failing and Sluice's failure containing {@code text}. */
    public Expectation failing(String text) {
        return new Expectation(run, reason, text, rowsDefined);
    }

    /** Whether the island must run natively (fully, or with an edge left to Flink). */
    public boolean isNative() {
        return run != Run.FALLBACK;
    }

    /** Whether both engines must fail. */
    public boolean fails() {
        return failure != null;
    }

    @Override
    public String toString() {
        String s = switch (run) {
            case NATIVE -> "native";
            case FALLBACK -> "fallback (" + reason + ")";
            case EDGE -> "native, an edge on Flink (" + reason + ")";
        };
        if (!rowsDefined) {
            s += ", rows timed by processing-time timers";
        }
        return fails() ? s + ", both fail (" + failure + ")" : s;
    }
}
