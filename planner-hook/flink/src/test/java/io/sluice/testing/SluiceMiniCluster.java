package io.sluice.testing;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster every JUnit class shares: one TaskManager with two slots (the machine's cores). */
public final class SluiceMiniCluster {
    private SluiceMiniCluster() {}

    /** A new extension; register it with {@code @RegisterExtension static final}. */
    public static MiniClusterExtension extension() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(2)
                .build());
    }
}
