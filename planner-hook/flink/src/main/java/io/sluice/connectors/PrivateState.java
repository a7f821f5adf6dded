package io.sluice.connectors;

import java.lang.reflect.Field;
import java.util.function.BiFunction;

/**
 * Reads the private state of a connector's classes (a table source's configuration, the source
 * it builds), for the connectors Sluice replaces parts of. Each connector's own class
 * (io.sluice.kafka.KafkaConnector, io.sluice.fluss.FlussConnector) names the version it supports
 * in the error a missing field gives.
 */
public final class PrivateState {
    private PrivateState() {}

    /**
     * The value of the field {@code name} declared by {@code o}'s class or a superclass; a field
     * that is missing or unreadable fails with {@code mismatch} of what is missing and why.
     */
    @SuppressWarnings("unchecked")
    public static <T> T field(Object o, String name, BiFunction<String, Throwable, IllegalStateException> mismatch) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return (T) f.get(o);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (ReflectiveOperationException e) {
                throw mismatch.apply("field " + name + " of " + o.getClass().getName(), e);
            }
        }
        throw mismatch.apply("field " + name + " of " + o.getClass().getName(), null);
    }
}
