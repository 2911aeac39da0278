package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;
import io.muster.registry.TrafficGate.SyncOutcome;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    /**
     * Asks every peer at once and copies the first registry that arrives: a peer whose container accepts
     * connections before its application is up (Tomcat does) holds the request until the read timeout, and asking
     * one peer after another would add those timeouts up before this node could serve.
     *
     * @param quiet true for background retries: failures are then logged at FINE, not every 2 s as warnings
     */
    SyncResult copyFromPeers(List<PeerNode> peers, boolean quiet) {
        if (peers.isEmpty()) {
            return new SyncResult(SyncOutcome.NO_PEERS, 0, null);
        }
        ExecutorService askers = Executors.newFixedThreadPool(peers.size(), r -> {
            Thread t = new Thread(r, "muster-sync");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletionService<Answer> answers = new ExecutorCompletionService<>(askers);
            for (PeerNode peer : peers) {
                answers.submit(() -> ask(peer));
            }
            PeerNode starting = null;
            for (int i = 0; i < peers.size(); i++) {
                Answer answer;
                try {
                    answer = answers.take().get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (ExecutionException e) {
                    continue;   // ask() catches what a peer can throw; nothing else is expected
                }
                if (answer.apps() != null) {
                    int copied = copy(answer.apps());
                    LOG.info("Muster: synced " + copied + " instances from peer " + answer.peer().url());
                    return new SyncResult(SyncOutcome.PEER_ANSWERED, copied, answer.peer().url().toString());
                }
                if (answer.status() == 403) {
                    starting = starting == null ? answer.peer() : starting;   // keep waiting for one with data
                }
                LOG.log(quiet ? Level.FINE : Level.WARNING, "Muster: cannot sync from peer " + answer.peer().url()
                        + ": " + answer.error() + (answer.status() == 403 ? " (the peer is waiting for its own peers)"
                        : ""));
            }
            if (starting != null) {
                return new SyncResult(SyncOutcome.PEER_ANSWERED, 0, starting.url().toString());
            }
            return new SyncResult(SyncOutcome.EVERY_PEER_UNREACHABLE, 0, null);
        } finally {
            askers.shutdownNow();   // the slower peers' answers are no longer needed
        }
    }

    /** One peer's answer: its registry, or why not (with the HTTP status when it gave one). */
    private record Answer(PeerNode peer, Applications apps, int status, String error) {
    }

    private static Answer ask(PeerNode peer) {
        try {
            return new Answer(peer, peer.client().fetchRegistry(), 200, null);
        } catch (PeerClient.StatusException e) {
            return new Answer(peer, null, e.status, e.getMessage());
        } catch (IOException | RuntimeException e) {
            return new Answer(peer, null, 0, e.toString());
        }
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
                    registry.copyFromPeer(instance);
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
