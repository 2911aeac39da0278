package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Removal of a lease, by a cancel or by eviction, with its bookkeeping: the admission's counts, the renewing
 * count, the override, and for a cancel the tombstone that keeps a peer's older copy out.
 *
 * <p>Thread safety: each removal runs under the registry's change lock, which {@link InstanceRegistry} owns and
 * hands over; the removal itself is one atomic update of the lease's map entry.
 */
final class Removals {
    private final Map<String, Map<String, Lease>> apps;
    private final ReentrantLock changeLock;
    private final Admission admission;
    private final Heartbeats heartbeats;
    private final StatusOverrides overrides;
    private final Tombstones tombstones;
    private final ChangeRecorder recorder;
    private final Clock clock;

    Removals(Map<String, Map<String, Lease>> apps, ReentrantLock changeLock, Admission admission,
             Heartbeats heartbeats, StatusOverrides overrides, Tombstones tombstones, ChangeRecorder recorder,
             Clock clock) {
        this.apps = apps;
        this.changeLock = changeLock;
        this.admission = admission;
        this.heartbeats = heartbeats;
        this.overrides = overrides;
        this.tombstones = tombstones;
        this.recorder = recorder;
        this.clock = clock;
    }

    /**
     * Removes {@code appName}/{@code id}'s lease; with {@code seen} (eviction), only while it is still that lease.
     * A heartbeat that lands between the evictor's scan and this call, or a registration again, stores a lease
     * with a later renewal (or registration) stamp, and that instance stays. The check and the removal are one
     * atomic update of the lease's map entry, so a heartbeat (which takes no lock, only that entry's update)
     * cannot slip between them.
     *
     * @return false when there was no such lease (or, with {@code seen}, it was renewed or replaced since)
     */
    boolean remove(String appName, String id, Origin origin, boolean expired, Lease seen) {
        return remove(appName, id, origin, expired, seen, Long.MIN_VALUE);
    }

    /**
     * A cancel that supersedes at least {@code version} (the removed copy's own is the floor). A client's cancel is
     * versioned no older than the time it was made, so it supersedes every registration made before it on any node:
     * one acknowledged by another node just before, whose replication had not arrived here yet (that node stopped,
     * the client failed over and cancelled here), carries an older dirty timestamp. Its late replication is then
     * refused, a peer holding it removes it on the cancel's replication, and the cluster check and the journal's
     * replay take the cancel as the newer word. Versioned by the copy held here alone, that registration would be
     * newer than the cancel and come back for good. A client whose clock runs ahead keeps its copy's version.
     */
    boolean cancel(String appName, String id, Origin origin, long version) {
        return remove(appName, id, origin, false, null, version);
    }

    private boolean remove(String appName, String id, Origin origin, boolean expired, Lease seen, long atLeast) {
        Instant now = clock.instant();
        changeLock.lock();
        try {
            Map<String, Lease> leases = apps.get(appName);
            Lease removed = leases == null ? null : seen == null ? leases.remove(id) : removeIfSame(leases, id, seen);
            if (removed == null) {
                return false;
            }
            admission.removed(appName, removed);
            heartbeats.removed(removed);
            if (leases.isEmpty()) {
                apps.remove(appName, leases);
            }
            overrides.remove(appName, id);
            long version = Math.max(removed.instance().lastDirtyTimestamp(), atLeast);
            if (!expired) {
                tombstones.cancelled(appName, id, version);
            }
            InstanceInfo gone = removed.instance().toBuilder().actionType(ActionType.DELETED)
                    .lastUpdatedTimestamp(now.toEpochMilli()).build();
            recorder.record(now, gone, expired ? "EVICTED" : "CANCELLED");
            recorder.publish(expired ? new RegistryChange.Expired(gone, recorder.sequence())
                    : new RegistryChange.Cancelled(gone, origin, recorder.sequence(), version));
            return true;
        } finally {
            changeLock.unlock();
        }
    }

    /** Removes {@code id}'s lease when it is still {@code seen} (not renewed, not registered again); null if not. */
    private static Lease removeIfSame(Map<String, Lease> leases, String id, Lease seen) {
        Lease[] removed = new Lease[1];
        leases.computeIfPresent(id, (k, current) -> {
            if (current.lastRenewedAt().equals(seen.lastRenewedAt())
                    && current.registeredAt().equals(seen.registeredAt())) {
                removed[0] = current;
                return null;
            }
            return current;
        });
        return removed[0];
    }

    /**
     * After cancellations were handed over (a start-up sync, the journal): the peers' copies held here that one of
     * them covers are removed as the peer's write (not replicated: the peers cancelled them already). A copy a
     * client registered here is left to the journal's replay, which replicates its cancel. Returns how many.
     */
    int dropCancelledCopies() {
        int dropped = 0;
        for (Map.Entry<String, Map<String, Lease>> app : apps.entrySet()) {
            for (Lease lease : app.getValue().values()) {
                InstanceInfo i = lease.instance();
                if (lease.admittedBy() == null
                        && tombstones.cancelledVersion(i.app(), i.id()) >= i.lastDirtyTimestamp()
                        && remove(i.app(), i.id(), Origin.PEER, false, null)) {
                    dropped++;
                }
            }
        }
        return dropped;
    }

    /**
     * A peer's replicated cancel. When the peer said which version it cancelled (a Muster peer does), a copy here
     * that is newer (its client registered again since, and that reached this node first) stays; and when this
     * node does not hold the instance (yet: its start-up sync may be copying it from another peer right now), the
     * cancel is remembered as a tombstone, so that copy, arriving after it, is refused instead of staying as a
     * cancelled instance. Without a version (a stock Eureka peer) the cancel applies as in Eureka.
     */
    boolean cancelReplicated(String appName, String id, Long lastDirtyTimestamp) {
        if (lastDirtyTimestamp != null) {
            Map<String, Lease> leases = apps.get(appName);
            Lease held = leases == null ? null : leases.get(id);
            if (held != null && held.instance().lastDirtyTimestamp() > lastDirtyTimestamp) {
                return true;   // acknowledged: the peer's cancel is done, by a newer registration
            }
        }
        boolean removed = cancel(appName, id, Origin.PEER,
                lastDirtyTimestamp == null ? Long.MIN_VALUE : lastDirtyTimestamp);
        if (!removed && lastDirtyTimestamp != null) {
            tombstones.cancelled(appName, id, lastDirtyTimestamp);
        }
        return removed;
    }
}
