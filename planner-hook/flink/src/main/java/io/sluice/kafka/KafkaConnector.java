package io.sluice.kafka;

import io.sluice.connectors.PrivateState;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/**
 * The private state of Flink's Kafka connector that the native scan and sink read: the table
 * source's and sink's configuration, and the {@code KafkaSource} and {@code KafkaSink} they build. The pinned connector version
 * (flink-connector-kafka 5.0.0-2.1) is what the tests cover; another version fails here with a
 * message naming what is missing.
 */
public final class KafkaConnector {
    private KafkaConnector() {}

    /** The value of the field {@code name} declared by {@code o}'s class or a superclass. */
    public static <T> T field(Object o, String name) {
        return PrivateState.field(o, name, KafkaConnector::mismatch);
    }

    /** Calls the method {@code name} declared by {@code o}'s class or a superclass. */
    @SuppressWarnings("unchecked")
    public static <T> T invoke(Object o, String name, Class<?>[] types, Object... args) {
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

    /** Creates an instance of {@code type} with its declared constructor of the given parameter types. */
    public static <T> T construct(Class<T> type, Class<?>[] types, Object... args) {
        try {
            Constructor<T> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            return c.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw mismatch("constructor of " + type.getName(), e);
        }
    }

    private static IllegalStateException mismatch(String what, Throwable cause) {
        return new IllegalStateException("Sluice cannot use the Kafka connector's " + what
                + " (flink-connector-kafka 5.0.0-2.1 is the version it supports)", cause);
    }
}
