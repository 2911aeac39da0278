package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Eureka's view of the cluster for {@code /status}: a peer is an available replica when an instance of this
 * server's own application is registered whose host name equals the host of the peer's URL (Eureka's
 * {@code StatusUtil} rule, which stock peers apply to us too), and the node is healthy when at least
 * {@code minAvailableInstancesForPeerReplication} replicas are available (no verdict when that is -1).
 */
public final class ReplicaStatus {
    /**
     * URLs without credentials; {@code healthy} null when no threshold is configured; {@code whyUnavailable} says,
     * for each unavailable URL, what this node holds instead and what would make it count.
     */
    public record Report(List<String> registered, List<String> available, List<String> unavailable,
                         Boolean healthy, InstanceInfo self, Map<String, String> whyUnavailable) {
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
        Map<String, String> why = new LinkedHashMap<>();
        Optional<Application> mine = registry.views().application(self.appName());
        for (PeerNode node : peers.nodes()) {
            String url = node.url().toString();
            registered.add(url);
            String host = node.url().base().getHost();
            boolean up = mine.map(app -> app.instances().stream()
                    .anyMatch(i -> host.equalsIgnoreCase(i.hostName()))).orElse(false);
            (up ? available : unavailable).add(url);
            if (!up) {
                why.put(url, whyUnavailable(host, mine));
            }
        }
        Boolean healthy = minAvailable > -1 ? available.size() >= minAvailable : null;
        return new Report(registered, available, unavailable, healthy, self.instance(), why);
    }

    /**
     * The usual cause on one machine or behind NAT: the peer registers under its host name while its URL here says
     * an address (or the other way round), so the hosts registered are named beside the one looked for.
     */
    private String whyUnavailable(String host, Optional<Application> mine) {
        String app = self.appName();
        Set<String> hosts = new TreeSet<>();
        mine.ifPresent(a -> a.instances().forEach(i -> hosts.add(i.hostName())));
        if (hosts.isEmpty()) {
            return "no instance of " + app + " is registered here, so no peer counts as available: the peers"
                    + " register themselves only with registerWithEureka true and the same app name"
                    + " (eureka.instance.appname or spring.application.name), and only once their replication"
                    + " reaches this node";
        }
        return "no instance of " + app + " with host name " + host + " is registered here (" + app
                + " is registered with host " + String.join(", ", hosts) + "); Eureka counts a peer only when"
                + " the host of its URL equals the host it registers with: set eureka.instance.hostname=" + host
                + " on that node, or name it in this URL by the host it registers with";
    }
}
