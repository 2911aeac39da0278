package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.CancelledHereException;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;
import io.muster.registry.TrafficGate.SyncOutcome;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One round of copying the registry from a peer: the first peer that serves its registry is copied. Departure from
 * Eureka: a peer that answers with an empty registry is a definite answer (the cluster is empty). A peer that holds
 * reads is itself waiting for its peers (the cluster is restarting together): it is not a source of truth, but what
 * it holds (its snapshot, what was registered since) is part of the newest state the cluster has, so when every peer
 * that answered is waiting, the registries of all of them are copied (and the caller adds its own snapshot): the
 * nodes open within a retry of each other, each serving the union, instead of waiting on each other for minutes.
 * Only when no peer answers at all is the round a failure; the caller retries in the background.
 *
 * <p>Cancellations are handed over too: each Muster peer's digest carries the cancellations of its window, which
 * become tombstones here before its registry is copied, so a retried registration from another peer cannot bring a
 * cancelled instance back; peers' copies that arrived before the sync and that a tombstone covers are removed after.
 */
final class RegistrySync {
    private static final Logger LOG = Logger.getLogger(RegistrySync.class.getName());
    private final InstanceRegistry registry;

    RegistrySync(InstanceRegistry registry) {
        this.registry = registry;
    }

    /**
     * Asks every peer at once and copies the first registry of a peer that is not waiting: a peer whose container
     * accepts connections before its application is up (Tomcat does) holds the request until the read timeout, and
     * asking one peer after another would add those timeouts up before this node could serve.
     *
     * @param quiet true for background retries: failures are then logged at FINE, not every 2 s as warnings
     */
    SyncResult copyFromPeers(List<PeerNode> peers, boolean quiet) {
        if (peers.isEmpty()) {
            return new SyncResult(SyncOutcome.NO_PEERS, 0, null, false);
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
            List<Answer> waiting = new ArrayList<>();
            boolean digests = false;
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
                if (answer.digest() != null) {
                    handOver(answer.digest());
                    digests = true;
                }
                if (answer.apps() != null && !answer.waiting()) {
                    int copied = copy(answer.apps());
                    dropCancelled();
                    LOG.info("Muster: synced " + copied + " instances from peer " + answer.peer().url());
                    return new SyncResult(SyncOutcome.PEER_ANSWERED, copied, answer.peer().url().toString(),
                            digests);
                }
                if (answer.waiting()) {
                    waiting.add(answer);   // keep asking the others for one that is not
                } else {
                    LOG.log(quiet ? Level.FINE : Level.WARNING, "Muster: cannot sync from peer "
                            + answer.peer().url() + ": " + answer.error());
                }
            }
            if (!waiting.isEmpty()) {
                return fromWaitingPeers(waiting, digests);
            }
            return new SyncResult(SyncOutcome.EVERY_PEER_UNREACHABLE, 0, null, false);
        } finally {
            askers.shutdownNow();   // the slower peers' answers are no longer needed
        }
    }

    /** Every peer that answered is waiting for its own peers: what each of them holds is copied. */
    private SyncResult fromWaitingPeers(List<Answer> waiting, boolean digests) {
        int copied = 0;
        List<String> names = new ArrayList<>();
        for (Answer a : waiting) {
            names.add(a.peer().url().toString());
            if (a.apps() != null) {
                copied += copy(a.apps());
            }
        }
        dropCancelled();
        LOG.info("Muster: every peer that answered (" + String.join(", ", names) + ") is waiting for its own peers,"
                + " as after a whole-cluster restart; copied the " + copied + " instance(s) they hold");
        return new SyncResult(SyncOutcome.PEERS_WAITING, copied, String.join(", ", names), digests);
    }

    /**
     * The peer's cancellations become tombstones here. One already known at that version or a newer one is left as
     * it is: handed over again (the catch-up reads the same digest every round) it would start its window anew.
     */
    private void handOver(PeerDigest digest) {
        Instant now = Instant.now();
        digest.cancelled().forEach((key, dirty) -> {
            int slash = key.indexOf('/');
            if (slash > 0) {
                String app = key.substring(0, slash);
                String id = key.substring(slash + 1);
                if (registry.tombstones().cancelledVersion(app, id) < dirty) {
                    registry.tombstones().remember(app, id, dirty, now);
                }
            }
        });
    }

    /**
     * After a sync: reads every peer's digest again and hands its cancellations over, then drops the copies they
     * cover. The copy is the peers' registry as it was when it was read; what they cancel from then on reaches this
     * node by replication only once its connector accepts (Tomcat opens it seconds after the application started)
     * and each peer's sender has worked through what it queued for this node while it was away. Until then this
     * node would serve instances cancelled elsewhere seconds before. Peers without a digest (stock Eureka servers)
     * and peers that do not answer are skipped. Returns how many copies were dropped.
     */
    int catchUp(List<PeerNode> peers) {
        for (PeerNode peer : peers) {
            try {
                PeerDigest digest = digestOf(peer.client());
                if (digest != null) {
                    handOver(digest);
                }
            } catch (IOException | RuntimeException e) {
                // the next round asks again
            }
        }
        return registry.dropCancelledCopies();
    }

    private void dropCancelled() {
        int dropped = registry.dropCancelledCopies();
        if (dropped > 0) {
            LOG.info("Muster: removed " + dropped + " instance(s) that peers replicated here before the sync and"
                    + " that were cancelled since");
        }
    }

    /**
     * One peer's answer: its registry, whether it is itself waiting for its peers (its digest says so, or, for a
     * stock Eureka server, its reads answer 403), its digest (null from a stock Eureka server), or why not.
     */
    private record Answer(PeerNode peer, Applications apps, boolean waiting, PeerDigest digest, String error) {
    }

    private static Answer ask(PeerNode peer) {
        PeerClient client = peer.client();
        try {
            PeerDigest digest = digestOf(client);
            if (digest != null) {
                Applications apps = client.fetchRegistryForSync();
                return new Answer(peer, apps, digest.readsHeld(), withLaterCancellations(digest, client), null);
            }
            return new Answer(peer, client.fetchRegistry(), false, null, null);
        } catch (PeerClient.StatusException e) {
            boolean waiting = e.status == 403;
            return new Answer(peer, null, waiting, null,
                    e.getMessage() + (waiting ? " (the peer is waiting for its own peers)" : ""));
        } catch (IOException | RuntimeException e) {
            return new Answer(peer, null, false, null, e.toString());
        }
    }

    /**
     * The digest read before the registry, with the cancellations of the digest read again right after it: an
     * instance cancelled on the peer between the two reads is neither in the copy nor among the first digest's
     * cancellations, and the node's own snapshot (restored after the sync where the peer lacks an instance) would
     * put it back. The later digest lists it; an instance cancelled after the registry was read is then refused
     * by the copy. If the second read fails, the first digest is all there is.
     */
    private static PeerDigest withLaterCancellations(PeerDigest first, PeerClient client) {
        PeerDigest later;
        try {
            later = digestOf(client);
        } catch (IOException | RuntimeException e) {
            return first;
        }
        if (later == null) {
            return first;
        }
        Map<String, Long> cancelled = new HashMap<>(first.cancelled());
        later.cancelled().forEach((key, dirty) -> cancelled.merge(key, dirty, Math::max));
        return new PeerDigest(first.apps(), cancelled, first.readsHeld());
    }

    /** The peer's digest, or null from a stock Eureka server or with credentials the digest does not take. */
    private static PeerDigest digestOf(PeerClient client) throws IOException {
        try {
            return client.fetchDigest();
        } catch (PeerClient.StatusException e) {
            return null;   // its apps/ answers for itself next
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
        int cancelled = 0;
        String example = null;
        for (Application app : apps.applications()) {
            for (InstanceInfo instance : app.instances()) {
                try {
                    registry.copyFromPeer(instance);
                    copied++;
                } catch (CancelledHereException e) {
                    cancelled++;
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
        if (cancelled > 0) {
            LOG.info("Muster: start-up sync skipped " + cancelled + " instance(s) cancelled since the version the"
                    + " peer holds");
        }
        if (invalid + full > 0) {
            LOG.warning("Muster: start-up sync skipped " + invalid + " invalid instance(s) and " + full
                    + " beyond the registry's caps; first: " + example);
        }
        return copied;
    }
}
