package io.sluice.loader;

import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the drop-in jar adds to Flink's planner loading: which Flink versions Sluice supports, where
 * Sluice's classes are, which of them the planner's class loader must take from Flink's own class
 * loader, and the call that installs Sluice into a planner's configuration.
 */
public final class SluiceLoader {
    /** The Flink release Sluice is built and verified against. */
    public static final String SUPPORTED_FLINK_VERSION = "2.1.1";

    /** Set to "false" to load Flink's planner without Sluice. */
    public static final String ENABLED_PROPERTY = "sluice.loader.enabled";

    /**
     * Packages the planner's class loader takes from Flink's class loader: the native bridge and the
     * runtime operators must exist once per JVM (one Go runtime, one loaded library), and they run
     * on TaskManagers where only Flink's class loader has them.
     */
    static final String[] SLUICE_OWNER_FIRST = {"io.sluice.jni.", "io.sluice.runtime."};

    private static final String SLUICE_MARKER = "io/sluice/Sluice.class";

    private SluiceLoader() {}

    /** Why Sluice is not loaded into the planner, or null when it is. */
    public static String inactiveReason(String flinkVersion) {
        if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY))) {
            return ENABLED_PROPERTY + " is false";
        }
        if (!SUPPORTED_FLINK_VERSION.equals(flinkVersion)) {
            return "Sluice supports Flink " + SUPPORTED_FLINK_VERSION + " only; this is Flink " + flinkVersion;
        }
        return null;
    }

    /** The running Flink's version. */
    public static String flinkVersion() {
        return EnvironmentInformation.getVersion();
    }

    /** Packages that the planner's class loader loads from Flink's class loader first. */
    public static String[] ownerFirstPackages(String... flinksOwn) {
        List<String> all = new ArrayList<>(Arrays.asList(CoreOptions.PARENT_FIRST_LOGGING_PATTERNS));
        all.addAll(Arrays.asList(flinksOwn));
        all.addAll(Arrays.asList(SLUICE_OWNER_FIRST));
        return all.toArray(new String[0]);
    }

    /** The jar (or class directory) that holds Sluice's classes. */
    public static URL sluiceLocation(ClassLoader owner) {
        URL marker = owner.getResource(SLUICE_MARKER);
        if (marker == null) {
            throw new TableException("Sluice's classes are missing from the drop-in jar (" + SLUICE_MARKER + ")");
        }
        String s = marker.toString();
        try {
            if (s.startsWith("jar:")) {
                return new URL(s.substring(4, s.indexOf("!/")));
            }
            return new URL(s.substring(0, s.length() - SLUICE_MARKER.length()));
        } catch (MalformedURLException e) {
            throw new TableException("cannot locate Sluice's classes from " + s, e);
        }
    }

    /** Calls io.sluice.Sluice#installInto(config) as loaded by the planner's class loader. */
    public static void install(ClassLoader plannerLoader, TableConfig config) {
        try {
            Class<?> sluice = Class.forName("io.sluice.Sluice", true, plannerLoader);
            Method installInto = sluice.getMethod("installInto", TableConfig.class);
            installInto.invoke(null, config);
        } catch (InvocationTargetException e) {
            throw new TableException("Sluice failed to install into the planner", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new TableException("Sluice failed to install into the planner", e);
        }
    }
}
