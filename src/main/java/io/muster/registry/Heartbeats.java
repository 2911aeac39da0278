package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Renewals of the registry's leases, with Eureka's dirty-timestamp rules, and the figures self-preservation reads:
 * the renewal rate and how many instances renew.
 *
 * <p>Thread safety: a plain heartbeat takes no lock; it swaps its lease inside the lease map's atomic update of
 * that entry. A heartbeat that changes the status (an override resolved differently) takes the registry's change
 * lock, as every visible change does; the lock belongs to {@link InstanceRegistry}, which hands it over.
 */
final class Heartbeats {
    private final Map<String, Map<String, Lease>> apps;
    private final ReentrantLock changeLock;
    private final StatusOverrides overrides;
    private final ChangeRecorder recorder;
    private final Clock clock;
    private final RenewalRate rate;
    private final RenewalAllowance allowance;
    /**
     * Leases that have renewed ({@link Lease#hasRenewed}): moved inside the map's atomic updates, so it agrees
     * with the leases without the heartbeat taking a lock.
     */
    private final AtomicInteger renewing = new AtomicInteger();

    Heartbeats(Map<String, Map<String, Lease>> apps, ReentrantLock changeLock, StatusOverrides overrides,
               ChangeRecorder recorder, Clock clock, Duration expectedRenewalInterval) {
        this.apps = apps;
        this.changeLock = changeLock;
        this.overrides = overrides;
        this.recorder = recorder;
        this.clock = clock;
        this.rate = new RenewalRate(clock);
        this.allowance = new RenewalAllowance(expectedRenewalInterval);
    }

    /** See {@link InstanceRegistry#renew}. */
    RenewOutcome renew(String app, String id, Long lastDirtyTimestamp, InstanceStatus overriddenStatus,
                       Origin origin) {
        Map<String, Lease> leases = apps.get(app);
        Lease lease = leases == null ? null : leases.get(id);
        if (lease == null) {
            return RenewOutcome.NOT_FOUND;
        }
        InstanceStatus resolved = StatusResolver.resolve(lease.instance(), overrides.get(app, id), lease, origin);
        if (resolved == InstanceStatus.UNKNOWN) {
            return RenewOutcome.NOT_FOUND;     // e.g. after an override delete without value: re-register
        }
        Instant now = clock.instant();
        int allowed = allowance.perMinute(lease.instance());
        Lease renewed = resolved == lease.instance().status()
                ? leases.computeIfPresent(id, (k, l) -> heartbeat(l, now, allowed))
                : renewWithStatus(leases, id, resolved, now, origin, allowed);
        if (renewed == null) {
            return RenewOutcome.NOT_FOUND;     // cancelled while we looked
        }
        if (renewed.heartbeatCounted(allowed)) {
            rate.increment(now);
        } else {
            rate.notCounted(now);
        }
        if (resolved == lease.instance().status()) {
            recorder.publish(new RegistryChange.Renewed(renewed.instance(), origin, 0));
        }
        return compareDirtyTimestamps(renewed.instance(), lastDirtyTimestamp, overriddenStatus, origin);
    }

    /** Inside the map's atomic update of {@code lease}'s entry: the first heartbeat makes it an expected one. */
    private Lease heartbeat(Lease lease, Instant now, int allowed) {
        if (!lease.hasRenewed()) {
            renewing.incrementAndGet();
        }
        return lease.heartbeat(now, allowed);
    }

    /**
     * Inside the map's atomic update of {@code lease}'s entry: from now on the instance is expected to renew
     * (restored with a renewal, copied from a peer, or its first heartbeat).
     */
    Lease markRenewing(Lease lease, Instant at) {
        if (lease.hasRenewed()) {
            return lease;
        }
        renewing.incrementAndGet();
        return lease.renewingBefore(at);
    }

    /** A lease left the registry. */
    void removed(Lease lease) {
        if (lease.hasRenewed()) {
            renewing.decrementAndGet();
        }
    }

    private Lease renewWithStatus(Map<String, Lease> leases, String id, InstanceStatus status, Instant now,
                                  Origin origin, int allowed) {
        changeLock.lock();
        try {
            Lease current = leases.get(id);
            if (current == null) {
                return null;
            }
            InstanceInfo changed = current.instance().toBuilder().status(status).actionType(ActionType.MODIFIED)
                    .lastUpdatedTimestamp(now.toEpochMilli()).build();
            Lease renewed = leases.computeIfPresent(id, (k, l) -> {
                Lease r = heartbeat(l.withInstance(changed), now, allowed);
                return status == InstanceStatus.UP ? r.serviceUp(now) : r;
            });
            recorder.record(now, changed, "STATUS " + status);
            recorder.publish(new RegistryChange.Renewed(changed, origin, recorder.sequence()));
            return renewed;
        } finally {
            changeLock.unlock();
        }
    }

    /** A client whose copy is newer than ours is told to register again; a peer whose copy is older is sent ours. */
    private RenewOutcome compareDirtyTimestamps(InstanceInfo stored, Long theirs, InstanceStatus overriddenStatus,
                                                Origin origin) {
        if (theirs == null || theirs == stored.lastDirtyTimestamp()) {
            return RenewOutcome.OK;
        }
        if (theirs > stored.lastDirtyTimestamp()) {
            if (origin == Origin.PEER && overriddenStatus != null && overriddenStatus != InstanceStatus.UNKNOWN) {
                overrides.put(stored.app(), stored.id(), overriddenStatus, StatusOverrides.FROM_PEER);
            }
            return RenewOutcome.NOT_FOUND;
        }
        return origin == Origin.PEER ? RenewOutcome.conflict(stored) : RenewOutcome.OK;
    }

    long renewalsLastMinute() {
        return rate.lastMinute();
    }

    long renewalsNotCountedLastMinute() {
        return rate.notCountedLastMinute();
    }

    int renewingInstances() {
        return renewing.get();
    }
}
