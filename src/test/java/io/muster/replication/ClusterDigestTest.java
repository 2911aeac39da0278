package io.muster.replication;

import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The digest a node serves its peers is taken from the instances as held, without decorating a copy of each with
 * its lease, and is the very digest of the decorated registry: it reads ids, statuses and versions only.
 */
class ClusterDigestTest {

    @Test
    void theDigestOfTheHeldInstancesIsTheDigestOfTheDecoratedRegistry() {
        MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
        InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
        for (int n = 0; n < 60; n++) {
            registry.register(Instances.up("APP-" + (n % 7), "i-" + n), Origin.CLIENT);
        }
        registry.statusUpdate("APP-3", "i-3", InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
        registry.cancel("APP-4", "i-4", Origin.CLIENT);
        clock.advance(Duration.ofSeconds(20));
        registry.renew("APP-5", "i-5", null, null, Origin.CLIENT);

        assertThat(ClusterDigest.of(registry.views().groups()))
                .isEqualTo(ClusterDigest.of(registry.views().snapshot().applications()))
                .hasSize(7);
    }
}
