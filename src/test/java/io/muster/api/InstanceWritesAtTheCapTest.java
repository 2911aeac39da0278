package io.muster.api;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.Refusal;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryFullException;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A registry full to its instance cap, seen through the rules every client registration passes. */
class InstanceWritesAtTheCapTest {
    private final InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3),
            new LimitsConfig(256, 1024, 64, 4096, 1, 3600, 1, 1000));
    private final Set<String> heldByPeers = new java.util.HashSet<>();
    private final List<String> asked = new ArrayList<>();
    private final InstanceWrites writes = new InstanceWrites(registry, Clock.systemUTC(), (app, id) -> {
        asked.add(app + "/" + id);
        return heldByPeers.contains(id);
    });

    @Test
    void aNewInstanceIsRefusedWhenNoPeerHoldsIt() {
        writes.register("A", Instances.up("A", "a-1"), Origin.CLIENT);

        assertThatThrownBy(() -> writes.register("A", Instances.up("A", "a-2"), Origin.CLIENT))
                .isInstanceOf(RegistryFullException.class).hasMessageContaining("eureka.server.maxInstances");
        assertThat(asked).as("the peers were asked before refusing").containsExactly("A/a-2");
        assertThat(registry.size()).isEqualTo(1);
        assertThat(registry.refusals(Refusal.MAX_INSTANCES)).isEqualTo(1);
    }

    @Test
    void anInstanceAPeerHoldsIsTakenPastTheCapAndReplicatedAsTheClientsWrite() {
        List<RegistryChange> changes = new ArrayList<>();
        registry.addListener(changes::add);
        writes.register("A", Instances.up("A", "a-1"), Origin.CLIENT);
        heldByPeers.add("a-2");

        writes.register("A", Instances.up("A", "a-2"), Origin.CLIENT);

        assertThat(registry.size()).isEqualTo(2);
        assertThat(changes).last().isInstanceOfSatisfying(RegistryChange.Registered.class,
                r -> assertThat(r.origin()).as("sent on to the peers that lack it").isEqualTo(Origin.CLIENT));
        assertThat(registry.refusals(Refusal.MAX_INSTANCES)).as("not a refusal in the metrics").isZero();
    }

    @Test
    void aPeersWriteIsNeverCountedAgainstTheCapsNorLookedUp() {
        writes.register("A", Instances.up("A", "a-1"), Origin.CLIENT);

        writes.register("A", Instances.up("A", "a-2"), Origin.PEER);
        writes.register("B", Instances.up("B", "b-1"), Origin.PEER);

        assertThat(registry.size()).isEqualTo(3);
        assertThat(asked).isEmpty();
    }
}
