package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The live registry of instances and their leases, with Eureka's rules for registration and cancellation; the
 * other jobs are its collaborators': admission caps and heap accounting ({@link Admission}), change recording and
 * listeners ({@link ChangeRecorder}), renewals ({@link Heartbeats}), status overrides ({@link StatusChanges}),
 * what an instance may carry ({@link InstanceRules}) and the read views ({@link RegistryViews}).
 *
 * <p>Thread safety: lookups and plain renewals never lock; they read a {@link ConcurrentHashMap} of immutable
 * {@link Lease}s, and a renewal swaps its lease with {@code computeIfPresent}. Every change that clients can see
 * (register, cancel, expire, status override set or deleted, a renewal that corrects the status) runs under
 * {@code changeLock}, which also covers the delta queue, the sequence number and the listener calls. Snapshots and
 * deltas take the same lock, so a delta and the apps hash it carries describe one state of the registry. This
 * class creates the lock and hands it to the collaborators that change or read under it; none takes another lock
 * while holding it.
 */
public final class InstanceRegistry {
    private final Clock clock;
    private final Map<String, Map<String, Lease>> apps = new ConcurrentHashMap<>();
    private final ReentrantLock changeLock = new ReentrantLock();
    private final StatusOverrides overrides;
    private final InstanceRules rules;
    private final RegistryViews views;
    private final Admission admission;
    private final ChangeRecorder recorder;
    private final Heartbeats heartbeats;
    private final StatusChanges statusChanges;
    private final Registrations registrations;
    private final Removals removals;
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
        this.rules = new InstanceRules(limits, clock);
        this.admission = new Admission(limits);
        this.overrides = new StatusOverrides(clock);
        this.recorder = new ChangeRecorder(deltaRetention, app -> views().changed(app));
        this.tombstones = new Tombstones(clock, deltaRetention);
        this.views = new RegistryViews(apps, changeLock, recorder.recentChanges(), recorder::sequence, clock);
        this.heartbeats = new Heartbeats(apps, changeLock, overrides, recorder, clock, expectedRenewalInterval);
        this.statusChanges = new StatusChanges(apps, changeLock, overrides, recorder, clock);
        this.registrations = new Registrations(apps, changeLock, rules, admission, overrides, tombstones, recorder,
                clock, heartbeats);
        this.removals = new Removals(apps, changeLock, admission, heartbeats, overrides, tombstones, recorder,
                clock);
    }

    public void addListener(RegistryListener listener) {
        recorder.addListener(listener);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Registers or re-registers an instance, whatever the route, by {@link Registrations}' rules; nothing changes
     * when it throws {@link InvalidInstanceException} (see {@link InstanceRules}) or {@link RegistryFullException}
     * (see {@link Admission}).
     */
    public void register(InstanceInfo registrant, Origin origin) {
        register(registrant, origin, origin != Origin.PEER, null);
    }

    /** A client's registration from {@code client} (its address), which may take only its share of the heap. */
    public void register(InstanceInfo registrant, String client) {
        register(registrant, Origin.CLIENT, true, client);
    }

    /**
     * A client's registration of an instance a peer holds but this node does not: not new to the cluster, so not
     * held to the instance counts (the heap share still applies); {@code refused}, the count refusal it met first,
     * is taken back.
     */
    public void registerHeldByPeer(InstanceInfo registrant, Refusal refused, String client) {
        register(registrant, Origin.CLIENT, false, client);
        admission.takeBack(refused);
    }

    /** Counts a write refused before it reached the registry (by the front door's ownership rule). */
    public void refused(Refusal reason) {
        admission.refused(reason);
    }

    /** This server's own instance (peers count it as a replica): never held to the instance counts. */
    public void registerOwnInstance(InstanceInfo registrant) {
        register(registrant, Origin.CLIENT, false, null);
    }

    private void register(InstanceInfo registrant, Origin origin, boolean counted, String client) {
        registrations.register(registrant, origin, counted, client);
    }

    /** Drops the peers' copies that handed-over cancellations cover; how many: {@link Removals#dropCancelledCopies}. */
    public int dropCancelledCopies() {
        int dropped = removals.dropCancelledCopies();
        cancelled(dropped > 0);
        return dropped;
    }

    /** A peer's replicated cancel, with the version it cancelled when it said: {@link Removals#cancelReplicated}. */
    public boolean cancelReplicated(String app, String id, Long lastDirtyTimestamp) {
        return cancelled(removals.cancelReplicated(normalize(app), id, lastDirtyTimestamp));
    }

    /** Puts back an instance saved in a snapshot, timestamps as they were: {@link Registrations#restore}. */
    public void restore(InstanceInfo instance, Instant registeredAt, Instant lastRenewedAt, Instant serviceUpAt) {
        registrations.restore(instance, registeredAt, lastRenewedAt, serviceUpAt);
    }

    /** A peer's instance copied by a sync, expected to renew: {@link Registrations#copyFromPeer}. */
    public void copyFromPeer(InstanceInfo instance) {
        registrations.copyFromPeer(instance);
    }

    /** The recent cancellations (see {@link Tombstones}). */
    public Tombstones tombstones() {
        return tombstones;
    }

    /**
     * A heartbeat ({@link Heartbeats}): {@code lastDirtyTimestamp} is the sender's version of the instance and
     * {@code overriddenStatus} the override a peer reports along, each null when not sent.
     */
    public RenewOutcome renew(String app, String id, Long lastDirtyTimestamp, InstanceStatus overriddenStatus,
                              Origin origin) {
        return heartbeats.renew(normalize(app), id, lastDirtyTimestamp, overriddenStatus, origin);
    }

    /** A client's cancel supersedes every registration made before it, on any node: see {@link Removals#cancel}. */
    public boolean cancel(String app, String id, Origin origin) {
        return cancelAt(app, id, origin, origin == Origin.CLIENT ? clock.millis() : Long.MIN_VALUE);
    }

    /** A cancel superseding at least {@code version} (the journal's replay: the version the client cancelled). */
    public boolean cancelAt(String app, String id, Origin origin, long version) {
        return cancelled(removals.cancel(normalize(app), id, origin, version));
    }

    /**
     * Removes a lapsed lease (eviction), {@code seen}, only while it is still the one held: false when it is gone,
     * or was renewed or replaced since it was read (see {@link Removals#remove}). Never replicated.
     */
    public boolean expire(Lease seen) {
        return removals.remove(normalize(seen.instance().app()), seen.instance().id(), Origin.CLIENT, true, seen);
    }

    /** Expires whatever lease {@code app}/{@code id} holds now (tests; the evictor passes the lease it saw). */
    public boolean expire(String app, String id) {
        return views.lease(app, id).map(this::expire).orElse(false);
    }

    /** Tells the listeners of a cancel once the change lock is released (the journal writes its file then). */
    private boolean cancelled(boolean removed) {
        if (removed && !changeLock.isHeldByCurrentThread()) {
            recorder.afterCancel();
        }
        return removed;
    }

    /** Sets a status override ({@code PUT .../status}). False when the instance is unknown. */
    public boolean statusUpdate(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                Origin origin) {
        return statusUpdate(app, id, newStatus, lastDirtyTimestamp, origin,
                origin == Origin.PEER ? StatusOverrides.FROM_PEER : "a client");
    }

    /** @param setBy who asks, as the dashboard and the audit log name them ({@code operator admin}) */
    public boolean statusUpdate(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                Origin origin, String setBy) {
        return statusChanges.set(normalize(app), id, newStatus, lastDirtyTimestamp, origin, setBy);
    }

    /** Removes a status override; the status becomes {@code newStatus} (UNKNOWN when the caller gave none). */
    public boolean deleteStatusOverride(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp,
                                        Origin origin) {
        return statusChanges.delete(normalize(app), id, newStatus, lastDirtyTimestamp, origin);
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

    // ---------------------------------------------------------------- reads

    /** What the registry holds, by app, VIP, id and as snapshots and deltas. */
    public RegistryViews views() {
        return views;
    }

    /** Drops delta entries older than the retention window. */
    public int purgeRecentChanges() {
        changeLock.lock();
        try {
            return recorder.recentChanges().purge(clock.instant());
        } finally {
            changeLock.unlock();
        }
    }

    /** The number of the last visible change. Anything read after this call reflects at least that change. */
    public long sequence() {
        return recorder.sequence();
    }

    public int size() {
        return apps.values().stream().mapToInt(Map::size).sum();
    }

    public int applicationCount() {
        return apps.size();
    }

    /** Renewals in the last whole minute, each instance counted at most its allowance ({@link RenewalAllowance}). */
    public long renewalsLastMinute() {
        return heartbeats.renewalsLastMinute();
    }

    /** Heartbeats in the last whole minute past their instance's allowance, left out of {@link #renewalsLastMinute}. */
    public long renewalsNotCountedLastMinute() {
        return heartbeats.renewalsNotCountedLastMinute();
    }

    /** Instances that have renewed since they registered (here, or before a restart or sync brought them). */
    public int renewingInstances() {
        return heartbeats.renewingInstances();
    }

    /** The status overrides in force (read them here; they change through the registry's writes only). */
    public StatusOverrides overrides() {
        return overrides;
    }

    public ActivityLog activity() {
        return recorder.activity();
    }

    /** Writes refused for this reason since start-up. */
    public long refusals(Refusal reason) {
        return admission.refusals(reason);
    }

    static String normalize(String app) {
        return app.toUpperCase(Locale.ROOT);
    }
}
