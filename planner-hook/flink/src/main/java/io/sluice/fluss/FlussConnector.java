package io.sluice.fluss;

import io.sluice.connectors.PrivateState;

/**
 * The private state of Fluss's Flink connector that the native scan reads: the table source's
 * configuration and the {@code FlinkSource} it builds. The pinned connector version
 * (fluss-flink-2.1 0.8.0-incubating) is what the tests cover; another version fails here with a
 * message naming what is missing.
 */
public final class FlussConnector {
    /** The class name of Fluss's Flink table source (the connector is optional on the class path). */
    public static final String TABLE_SOURCE_CLASS = "org.apache.fluss.flink.source.FlinkTableSource";

    private FlussConnector() {}

    /** The value of the field {@code name} declared by {@code o}'s class or a superclass. */
    public static <T> T field(Object o, String name) {
        return PrivateState.field(o, name, FlussConnector::mismatch);
    }

    private static IllegalStateException mismatch(String what, Throwable cause) {
        return new IllegalStateException("Sluice cannot use the Fluss connector's " + what
                + " (fluss-flink-2.1 0.8.0-incubating is the version it supports)", cause);
    }
}
