package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;
import io.muster.registry.Origin;
import io.muster.registry.TrafficGate.SyncOutcome;

import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One round of copying the registry from a peer: the first peer that serves its registry is copied. Departure from
 * Eureka: a peer that answers with an empty registry is a definite answer (the cluster is empty), and so is a
 * peer answering 403 (it is itself waiting for its peers: the cluster is starting together). Only when no peer
 * answers at all is the round a failure; the caller retries in the background instead of blocking the start.
 */
final class RegistrySync {
    private static final Logger LOG = Logger.getLogger(RegistrySync.class.getName());
    private final InstanceRegistry registry;

    RegistrySync(InstanceRegistry registry) {
        this.registry = registry;
    }

    /** @param quiet true for background retries: failures are then logged at FINE, not every 2 s as warnings */
    SyncResult copyFromPeers(List<PeerNode> peers, boolean quiet) {
        if (peers.isEmpty()) {
            return new SyncResult(SyncOutcome.NO_PEERS, 0, null);
        }
        PeerNode starting = null;
        for (PeerNode peer : peers) {
            try {
                Applications apps = peer.client().fetchRegistry();
                int copied = copy(apps);
                LOG.info("Muster: synced " + copied + " instances from peer " + peer.url());
                return new SyncResult(SyncOutcome.PEER_ANSWERED, copied, peer.url().toString());
            } catch (PeerClient.StatusException e) {
                if (e.status == 403) {
                    starting = starting == null ? peer : starting;   // it may be the only one: keep asking others
                }
                LOG.log(quiet ? Level.FINE : Level.WARNING, "Muster: cannot sync from peer " + peer.url() + ": "
                        + e.getMessage() + (e.status == 403 ? " (the peer is waiting for its own peers)" : ""));
            } catch (IOException | RuntimeException e) {
                LOG.log(quiet ? Level.FINE : Level.WARNING, "Muster: cannot sync from peer " + peer.url() + ": "
                        + e);
            }
        }
        if (starting != null) {
            return new SyncResult(SyncOutcome.PEER_ANSWERED, 0, starting.url().toString());
        }
        return new SyncResult(SyncOutcome.EVERY_PEER_UNREACHABLE, 0, null);
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
