package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;

/**
 * The start-up copy of the registry from a peer. Departure from Eureka: it retries only while no peer answers at
 * all; a peer that answers with an empty registry is a definite answer (the cluster is empty) and waiting longer
 * would only delay the start.
 */
final class RegistrySync {
    private static final Logger LOG = Logger.getLogger(RegistrySync.class.getName());
    private final InstanceRegistry registry;

    RegistrySync(InstanceRegistry registry) {
        this.registry = registry;
    }

    int copyFromPeers(List<PeerNode> peers, int retries, Duration wait) throws InterruptedException {
        if (peers.isEmpty()) {
            return 0;
        }
        for (int attempt = 0; attempt <= retries; attempt++) {
            for (PeerNode peer : peers) {
                try {
                    Applications apps = peer.client().fetchRegistry();
                    int copied = 0;
                    for (Application app : apps.applications()) {
                        for (InstanceInfo instance : app.instances()) {
                            registry.register(instance, Origin.PEER);
                            copied++;
                        }
                    }
                    LOG.info("Muster: synced " + copied + " instances from peer " + peer.url());
                    return copied;
                } catch (IOException | RuntimeException e) {
                    LOG.warning("Muster: cannot sync from peer " + peer.url() + ": " + e.getMessage());
                }
            }
            if (attempt < retries) {
                Thread.sleep(wait.toMillis());
            }
        }
        return 0;
    }
}
