package io.muster.replication;

import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Eureka's replica rule and health verdict, and this node's own registration. No network. */
class ReplicaStatusTest {
    private final InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3));
    private final LocalNode self = new LocalNode("/eureka", null, Set.of(8761));
    private PeerCluster cluster;

    private ReplicaStatus status(String... settings) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("eureka.client.serviceUrl.defaultZone",
                "http://peer:secret@10.9.9.1:8761/eureka/,http://10.9.9.2:8761/eureka/,http://localhost:8761/eureka/",
                "spring.application.name", "eureka-server", "eureka.instance.hostname", "10.9.9.3"));
        for (int i = 0; i + 1 < settings.length; i += 2) {
            m.put(settings[i], settings[i + 1]);
        }
        ServerConfig config = ConfigLoader.load(List.of(m));
        RecordingPeerClient peer = new RecordingPeerClient();
        cluster = new PeerCluster(config.peers(), self, registry, Clock.systemUTC(), url -> peer, PeerDns.SYSTEM,
                d -> { }, false);
        cluster.refresh();
        SelfRegistration me = new SelfRegistration(config.instance(), self, registry, Clock.systemUTC(), "/eureka");
        me.renew(true);
        return new ReplicaStatus(cluster, registry, me, config.peers().minAvailableForHealthy());
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aPeerIsAvailableWhenAnInstanceOfOurAppHasItsHostName() {
        ReplicaStatus status = status();
        registry.register(Instances.up("EUREKA-SERVER", "10.9.9.1:eureka-server:8761").toBuilder()
                .hostName("10.9.9.1").build(), Origin.PEER);
        registry.register(Instances.up("OTHER-APP", "x").toBuilder().hostName("10.9.9.2").build(), Origin.PEER);
        ReplicaStatus.Report r = status.report();
        assertThat(r.registered()).containsExactly("http://10.9.9.1:8761/eureka/", "http://10.9.9.2:8761/eureka/");
        assertThat(r.available()).containsExactly("http://10.9.9.1:8761/eureka/");
        assertThat(r.unavailable()).as("an instance of another app does not count")
                .containsExactly("http://10.9.9.2:8761/eureka/");
        assertThat(r.healthy()).as("no threshold, no verdict").isNull();
        assertThat(r.whyUnavailable()).containsOnlyKeys("http://10.9.9.2:8761/eureka/");
        assertThat(r.whyUnavailable().get("http://10.9.9.2:8761/eureka/"))
                .as("the hosts registered beside the one looked for, and the setting that makes them meet")
                .contains("with host name 10.9.9.2", "10.9.9.1, 10.9.9.3", "eureka.instance.hostname=10.9.9.2");
    }

    @Test
    void healthyWhenAtLeastTheConfiguredNumberOfReplicasAreAvailable() {
        assertThat(status("eureka.server.minAvailableInstancesForPeerReplication", "1").report().healthy())
                .isFalse();
        registry.register(Instances.up("EUREKA-SERVER", "p").toBuilder().hostName("10.9.9.2").build(), Origin.PEER);
        assertThat(status("eureka.server.minAvailableInstancesForPeerReplication", "1").report().healthy())
                .isTrue();
    }

    @Test
    void theNodeRegistersItselfUnderItsAppNameSoReplicationTellsThePeers() {
        ReplicaStatus.Report r = status().report();
        assertThat(r.self().app()).isEqualTo("EUREKA-SERVER");
        assertThat(r.self().hostName()).isEqualTo("10.9.9.3");
        assertThat(r.self().id()).isEqualTo("10.9.9.3:eureka-server:8761");
        assertThat(registry.views().instance("EUREKA-SERVER", "10.9.9.3:eureka-server:8761")).isPresent();
    }

    @Test
    void registerWithEurekaFalseKeepsTheNodeOutOfTheRegistry() {
        status("eureka.client.registerWithEureka", "false");
        assertThat(registry.size()).isZero();
    }
}
