package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Eureka's view of the cluster for {@code /status}: a peer is an available replica when an instance of this
 * server's own application is registered whose host name equals the host of the peer's URL (Eureka's
 * {@code StatusUtil} rule, which stock peers apply to us too), and the node is healthy when at least
 * {@code minAvailableInstancesForPeerReplication} replicas are available (no verdict when that is -1).
 */
public final class ReplicaStatus {
    /** URLs without credentials; {@code healthy} null when no threshold is configured. */
    public record Report(List<String> registered, List<String> available, List<String> unavailable,
                         Boolean healthy, InstanceInfo self) {
    }

    private final PeerCluster peers;
    private final InstanceRegistry registry;
    private final SelfRegistration self;
    private final int minAvailable;

    public ReplicaStatus(PeerCluster peers, InstanceRegistry registry, SelfRegistration self, int minAvailable) {
        this.peers = peers;
        this.registry = registry;
        this.self = self;
        this.minAvailable = minAvailable;
    }

    public Report report() {
        List<String> registered = new ArrayList<>();
        List<String> available = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        Optional<Application> mine = registry.views().application(self.appName());
        for (PeerNode node : peers.nodes()) {
            String url = node.url().toString();
            registered.add(url);
            String host = node.url().base().getHost();
            boolean up = mine.map(app -> app.instances().stream()
                    .anyMatch(i -> host.equalsIgnoreCase(i.hostName()))).orElse(false);
            (up ? available : unavailable).add(url);
        }
        Boolean healthy = minAvailable > -1 ? available.size() >= minAvailable : null;
        return new Report(registered, available, unavailable, healthy, self.instance());
    }
}
