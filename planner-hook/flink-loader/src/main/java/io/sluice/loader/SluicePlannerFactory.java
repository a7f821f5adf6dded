package io.sluice.loader;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.delegation.PlannerFactory;

import java.util.Set;

/** Flink's planner factory, with Sluice installed into the configuration of every planner it creates. */
public final class SluicePlannerFactory implements PlannerFactory {
    private final PlannerFactory flinks;
    private final ClassLoader plannerLoader;

    public SluicePlannerFactory(PlannerFactory flinks, ClassLoader plannerLoader) {
        this.flinks = flinks;
        this.plannerLoader = plannerLoader;
    }

    @Override
    public Planner create(Context context) {
        SluiceLoader.install(plannerLoader, context.getTableConfig());
        return flinks.create(context);
    }

    @Override
    public String factoryIdentifier() {
        return flinks.factoryIdentifier();
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return flinks.requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return flinks.optionalOptions();
    }
}
