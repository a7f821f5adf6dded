package io.sluice.iceberg;

import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Access to the parts of Flink's Iceberg connector that it does not make public (the fields of
 * its table source and sink, its package-private operators), and table loading as it does it. Sluice keeps the connector in charge
 * of planning, state and commits and replaces only the data path, and the connector has no API
 * for that. The pinned connector version (iceberg-flink-runtime-2.1 1.11.0) is what the tests
 * cover; another version fails with an error that names the member.
 */
public final class IcebergConnector {
    private IcebergConnector() {}

    /** The value of the declared field {@code name} of {@code o}. */
    @SuppressWarnings("unchecked")
    public static <T> T field(Object o, String name) {
        try {
            Field f = o.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return (T) f.get(o);
        } catch (ReflectiveOperationException e) {
            throw mismatch("field " + name + " of " + o.getClass().getName(), e);
        }
    }

    /** Calls the declared method {@code name} of {@code o} with the given parameter types. */
    @SuppressWarnings("unchecked")
    public static <T> T invoke(Object o, String name, Class<?>[] types, Object... args) {
        try {
            Method m = o.getClass().getDeclaredMethod(name, types);
            m.setAccessible(true);
            return (T) m.invoke(o, args);
        } catch (ReflectiveOperationException e) {
            throw mismatch("method " + name + " of " + o.getClass().getName(), e);
        }
    }

    /** Creates an instance of the connector class {@code className} with a declared constructor. */
    @SuppressWarnings("unchecked")
    public static <T> T construct(String className, Class<?>[] types, Object... args) {
        try {
            Constructor<?> c = Class.forName(className).getDeclaredConstructor(types);
            c.setAccessible(true);
            return (T) c.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw mismatch("constructor of " + className, e);
        }
    }

    /** Loads a table with a copy of {@code loader} (the loader itself stays unopened). */
    public static Table loadTable(TableLoader loader) {
        TableLoader l = loader.clone();
        l.open();
        try {
            return l.loadTable();
        } finally {
            try {
                l.close();
            } catch (Exception e) {
                // closing a loader only releases its catalog
            }
        }
    }

    private static IllegalStateException mismatch(String what, Exception e) {
        return new IllegalStateException(
                "Sluice cannot use the " + what + " (is the Iceberg connector a version other than 1.11?)", e);
    }
}
