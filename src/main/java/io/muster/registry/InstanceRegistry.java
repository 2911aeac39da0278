package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The live registry of instances and their leases, with Eureka's rules for registration, renewal, cancellation,
 * status overrides and dirty timestamps.
 *
 * <p>Thread safety: lookups and plain renewals never lock; they read a {@link ConcurrentHashMap} of immutable
 * {@link Lease}s, and a renewal swaps its lease with {@code computeIfPresent}. Every change that clients can see
 * (register, cancel, expire, status override set or deleted, a renewal that corrects the status) runs under
 * {@code changeLock}, which also covers the delta queue, the sequence number and the listener calls. Snapshots and
 * deltas take the same lock, so a delta and the apps hash it carries describe one state of the registry.
 * What an instance may carry lives in {@link InstanceRules}, the read views in {@link RegistryViews}, the pieces of
 * state in their own small classes.
 *
 * <p>Over 400 lines because every write rule must run under the one change lock with the bookkeeping it triggers
 * (delta queue, sequence, listeners, caps); splitting the writes across classes would spread that lock's ownership.
 */
public final class InstanceRegistry {
    private static final Logger TRACE = Logger.getLogger(InstanceRegistry.class.getName() + ".trace");
    private final Clock clock;
    private final Map<String, Map<String, Lease>> apps = new ConcurrentHashMap<>();
    private final ReentrantLock changeLock = new ReentrantLock();
    private final StatusOverrides overrides;
    /** Who set an override that came by replication: the node that took it knows who asked. */
    private static final String OVERRIDE_FROM_PEER = "a peer (replicated)";
    private final RecentChanges recentChanges;
    private final ActivityLog activity = new ActivityLog(1000);
    private final RenewalRate renewals;
    private final RenewalAllowance allowance;
    /**
     * Leases that have renewed ({@link Lease#hasRenewed}): moved inside the map's atomic updates, so it agrees
     * with the leases without the heartbeat taking a lock.
     */
    private final AtomicInteger renewing = new AtomicInteger();
    private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();
    private final InstanceRules rules;
    private final RegistryViews views;
    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);
    private volatile long sequence; // written under changeLock; read without it by the response cache
    private int instanceCount;      // guarded by changeLock
    /** The instances' estimated heap ({@link InstanceWeight}), guarded by changeLock. */
    private long weight;
    /** Each application's and each client address's part of {@link #weight}; under changeLock. */
    private final HeapShares shares;
    private final Tombstones tombstones;

    /** A registry with the default limits. */
    public InstanceRegistry(Clock clock, Duration deltaRetention) {
        this(clock, deltaRetention, LimitsConfig.DEFAULT);
    }

    /** A registry whose clients are expected to renew every 30 s (Eureka's default). */
    public InstanceRegistry(Clock clock, Duration deltaRetention, LimitsConfig limits) {
        this(clock, deltaRetention, limits, Duration.ofSeconds(LeaseInfo.DEFAULT_RENEWAL_INTERVAL_SECS));
    }

    /**
     * @param expectedRenewalInterval the interval self-preservation expects of every client: no instance's
     *                                heartbeats count faster than that ({@link RenewalAllowance})
     */
    public InstanceRegistry(Clock clock, Duration deltaRetention, LimitsConfig limits,
                            Duration expectedRenewalInterval) {
        this.clock = clock;
        this.allowance = new RenewalAllowance(expectedRenewalInterval);
        this.rules = new InstanceRules(limits, clock);
        this.shares = new HeapShares(limits.maxAppBytes(), limits.maxClientBytes());
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new LongAdder());
        }
        this.overrides = new StatusOverrides(clock);
        this.recentChanges = new RecentChanges(deltaRetention);
        this.tombstones = new Tombstones(clock, deltaRetention);
        this.renewals = new RenewalRate(clock);
        this.views = new RegistryViews(apps, changeLock, recentChanges, () -> sequence, clock);
    }

    public void addListener(RegistryListener listener) {
        listeners.add(listener);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Registers or re-registers an instance, whatever the route (client, peer batch, start-up sync, a peer's 409).
     * The app name is the instance's own (upper case).
     *
     * @throws InvalidInstanceException when {@link InstanceRules} refuse the instance; nothing changes
     * @throws RegistryFullException    when a client's new instance would pass {@code maxInstances} or
     *                                  {@code maxInstancesPerApp}, or any write would take the instances' heap
     *                                  past its share (a peer's: by more than a tenth); nothing changes
     */
    public void register(InstanceInfo registrant, Origin origin) {
        register(registrant, origin, origin != Origin.PEER, null);
    }

    /**
     * {@link #register(InstanceInfo, Origin)} for a client's write from {@code client} (its address): the
     * instances a client address registers may take only its share of the registry's heap.
     */
    public void register(InstanceInfo registrant, String client) {
        register(registrant, Origin.CLIENT, true, client);
    }

    /**
     * A client's registration of an instance this node does not hold but a peer does (its copy missed here while
     * nodes disagree): not new to the cluster, so not refused for the instance counts; the heap share still
     * applies. Replicated like any client write.
     *
     * @param refused the count refusal this registration met first: taken back from the refusal counts once the
     *                registration went through
     */
    /** Counts a write refused before it reached the registry (by the front door's ownership rule). */
    public void refused(Refusal reason) {
        refusals.get(reason).increment();
    }

    public void registerHeldByPeer(InstanceInfo registrant, Refusal refused, String client) {
        register(registrant, Origin.CLIENT, false, client);
        refusals.get(refused).decrement();
    }

    /**
     * This server's own instance (it registers with its peers so that they count it as a replica): not a client's
     * instance, so never refused for the instance counts, which would keep a node started into a full cluster
     * from counting as a replica. Replicated like a client write.
     */
    public void registerOwnInstance(InstanceInfo registrant) {
        register(registrant, Origin.CLIENT, false, null);
    }

    private void register(InstanceInfo registrant, Origin origin, boolean counted, String client) {
        try {
            rules.check(registrant);
        } catch (InvalidInstanceException e) {
            refusals.get(e.reason()).increment();
            throw e;
        }
        Instant now = clock.instant();
        changeLock.lock();
        try {
            String id = registrant.id();
            Map<String, Lease> leases = apps.get(registrant.app());
            Lease existing = leases == null ? null : leases.get(id);
            if (existing == null && counted) {
                checkRoom(leases);
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
            checkHeap(growth, origin);
            // the instance now counts for the client address that registered it last (a peer's copy for nobody)
            String holder = origin == Origin.PEER ? null : client;
            String previousHolder = existing == null ? null : existing.admittedBy();
            long after = before + growth;
            if (origin != Origin.PEER) {
                RegistryFullException refused = shares.refusal(registrant.app(), growth, holder,
                        Objects.equals(holder, previousHolder) ? growth : after);
                if (refused != null) {
                    refusals.get(refused.reason()).increment();
                    throw refused;
                }
            }
            if (leases == null) {
                leases = apps.computeIfAbsent(registrant.app(), a -> new ConcurrentHashMap<>());
            }
            if (incoming.overriddenStatus() != InstanceStatus.UNKNOWN) {
                overrides.putIfAbsent(registrant.app(), id, incoming.overriddenStatus(),
                        origin == Origin.PEER ? OVERRIDE_FROM_PEER : "the registration");
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
                instanceCount++;
            } else {
                // a registration again does not make a renewing instance new, nor restart its heartbeat allowance
                replace(leases, id, lease);
            }
            weight += growth;
            shares.moved(registrant.app(), previousHolder, before, holder, after);
            record(now, stored, "REGISTERED");
            publish(new RegistryChange.Registered(stored, existing == null ? null : existing.instance(), origin,
                    sequence));
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
        InstanceInfo last = recentChanges.latestOf(app, id);
        long removed = last != null && last.actionType() == ActionType.DELETED ? last.lastDirtyTimestamp()
                : Long.MIN_VALUE;
        return Math.max(removed, tombstones.cancelledVersion(app, id));
    }

    /** A peer's copy of an instance cancelled here since (under the change lock): see {@link Tombstones}. */
    private void refuseIfCancelled(InstanceInfo registrant) {
        long cancelled = tombstones.cancelledVersion(registrant.app(), registrant.id());
        if (cancelled != Long.MIN_VALUE && cancelled >= registrant.lastDirtyTimestamp()) {
            refusals.get(Refusal.CANCELLED_SINCE).increment();
            throw new CancelledHereException(registrant.app() + "/" + registrant.id() + " was cancelled at version "
                    + cancelled + ", this copy is version " + registrant.lastDirtyTimestamp());
        }
    }

    /**
     * After cancellations were handed over (a start-up sync, the journal): the peers' copies held here that one of
     * them covers are removed as the peer's write (not replicated: the peers cancelled them already). A copy a
     * client registered here is left to the journal's replay, which replicates its cancel. Returns how many.
     */
    public int dropCancelledCopies() {
        int dropped = 0;
        for (Map.Entry<String, Map<String, Lease>> app : apps.entrySet()) {
            for (Lease lease : app.getValue().values()) {
                InstanceInfo i = lease.instance();
                if (lease.admittedBy() == null
                        && tombstones.cancelledVersion(i.app(), i.id()) >= i.lastDirtyTimestamp()
                        && cancel(i.app(), i.id(), Origin.PEER)) {
                    dropped++;
                }
            }
        }
        return dropped;
    }

    /** The recent cancellations (see {@link Tombstones}). */
    public Tombstones tombstones() {
        return tombstones;
    }


    /**
     * Puts back an instance saved in a snapshot, with its lease's timestamps as they were. Validated and counted
     * like any registration, as a peer's write: the saved status and override are kept and nothing is replicated
     * (the peers were not the ones that lost it).
     *
     * @param serviceUpAt null to keep what the registration decided
     */
    public void restore(InstanceInfo instance, Instant registeredAt, Instant lastRenewedAt, Instant serviceUpAt) {
        changeLock.lock();   // reentrant: register takes it again; the lease is adjusted before anyone reads it
        try {
            register(instance, Origin.PEER);
            Map<String, Lease> leases = apps.get(instance.app());
            leases.computeIfPresent(instance.id(), (id, l) -> {
                Lease restored = new Lease(l.instance(), registeredAt, lastRenewedAt, l.duration(),
                        serviceUpAt != null ? serviceUpAt : l.serviceUpAt(), l.heartbeatMinute(),
                        l.heartbeatsInMinute(), l.admittedBy());
                // the saved timestamps tell whether it was renewing before the restart
                return lastRenewedAt.isAfter(registeredAt) ? markRenewing(restored, lastRenewedAt) : restored;
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
    public void copyFromPeer(InstanceInfo instance) {
        changeLock.lock();   // reentrant: register takes it again; the lease is marked before anyone reads it
        try {
            register(instance, Origin.PEER);
            Instant now = clock.instant();
            apps.get(instance.app()).computeIfPresent(instance.id(), (id, l) -> markRenewing(l, now));
        } finally {
            changeLock.unlock();
        }
    }

    /** Inside the map's atomic update of {@code lease}'s entry. */
    private Lease markRenewing(Lease lease, Instant at) {
        if (lease.hasRenewed()) {
            return lease;
        }
        renewing.incrementAndGet();
        return lease.renewingBefore(at);
    }

    /**
     * Stores {@code edited} (made under the change lock) in place of the current lease, keeping the current
     * heartbeat count: heartbeats change it without the lock, and a plain put could drop one or count one twice.
     */
    private Lease replace(Map<String, Lease> leases, String id, Lease edited) {
        return leases.computeIfPresent(id, (k, current) -> edited.withHeartbeatsOf(current));
    }

    /**
     * Refuses a registration that would take the instances' estimated heap past its share (under the change lock).
     * A re-registration that does not grow its instance always passes; one that grows it counts like a new one. A
     * peer's write may pass the share by a tenth (nodes near the limit differ by the writes in flight); past that
     * it is refused even though the peer acknowledged it: this is what keeps the heap from running out.
     */
    private void checkHeap(long growth, Origin origin) {
        long max = rules.limits().maxRegistryBytes();
        boolean peer = origin == Origin.PEER;
        long allowed = peer && max < Long.MAX_VALUE / 2 ? max + max / 10 : max;
        if (growth > 0 && weight + growth > allowed) {
            refusals.get(Refusal.MAX_REGISTRY_BYTES).increment();
            throw new RegistryFullException(Refusal.MAX_REGISTRY_BYTES, "registry instances take an estimated "
                    + weight / (1024 * 1024) + " MB of heap, the most allowed is " + max / (1024 * 1024)
                    + " MB (eureka.server.maxRegistryHeapPercent" + (peer ? " plus a tenth for peers' writes)" : ")"));
        }
    }

    /**
     * Refuses a client's new instance when the registry or its app is at its cap (under the change lock). A peer's
     * write is never counted against the caps: the peer admitted it under its own cap, and nodes admit clients
     * independently (writes in flight, a partition), so the cluster may hold more than one node's cap; refusing it
     * here would leave an acknowledged registration on some nodes only. Memory stays bounded by {@link #checkHeap}.
     */
    private void checkRoom(Map<String, Lease> leases) {
        LimitsConfig limits = rules.limits();
        RegistryFullException full = null;
        if (instanceCount >= limits.maxInstances()) {
            full = new RegistryFullException(Refusal.MAX_INSTANCES, "registry holds " + instanceCount
                    + " instances, the most allowed (eureka.server.maxInstances)");
        } else if (leases != null && leases.size() >= limits.maxInstancesPerApp()) {
            full = new RegistryFullException(Refusal.MAX_INSTANCES_PER_APP, "application holds " + leases.size()
                    + " instances, the most allowed (eureka.server.maxInstancesPerApp)");
        }
        if (full != null) {
            refusals.get(full.reason()).increment();
            throw full;
        }
    }

    /**
     * A heartbeat, with Eureka's dirty-timestamp rules: a client whose copy is newer than ours is told to register
     * again; a peer whose copy is older is sent ours.
     *
     * @param lastDirtyTimestamp the sender's version of the instance, or null when not sent
     * @param overriddenStatus   the override a peer reports along with the heartbeat, or null
     */
    public RenewOutcome renew(String app, String id, Long lastDirtyTimestamp, InstanceStatus overriddenStatus,
                              Origin origin) {
        Map<String, Lease> leases = apps.get(normalize(app));
        Lease lease = leases == null ? null : leases.get(id);
        if (lease == null) {
            return RenewOutcome.NOT_FOUND;
        }
        InstanceStatus resolved = StatusResolver.resolve(lease.instance(), overrides.get(normalize(app), id), lease,
                origin);
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
            renewals.increment(now);
        } else {
            renewals.notCounted(now);
        }
        if (resolved == lease.instance().status()) {
            publish(new RegistryChange.Renewed(renewed.instance(), origin, 0));
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
            record(now, changed, "STATUS " + status);
            publish(new RegistryChange.Renewed(changed, origin, sequence));
            return renewed;
        } finally {
            changeLock.unlock();
        }
    }

    private RenewOutcome compareDirtyTimestamps(InstanceInfo stored, Long theirs, InstanceStatus overriddenStatus,
                                                Origin origin) {
        if (theirs == null || theirs == stored.lastDirtyTimestamp()) {
            return RenewOutcome.OK;
        }
        if (theirs > stored.lastDirtyTimestamp()) {
            if (origin == Origin.PEER && overriddenStatus != null && overriddenStatus != InstanceStatus.UNKNOWN) {
                overrides.put(stored.app(), stored.id(), overriddenStatus, OVERRIDE_FROM_PEER);
            }
            return RenewOutcome.NOT_FOUND;
        }
        return origin == Origin.PEER ? RenewOutcome.conflict(stored) : RenewOutcome.OK;
    }

    public boolean cancel(String app, String id, Origin origin) {
        boolean removed = remove(app, id, origin, false);
        if (removed) {
            afterCancel();
        }
        return removed;
    }

    /**
     * A peer's replicated cancel. When the peer said which version it cancelled (a Muster peer does), a copy here
     * that is newer (its client registered again since, and that reached this node first) stays; and when this
     * node does not hold the instance (yet: its start-up sync may be copying it from another peer right now), the
     * cancel is remembered as a tombstone, so that copy, arriving after it, is refused instead of staying as a
     * cancelled instance. Without a version (a stock Eureka peer) the cancel applies as in Eureka.
     */
    public boolean cancelReplicated(String app, String id, Long lastDirtyTimestamp) {
        String appName = normalize(app);
        if (lastDirtyTimestamp != null) {
            Lease held = views.lease(appName, id).orElse(null);
            if (held != null && held.instance().lastDirtyTimestamp() > lastDirtyTimestamp) {
                return true;   // acknowledged: the peer's cancel is done, by a newer registration
            }
        }
        boolean removed = cancel(appName, id, Origin.PEER);
        if (!removed && lastDirtyTimestamp != null) {
            tombstones.cancelled(appName, id, lastDirtyTimestamp);
        }
        return removed;
    }

    /**
     * Removes a lapsed lease (eviction): {@code seen}, the lease the evictor found expired, and only while it is
     * still the one held. A heartbeat that lands between the evictor's scan and this call, or a registration
     * again, stores a lease with a later renewal (or registration) stamp, and that instance stays. The check and
     * the removal are one atomic update of the lease's map entry, so a heartbeat (which takes no lock, only that
     * entry's update) cannot slip between them. Not a client action, so never replicated.
     *
     * @return false when the lease is gone, or was renewed or replaced since {@code seen} was read
     */
    public boolean expire(Lease seen) {
        return remove(seen.instance().app(), seen.instance().id(), Origin.CLIENT, true, seen);
    }

    /**
     * Expires whatever lease {@code app}/{@code id} holds at the time of the call, for a caller that did not
     * look at it first (tests). The evictor passes the lease it saw: {@link #expire(Lease)}.
     */
    public boolean expire(String app, String id) {
        return views.lease(app, id).map(this::expire).orElse(false);
    }

    private boolean remove(String app, String id, Origin origin, boolean expired) {
        return remove(app, id, origin, expired, null);
    }

    /** @param seen when not null, only that lease is removed (same registration and renewal stamps) */
    private boolean remove(String app, String id, Origin origin, boolean expired, Lease seen) {
        Instant now = clock.instant();
        changeLock.lock();
        try {
            String appName = normalize(app);
            Map<String, Lease> leases = apps.get(appName);
            Lease removed = leases == null ? null : seen == null ? leases.remove(id) : removeIfSame(leases, id, seen);
            if (removed == null) {
                return false;
            }
            instanceCount--;
            if (removed.hasRenewed()) {
                renewing.decrementAndGet();
            }
            long removedWeight = InstanceWeight.of(removed.instance());
            weight -= removedWeight;
            shares.moved(appName, removed.admittedBy(), removedWeight, null, 0);
            if (leases.isEmpty()) {
                apps.remove(appName, leases);
            }
            overrides.remove(appName, id);
            if (!expired) {
                tombstones.cancelled(appName, id, removed.instance().lastDirtyTimestamp());
            }
            InstanceInfo gone = removed.instance().toBuilder().actionType(ActionType.DELETED)
                    .lastUpdatedTimestamp(now.toEpochMilli()).build();
            record(now, gone, expired ? "EVICTED" : "CANCELLED");
            publish(expired ? new RegistryChange.Expired(gone, sequence)
                    : new RegistryChange.Cancelled(gone, origin, sequence));
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

    private void afterCancel() {
        if (!changeLock.isHeldByCurrentThread()) {
            listeners.forEach(RegistryListener::afterCancel);
        }
    }

    /** Sets a status override ({@code PUT .../status}). False when the instance is unknown. */
    public boolean statusUpdate(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                Origin origin) {
        return statusUpdate(app, id, newStatus, lastDirtyTimestamp, origin,
                origin == Origin.PEER ? OVERRIDE_FROM_PEER : "a client");
    }

    /** @param setBy who asks, as the dashboard and the audit log name them ({@code operator admin}) */
    public boolean statusUpdate(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                Origin origin, String setBy) {
        return changeStatus(app, id, lastDirtyTimestamp, origin, lease -> {
            if (lease.instance().status() == newStatus) {
                return null;   // Eureka records nothing (and creates no override) when the status is unchanged
            }
            overrides.put(lease.instance().app(), id, newStatus, setBy);
            return lease.instance().toBuilder().overriddenStatus(newStatus).status(newStatus);
        });
    }

    /** Removes a status override; the status becomes {@code newStatus} (UNKNOWN when the caller gave none). */
    public boolean deleteStatusOverride(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                        Origin origin) {
        return changeStatus(app, id, lastDirtyTimestamp, origin, lease -> overrides.remove(lease.instance().app(), id).isEmpty() ? null
                : lease.instance().toBuilder().overriddenStatus(InstanceStatus.UNKNOWN).status(newStatus));
    }

    private interface StatusEdit {
        /** The edited instance, or null when nothing changes. */
        InstanceInfo.Builder apply(Lease lease);
    }

    private boolean changeStatus(String app, String id, Long lastDirtyTimestamp, Origin origin, StatusEdit edit) {
        Instant now = clock.instant();
        changeLock.lock();
        try {
            Map<String, Lease> leases = apps.get(normalize(app));
            Lease lease = leases == null ? null : leases.get(id);
            if (lease == null) {
                return false;
            }
            lease = lease.renewed(now);    // counts for expiry, not for the renewal rate (as in Eureka)
            InstanceInfo.Builder edited = edit.apply(lease);
            if (edited != null) {
                long dirty = lastDirtyTimestamp != null
                        ? Math.max(lastDirtyTimestamp, lease.instance().lastDirtyTimestamp())
                        : lease.instance().lastDirtyTimestamp();
                InstanceInfo changed = edited.lastDirtyTimestamp(dirty).actionType(ActionType.MODIFIED)
                        .lastUpdatedTimestamp(now.toEpochMilli()).build();
                lease = lease.withInstance(changed);
                if (changed.status() == InstanceStatus.UP) {
                    lease = lease.serviceUp(now);
                }
                replace(leases, id, lease);
                record(now, changed, "STATUS " + changed.status());
                boolean overrideSet = changed.overriddenStatus() != InstanceStatus.UNKNOWN;
                publish(overrideSet ? new RegistryChange.StatusChanged(changed, origin, sequence)
                        : new RegistryChange.OverrideDeleted(changed, origin, sequence));
            } else {
                replace(leases, id, lease);
            }
            return true;
        } finally {
            changeLock.unlock();
        }
    }

    /**
     * Merges metadata into an instance and registers it again, as Eureka does (a full re-registration, replicated
     * as a register). Empty when the instance is unknown.
     *
     * @throws InvalidInstanceException when the merged instance breaks a rule (a bad key, too many entries or
     *                                  bytes); nothing changes
     */
    public Optional<InstanceInfo> updateMetadata(String app, String id, Map<String, String> metadata) {
        changeLock.lock();   // reentrant: register takes it again; holding it makes read-merge-write atomic
        try {
            Optional<Lease> lease = views.lease(app, id);
            if (lease.isEmpty()) {
                return Optional.empty();
            }
            Map<String, String> merged = new LinkedHashMap<>(lease.get().instance().metadata());
            merged.putAll(metadata);
            register(lease.get().instance().toBuilder().metadata(merged).build(), Origin.CLIENT);
            return views.lease(app, id).map(Lease::instance);
        } finally {
            changeLock.unlock();
        }
    }

    private void record(Instant now, InstanceInfo instance, String what) {
        sequence++;
        recentChanges.add(now, instance);
        views.changed(instance.app());
        activity.add(new ActivityLog.Activity(now, what, instance.app(), instance.id(), instance.status().name()));
    }

    private void publish(RegistryChange change) {
        if (change.isVisible() && TRACE.isLoggable(Level.FINE)) {
            // every visible write, for tracing one instance across nodes (off unless an operator turns it on)
            InstanceInfo i = change.instance();
            TRACE.fine(change.getClass().getSimpleName() + " " + i.app() + "/" + i.id() + " " + i.status()
                    + " dirty " + i.lastDirtyTimestamp() + " from " + origin(change) + " seq " + change.sequence());
        }
        for (RegistryListener l : listeners) {
            l.onChange(change);
        }
    }

    private static Object origin(RegistryChange change) {
        if (change instanceof RegistryChange.Registered r) {
            return r.origin();
        } else if (change instanceof RegistryChange.Cancelled c) {
            return c.origin();
        } else if (change instanceof RegistryChange.Renewed r) {
            return r.origin();
        } else if (change instanceof RegistryChange.StatusChanged c) {
            return c.origin();
        } else if (change instanceof RegistryChange.OverrideDeleted d) {
            return d.origin();
        }
        return "EVICTION";
    }

    // ---------------------------------------------------------------- reads

    /** What the registry holds, by app, VIP, id and as snapshots and deltas. */
    public RegistryViews views() {
        return views;
    }

    /** Drops delta entries older than the retention window. */
    public int purgeRecentChanges() {
        changeLock.lock();
        try {
            return recentChanges.purge(clock.instant());
        } finally {
            changeLock.unlock();
        }
    }

    /** The number of the last visible change. Anything read after this call reflects at least that change. */
    public long sequence() {
        return sequence;
    }

    public int size() {
        int n = 0;
        for (Map<String, Lease> leases : apps.values()) {
            n += leases.size();
        }
        return n;
    }

    public int applicationCount() {
        return apps.size();
    }

    /** Renewals in the last whole minute, each instance counted at most its allowance ({@link RenewalAllowance}). */
    public long renewalsLastMinute() {
        return renewals.lastMinute();
    }

    /** Heartbeats in the last whole minute past their instance's allowance, left out of {@link #renewalsLastMinute}. */
    public long renewalsNotCountedLastMinute() {
        return renewals.notCountedLastMinute();
    }

    /**
     * Instances that have renewed since they registered (here, or before a restart or sync brought them): the
     * ones self-preservation expects to keep renewing. A registration that never renews is not among them.
     */
    public int renewingInstances() {
        return renewing.get();
    }

    /** Eureka's view: by instance id. */
    public Map<String, InstanceStatus> statusOverrides() {
        return overrides.byId();
    }

    /** The overrides with who set them and when, newest first (the dashboard's list). */
    public List<OverrideRecord> overrideRecords(int limit) {
        return overrides.details(limit).stream()
                .map(o -> new OverrideRecord(o.app(), o.id(), o.status(), o.setBy(), o.at())).toList();
    }

    /** One status override as the dashboard shows it. */
    public record OverrideRecord(String app, String id, InstanceStatus status, String setBy, Instant at) {
    }

    public ActivityLog activity() {
        return activity;
    }

    /** Writes refused for this reason since start-up. */
    public long refusals(Refusal reason) {
        return refusals.get(reason).sum();
    }

    static String normalize(String app) {
        return app.toUpperCase(Locale.ROOT);
    }
}
