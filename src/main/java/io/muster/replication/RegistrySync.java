package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;

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
                    int copied = copy(apps);
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

    /**
     * Registers what the peer sent through the same rules as any write; what they refuse is skipped (an older peer
     * may hold instances this node no longer accepts) and reported once, not once per instance.
     */
    private int copy(Applications apps) {
        int copied = 0;
        int invalid = 0;
        int full = 0;
        String example = null;
        for (Application app : apps.applications()) {
            for (InstanceInfo instance : app.instances()) {
                try {
                    registry.register(instance, Origin.PEER);
                    copied++;
                } catch (InvalidInstanceException | RegistryFullException e) {
                    if (e instanceof InvalidInstanceException) {
                        invalid++;
                    } else {
                        full++;
                    }
                    example = example != null ? example : app.name() + "/" + instance.id() + ": " + e.getMessage();
                }
            }
        }
        if (invalid + full > 0) {
            LOG.warning("Muster: start-up sync skipped " + invalid + " invalid instance(s) and " + full
                    + " beyond the registry's caps; first: " + example);
        }
        return copied;
    }
}
