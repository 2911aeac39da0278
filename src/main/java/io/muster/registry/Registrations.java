package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Eureka's rule for a registration, whatever its route (client, peer batch, start-up sync, snapshot): the newer
 * version wins, a client's own registration is its latest word whatever its clock says, a peer's copy of an
 * instance cancelled here since is refused, the status comes from the override and the stored lease, and the
 * write must fit the caps and heap shares ({@link Admission}).
 *
 * <p>Thread safety: each registration runs under the registry's change lock, which {@link InstanceRegistry} owns
 * and hands over (reentrant: the registry's composite writes hold it already).
 */
final class Registrations {
    private final Map<String, Map<String, Lease>> apps;
    private final ReentrantLock changeLock;
    private final InstanceRules rules;
    private final Admission admission;
    private final StatusOverrides overrides;
    private final Tombstones tombstones;
    private final ChangeRecorder recorder;
    private final Clock clock;
    private final Heartbeats heartbeats;

    Registrations(Map<String, Map<String, Lease>> apps, ReentrantLock changeLock, InstanceRules rules,
                  Admission admission, StatusOverrides overrides, Tombstones tombstones, ChangeRecorder recorder,
                  Clock clock, Heartbeats heartbeats) {
        this.apps = apps;
        this.changeLock = changeLock;
        this.rules = rules;
        this.admission = admission;
        this.overrides = overrides;
        this.tombstones = tombstones;
        this.recorder = recorder;
        this.clock = clock;
        this.heartbeats = heartbeats;
    }

    /**
     * @param counted whether a new instance counts against the caps (a client's; not a peer's copy, this node's
     *                own instance, or one a peer holds)
     * @param client  the client address the instance counts for, or null
     */
    void register(InstanceInfo registrant, Origin origin, boolean counted, String client) {
        try {
            rules.check(registrant);
        } catch (InvalidInstanceException e) {
            throw admission.refused(e.reason(), e);
        }
        Instant now = clock.instant();
        changeLock.lock();
        try {
            String id = registrant.id();
            Map<String, Lease> leases = apps.get(registrant.app());
            Lease existing = leases == null ? null : leases.get(id);
            if (existing == null && counted) {
                admission.checkRoom(leases);
            }
            if (existing == null && origin == Origin.PEER) {
                refuseIfCancelled(registrant);
            }
            InstanceInfo incoming = registrant;
            long storedDirty = existing != null ? existing.instance().lastDirtyTimestamp()
                    : origin == Origin.PEER ? Long.MIN_VALUE : removedVersion(registrant.app(), id);
            if (storedDirty > incoming.lastDirtyTimestamp()) {
                // a stale replicated registration must not roll back a newer one; but a client's own registration
                // is its latest word whatever its clock says (a clock that ran ahead and was put right), so it is
                // stamped just past the stored version, which peers and the cluster check then take as newer
                incoming = origin == Origin.PEER ? existing.instance()
                        : incoming.toBuilder().lastDirtyTimestamp(DirtyTimestamps.after(storedDirty)).build();
            }
            long before = existing == null ? 0 : InstanceWeight.of(existing.instance());
            long growth = InstanceWeight.of(incoming) - before;
            admission.checkHeap(growth, origin);
            // the instance now counts for the client address that registered it last (a peer's copy for nobody)
            String holder = origin == Origin.PEER ? null : client;
            String previousHolder = existing == null ? null : existing.admittedBy();
            long after = before + growth;
            if (origin != Origin.PEER) {
                admission.checkShares(registrant.app(), growth, holder, previousHolder, after);
            }
            if (leases == null) {
                leases = apps.computeIfAbsent(registrant.app(), a -> new ConcurrentHashMap<>());
            }
            if (incoming.overriddenStatus() != InstanceStatus.UNKNOWN) {
                overrides.putIfAbsent(registrant.app(), id, incoming.overriddenStatus(),
                        origin == Origin.PEER ? StatusOverrides.FROM_PEER : "the registration");
            }
            Optional<InstanceStatus> override = overrides.get(registrant.app(), id);
            InstanceStatus status = StatusResolver.resolve(incoming, override, existing, origin);
            InstanceInfo stored = incoming.toBuilder()
                    .overriddenStatus(override.orElse(incoming.overriddenStatus()))
                    .status(status).actionType(ActionType.ADDED).lastUpdatedTimestamp(now.toEpochMilli())
                    .isCoordinatingDiscoveryServer(false).build();
            Lease lease = Lease.fresh(stored, now, existing == null ? null : existing.serviceUpAt(), holder);
            if (status == InstanceStatus.UP) {
                lease = lease.serviceUp(now);
            }
            if (existing == null) {
                leases.put(id, lease);
            } else {
                // a registration again does not make a renewing instance new, nor restart its heartbeat allowance
                Lease.replaceKeepingHeartbeats(leases, id, lease);
            }
            admission.stored(registrant.app(), existing == null, previousHolder, before, holder, after);
            recorder.record(now, stored, "REGISTERED");
            recorder.publish(new RegistryChange.Registered(stored, existing == null ? null : existing.instance(),
                    origin, recorder.sequence()));
        } finally {
            changeLock.unlock();
        }
    }

    /**
     * The version of an instance removed here within the delta window, or {@code Long.MIN_VALUE}: a client that
     * registers again after its cancel is stamped past it like past a stored copy (its clock may have been put back
     * meanwhile), or a peer still holding the cancelled version would take that one as newer.
     */
    private long removedVersion(String app, String id) {
        return Math.max(recorder.removedVersion(app, id), tombstones.cancelledVersion(app, id));
    }

    /** A peer's copy of an instance cancelled here since (under the change lock): see {@link Tombstones}. */
    private void refuseIfCancelled(InstanceInfo registrant) {
        long cancelled = tombstones.cancelledVersion(registrant.app(), registrant.id());
        if (cancelled != Long.MIN_VALUE && cancelled >= registrant.lastDirtyTimestamp()) {
            throw admission.refused(Refusal.CANCELLED_SINCE, new CancelledHereException(registrant.app() + "/" + registrant.id() + " was cancelled at version "
                    + cancelled + ", this copy is version " + registrant.lastDirtyTimestamp()));
        }
    }

    /**
     * Puts back an instance saved in a snapshot, with its lease's timestamps as they were. Validated and counted
     * like any registration, as a peer's write: the saved status and override are kept and nothing is replicated
     * (the peers were not the ones that lost it).
     *
     * @param serviceUpAt null to keep what the registration decided
     */
    void restore(InstanceInfo instance, Instant registeredAt, Instant lastRenewedAt, Instant serviceUpAt) {
        changeLock.lock();   // reentrant: register takes it again; the lease is adjusted before anyone reads it
        try {
            register(instance, Origin.PEER, false, null);
            Map<String, Lease> leases = apps.get(instance.app());
            leases.computeIfPresent(instance.id(), (id, l) -> {
                Lease restored = new Lease(l.instance(), registeredAt, lastRenewedAt, l.duration(),
                        serviceUpAt != null ? serviceUpAt : l.serviceUpAt(), l.heartbeatMinute(),
                        l.heartbeatsInMinute(), l.admittedBy());
                // the saved timestamps tell whether it was renewing before the restart
                return lastRenewedAt.isAfter(registeredAt) ? heartbeats.markRenewing(restored, lastRenewedAt)
                        : restored;
            });
        } finally {
            changeLock.unlock();
        }
    }

    /**
     * A peer's instance copied by a sync (start-up, or peers found later): registered as a peer's write and
     * expected to renew, as Eureka's openForTraffic(count) expects every copied instance. The peer's lease
     * timestamps cannot tell: its served registry may date from before the renewals (plain heartbeats change no
     * cached answer).
     */
    void copyFromPeer(InstanceInfo instance) {
        changeLock.lock();   // reentrant: register takes it again; the lease is marked before anyone reads it
        try {
            register(instance, Origin.PEER, false, null);
            Instant now = clock.instant();
            apps.get(instance.app()).computeIfPresent(instance.id(), (id, l) -> heartbeats.markRenewing(l, now));
        } finally {
            changeLock.unlock();
        }
    }
}
