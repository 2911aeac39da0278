package io.muster.replication;

import io.muster.codec.WireFormatException;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.registry.CancelledHereException;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Lease;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Compares this node's registry with each peer's (digests first, instances only for apps whose digests differ),
 * records the differences on the peer's {@link PeerCheck}, and repairs those older than the grace period (longer
 * than replication normally takes, so an in-flight batch is never "repaired") by the rule in {@link Drift}: our newer
 * copies and missed cancellations go to the peer as ordinary replication tasks; the peer's newer copies are
 * registered here as replicated writes.
 *
 * <p>The digest carries the registry's {@link io.muster.registry.Tombstones}, the cancellations of the window.
 *
 * <p>Thread safety: {@link #run} is called by one scheduler thread; {@link #digest} on request threads reads only
 * the registry's views and tombstones.
 */
public final class ClusterChecker {
    private static final Logger LOG = Logger.getLogger(ClusterChecker.class.getName());
    private final InstanceRegistry registry;
    private final PeerCluster peers;
    private final Clock clock;
    private final Duration grace;
    private final Duration window;

    /**
     * @param grace  how long a difference must last before it is repaired
     * @param window how long cancellations are remembered (the recent-changes retention)
     */
    public ClusterChecker(InstanceRegistry registry, PeerCluster peers, Clock clock, Duration grace,
                          Duration window) {
        this.registry = registry;
        this.peers = peers;
        this.clock = clock;
        this.grace = grace;
        this.window = window;
    }

    /**
     * This node's digest, as served to peers: from the instances as held, not lease-decorated copies of them (the
     * digest reads no lease), which at a million instances were 200 MB made for each peer's every check.
     */
    public PeerDigest digest() {
        return new PeerDigest(ClusterDigest.of(registry.views().groups()), cancellations());
    }

    private Map<String, Long> cancellations() {
        return registry.tombstones().recent();
    }

    /**
     * One round: every peer's digest first, then every peer compared with this node. A cancellation any peer
     * remembers counts in every comparison, not only in the one with that peer: a node that was away (restarted,
     * cut off) holds no tombstone for what was cancelled meanwhile, and a copy another node missed the
     * cancellation of must not be pushed to it while a third one knows better. A peer that fails is noted and the
     * others are still checked.
     */
    public void run() {
        Map<PeerNode, PeerDigest> digests = new LinkedHashMap<>();
        for (PeerNode node : peers.nodes()) {
            try {
                digests.put(node, node.client().fetchDigest());
            } catch (IOException | WireFormatException e) {
                failed(node, e);
            }
        }
        for (Map.Entry<PeerNode, PeerDigest> e : digests.entrySet()) {
            try {
                check(e.getKey(), e.getValue(), cancelledByOthers(digests, e.getKey()));
            } catch (IOException | WireFormatException x) {
                failed(e.getKey(), x);
            }
        }
    }

    private void failed(PeerNode node, Exception e) {
        node.check().failed(clock.instant(), e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    /** The newest cancellation of each instance in the digests of the peers other than {@code node}. */
    private static Map<String, Long> cancelledByOthers(Map<PeerNode, PeerDigest> digests, PeerNode node) {
        Map<String, Long> out = new HashMap<>();
        digests.forEach((other, digest) -> {
            if (other != node && digest != null) {
                digest.cancelled().forEach((key, dirty) -> out.merge(key, dirty, Math::max));
            }
        });
        return out;
    }

    private static Map<String, Long> newest(Map<String, Long> a, Map<String, Long> b) {
        if (b.isEmpty()) {
            return a;
        }
        Map<String, Long> out = new HashMap<>(a);
        b.forEach((key, dirty) -> out.merge(key, dirty, Math::max));
        return out;
    }

    void check(PeerNode node) throws IOException {
        check(node, node.client().fetchDigest(), Map.of());
    }

    private void check(PeerNode node, PeerDigest served, Map<String, Long> cancelledByOthers) throws IOException {
        Applications theirApps = null;
        String note = null;
        if (served == null) {
            theirApps = node.client().fetchRegistry();
            served = new PeerDigest(ClusterDigest.of(theirApps), Map.of());
            note = "peer has no digest endpoint (not Muster): compared with its full registry";
        }
        PeerDigest theirs = served;
        Applications mineApps = registry.views().snapshot().applications();
        Map<String, String> mine = ClusterDigest.of(mineApps);
        TreeSet<String> differing = new TreeSet<>();
        mine.forEach((app, hash) -> {
            if (!hash.equals(theirs.apps().get(app))) {
                differing.add(app);
            }
        });
        theirs.apps().forEach((app, hash) -> {
            if (!hash.equals(mine.get(app))) {
                differing.add(app);
            }
        });
        List<Drift> drifts = new ArrayList<>();
        if (!differing.isEmpty()) {
            if (theirApps == null) {
                theirApps = node.client().fetchRegistry();
            }
            // our copy loses to a cancellation the peer or a third node remembers; theirs to one we or a third do
            Map<String, Long> cancelledHere = newest(cancellations(), cancelledByOthers);
            Map<String, Long> cancelledThere = newest(theirs.cancelled(), cancelledByOthers);
            for (String app : differing) {
                compare(app, instances(mineApps, app), instances(theirApps, app), cancelledHere, cancelledThere,
                        drifts);
            }
        }
        Instant now = clock.instant();
        List<Instant> since = node.check().update(now, drifts, note);
        for (int i = 0; i < drifts.size(); i++) {
            if (!since.get(i).plus(grace).isAfter(now)) {
                repair(node, drifts.get(i), instances(theirApps, drifts.get(i).app()).get(drifts.get(i).id()),
                        since.get(i));
            }
        }
    }

    private static void compare(String app, Map<String, InstanceInfo> here, Map<String, InstanceInfo> there,
                                Map<String, Long> cancelledHere, Map<String, Long> cancelledThere, List<Drift> out) {
        TreeSet<String> ids = new TreeSet<>(here.keySet());
        ids.addAll(there.keySet());
        for (String id : ids) {
            String key = PeerDigest.key(app, id);
            Drift d = Drift.of(app, id, here.get(id), there.get(id), cancelledHere.get(key), cancelledThere.get(key));
            if (d != null) {
                out.add(d);
            }
        }
    }

    private static Map<String, InstanceInfo> instances(Applications apps, String name) {
        Map<String, InstanceInfo> out = new HashMap<>();
        if (apps != null) {
            for (Application app : apps.applications()) {
                if (app.name().equals(name)) {
                    app.instances().forEach(i -> out.put(i.id(), i));
                }
            }
        }
        return out;
    }

    /**
     * @param since when the difference was first seen. A copy held on one side only is copied across if its
     *              version (dirty timestamp) is younger than the tombstones (a cancellation of it would still be
     *              in the other side's digest), or if its lease was renewed since then (its client is alive). An
     *              older copy nobody renews may be one the other side cancelled longer ago than its tombstones
     *              last (kept by a node that was away); copying it would bring a cancelled instance back, so it is
     *              left to expire instead.
     */
    private boolean olderThanTombstones(InstanceInfo copy) {
        return copy.lastDirtyTimestamp() < clock.instant().minus(window).toEpochMilli();
    }

    private void repair(PeerNode node, Drift d, InstanceInfo theirCopy, Instant since) {
        String what = d.app() + "/" + d.id() + " (" + d.kind() + ") with peer " + node.url();
        switch (d.repair()) {
            case PUSH -> {
                Lease lease = registry.views().lease(d.app(), d.id()).orElse(null);
                if (lease == null) {
                    return;   // gone since the comparison; the next round sees what is left
                }
                if (d.kind() == Drift.Kind.ONLY_HERE && olderThanTombstones(lease.instance())
                        && lease.lastRenewedAt().isBefore(since)) {
                    return;
                }
                node.repairRegister(lease.instance());
            }
            case CANCEL_THERE -> node.repairCancel(d.app(), d.id());
            case CANCEL_HERE -> registry.cancel(d.app(), d.id(), Origin.PEER);
            case PULL -> {
                // the peer's renewal time as its (cached) registry reports it: never later than the truth, so a
                // live copy may wait for the peer's own push, but a stale one is never taken; 0: not reported
                long renewed = theirCopy.leaseInfo().lastRenewalTimestamp();
                if (d.kind() == Drift.Kind.ONLY_THERE && olderThanTombstones(theirCopy) && renewed > 0
                        && renewed < since.toEpochMilli()) {
                    return;
                }
                try {
                    registry.register(theirCopy, Origin.PEER);
                } catch (InvalidInstanceException | RegistryFullException | CancelledHereException e) {
                    LOG.warning("Muster: cluster check: cannot adopt the peer's copy of " + what + ": "
                            + e.getMessage());
                    return;
                }
            }
            case NONE -> {
                return;
            }
        }
        node.check().repairs.increment();
        LOG.info("Muster: cluster check: repaired " + what + " by " + d.repair());
    }
}
