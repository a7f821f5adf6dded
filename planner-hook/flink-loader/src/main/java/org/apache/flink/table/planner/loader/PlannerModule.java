package org.apache.flink.table.planner.loader;

import io.sluice.loader.SluiceLoader;
import io.sluice.loader.SluicePlannerFactory;

import org.apache.flink.core.classloading.ComponentClassLoader;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.delegation.ExecutorFactory;
import org.apache.flink.table.delegation.PlannerFactory;
import org.apache.flink.table.factories.FactoryUtil;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Sluice's replacement of Flink's planner module (same class name and public methods, found first
 * because the drop-in jar sorts first in lib/). Like Flink's, it loads the table planner from the
 * {@code flink-table-planner.jar} inside flink-table-planner-loader into its own class loader; in
 * addition it puts Sluice's planner stage into that class loader and installs it into every planner
 * created. On a Flink version Sluice was not built for it loads the plain planner and logs why.
 */
public class PlannerModule {
    private static final Logger LOG = LoggerFactory.getLogger(PlannerModule.class);

    /** The planner jar that flink-table-planner-loader carries. */
    static final String FLINK_TABLE_PLANNER_FAT_JAR = "flink-table-planner.jar";

    /** Libraries shipped by Flink's own lib/ that the planner must share with it. */
    private static final String[] FLINK_OWNER_FIRST = {
        "org.codehaus.janino", "org.codehaus.commons", "org.apache.commons.lang3",
        "org.apache.commons.math3", "org.apache.commons.text", "org.apache.hadoop"
    };

    private static final String[] COMPONENT_FIRST = {"org.apache.flink"};

    private final PlannerClassLoader loader;
    private final String inactiveReason;

    private PlannerModule() {
        ClassLoader owner = PlannerModule.class.getClassLoader();
        List<URL> urls = new ArrayList<>();
        urls.add(extractPlanner(owner));
        inactiveReason = SluiceLoader.inactiveReason(SluiceLoader.flinkVersion());
        if (inactiveReason == null) {
            urls.add(SluiceLoader.sluiceLocation(owner));
            LOG.info("Sluice is installed into Flink's table planner");
        } else {
            LOG.warn("Sluice is not installed into Flink's table planner: {}", inactiveReason);
        }
        loader = new PlannerClassLoader(
                urls.toArray(new URL[0]), owner, SluiceLoader.ownerFirstPackages(FLINK_OWNER_FIRST), COMPONENT_FIRST);
    }

    private static URL extractPlanner(ClassLoader owner) {
        try (InputStream in = owner.getResourceAsStream(FLINK_TABLE_PLANNER_FAT_JAR)) {
            if (in == null) {
                throw new TableException("Flink's table planner (" + FLINK_TABLE_PLANNER_FAT_JAR
                        + ") is not on the classpath: flink-table-planner-loader must be in lib/ beside Sluice");
            }
            Path tmp = Files.createTempFile("flink-table-planner_", ".jar");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp.toUri().toURL();
        } catch (IOException e) {
            throw new TableException("Could not extract Flink's table planner", e);
        }
    }

    private static final class Holder {
        private static final PlannerModule INSTANCE = new PlannerModule();
    }

    public static PlannerModule getInstance() {
        return Holder.INSTANCE;
    }

    public URLClassLoader getSubmoduleClassLoader() {
        return loader;
    }

    public void addUrlToClassLoader(URL url) {
        loader.addURL(url);
    }

    /** Why Sluice is not installed, or null when it is. */
    public String sluiceInactiveReason() {
        return inactiveReason;
    }

    public ExecutorFactory loadExecutorFactory() {
        return FactoryUtil.discoverFactory(loader, ExecutorFactory.class, ExecutorFactory.DEFAULT_IDENTIFIER);
    }

    public PlannerFactory loadPlannerFactory() {
        PlannerFactory flinks =
                FactoryUtil.discoverFactory(loader, PlannerFactory.class, PlannerFactory.DEFAULT_IDENTIFIER);
        return inactiveReason == null ? new SluicePlannerFactory(flinks, loader) : flinks;
    }

    private static final class PlannerClassLoader extends ComponentClassLoader {
        PlannerClassLoader(URL[] urls, ClassLoader owner, String[] ownerFirst, String[] componentFirst) {
            super(urls, owner, ownerFirst, componentFirst, Collections.emptyMap());
        }

        @Override
        public void addURL(URL url) {
            super.addURL(url);
        }
    }
}
