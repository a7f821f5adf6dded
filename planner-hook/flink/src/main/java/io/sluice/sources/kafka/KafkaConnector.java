package io.sluice.sources.kafka;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * The private state of Flink's Kafka connector that the native scan reads: the table source's
 * configuration and the {@code KafkaSource} it builds. The pinned connector version
 * (flink-connector-kafka 5.0.0-2.1) is what the tests cover; another version fails here with a
 * message naming what is missing.
 */
final class KafkaConnector {
    private KafkaConnector() {}

    /** The value of the field {@code name} declared by {@code o}'s class or a superclass. */
    @SuppressWarnings("unchecked")
    static <T> T field(Object o, String name) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return (T) f.get(o);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (ReflectiveOperationException e) {
                throw mismatch("field " + name + " of " + o.getClass().getName(), e);
            }
        }
        throw mismatch("field " + name + " of " + o.getClass().getName(), null);
    }

    /** Calls the method {@code name} declared by {@code o}'s class or a superclass. */
    @SuppressWarnings("unchecked")
    static <T> T invoke(Object o, String name, Class<?>[] types, Object... args) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(name, types);
                m.setAccessible(true);
                return (T) m.invoke(o, args);
            } catch (NoSuchMethodException e) {
                // look in the superclass
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException) {
                    throw (RuntimeException) cause;
                }
                throw mismatch("method " + name + " of " + o.getClass().getName(), cause);
            } catch (ReflectiveOperationException e) {
                throw mismatch("method " + name + " of " + o.getClass().getName(), e);
            }
        }
        throw mismatch("method " + name + " of " + o.getClass().getName(), null);
    }

    private static IllegalStateException mismatch(String what, Throwable cause) {
        return new IllegalStateException("Sluice's Kafka scan cannot read the " + what
                + " (flink-connector-kafka 5.0.0-2.1 is the version it supports)", cause);
    }
}
