package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.VipKind;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * What the registry holds, read: one instance (by app or id), one app, the full registry, a VIP, the delta, and the
 * counts that eviction and metrics need. Built by {@link InstanceRegistry} over its own state, so that class keeps
 * only the write rules.
 *
 * <p>Thread safety: single lookups read the concurrent maps without locking; snapshots and deltas take the
 * registry's change lock, so the content and the hash they carry describe one state.
 */
public final class RegistryViews {
    private static final int STATUSES = InstanceStatus.values().length;
    private static final Comparator<AppGroups.Group> BY_APP = Comparator.comparing(AppGroups.Group::app);
    private final Map<String, Map<String, Lease>> apps;
    private final ReentrantLock changeLock;
    private final RecentChanges recentChanges;
    private final LongSupplier sequence;
    private final Clock clock;
    // guarded by changeLock:
    /** Each app's group of the full registry, with its instance counts by status, in app order. */
    private final TreeMap<String, FullGroup> fullByApp = new TreeMap<>();
    /** Each app's group of the delta, in app order. */
    private final TreeMap<String, AppGroups.Group> delta = new TreeMap<>();
    /** Apps changed since {@link #fullByApp} was last brought up to date. */
    private final Set<String> changedApps = new HashSet<>();
    /** Instances by {@link InstanceStatus#ordinal()}, over {@link #fullByApp}. */
    private final int[] statusCounts = new int[STATUSES];

    RegistryViews(Map<String, Map<String, Lease>> apps, ReentrantLock changeLock, RecentChanges recentChanges,
                  LongSupplier sequence, Clock clock) {
        this.apps = apps;
        this.changeLock = changeLock;
        this.recentChanges = recentChanges;
        this.sequence = sequence;
        this.clock = clock;
    }

    public Optional<Lease> lease(String app, String id) {
        Map<String, Lease> leases = apps.get(InstanceRegistry.normalize(app));
        return Optional.ofNullable(leases == null ? null : leases.get(id));
    }

    /** The lease of a stored instance, whose app name is already normalized. */
    private Lease liveLease(InstanceInfo stored) {
        Map<String, Lease> leases = apps.get(stored.app());
        return leases == null ? null : leases.get(stored.id());
    }

    public Optional<InstanceInfo> instance(String app, String id) {
        return lease(app, id).map(Lease::decorated);
    }

    /** The first instance with this id in any app (ids are meant to be unique). */
    public Optional<InstanceInfo> instanceById(String id) {
        for (Map<String, Lease> leases : apps.values()) {
            Lease lease = leases.get(id);
            if (lease != null) {
                return Optional.of(lease.decorated());
            }
        }
        return Optional.empty();
    }

    /** One app with its instances; empty when unknown or without instances (a 404 for clients). */
    public Optional<Application> application(String app) {
        String name = InstanceRegistry.normalize(app);
        Map<String, Lease> leases = apps.get(name);
        if (leases == null || leases.isEmpty()) {
            return Optional.empty();
        }
        List<InstanceInfo> instances = leases.values().stream().map(Lease::decorated).toList();
        return instances.isEmpty() ? Optional.empty() : Optional.of(new Application(name, instances));
    }

    /** The full registry, version 1, with its hash; taken under the change lock so hash and content agree. */
    public RegistrySnapshot snapshot() {
        AppGroups all = groups();
        return new RegistrySnapshot(all.decorated(), all.sequence());
    }

    /**
     * The full registry as {@link #snapshot()}, its instances not yet decorated (for incremental payloads). Costs
     * in proportion to the apps plus the instances of apps changed since the last call: each app's group is kept
     * and rebuilt only after a change to it.
     */
    public AppGroups groups() {
        changeLock.lock();
        try {
            refreshFullGroups();
            return new AppGroups(1, appsHashCode(), fullGroupsInOrder(), sequence.getAsLong());
        } finally {
            changeLock.unlock();
        }
    }

    /** Called by the registry, under the change lock, for every change that clients can see. */
    void changed(String app) {
        changedApps.add(app);
    }

    /** Brings {@link #fullByApp} and {@link #statusCounts} up to date with the changed apps. Under the change lock. */
    private void refreshFullGroups() {
        for (String app : changedApps) {
            Map<String, Lease> leases = apps.get(app);
            FullGroup old = fullByApp.remove(app);
            if (old != null) {
                add(statusCounts, old.counts, -1);
            }
            if (leases != null && !leases.isEmpty()) {
                InstanceInfo[] sources = new InstanceInfo[leases.size()];
                int[] counts = new int[STATUSES];
                int i = 0;
                for (Lease lease : leases.values()) {
                    if (i == sources.length) {
                        break;   // cannot happen under the lock; guards against an unexpected concurrent put
                    }
                    sources[i++] = lease.instance();
                    counts[lease.instance().status().ordinal()]++;
                }
                FullGroup group = new FullGroup(new AppGroups.Group(app, sources, leases), counts);
                fullByApp.put(app, group);
                add(statusCounts, counts, 1);
            }
        }
        changedApps.clear();
    }

    private List<AppGroups.Group> fullGroupsInOrder() {
        List<AppGroups.Group> groups = new ArrayList<>(fullByApp.size());
        for (FullGroup g : fullByApp.values()) {
            groups.add(g.group);
        }
        return groups;
    }

    private record FullGroup(AppGroups.Group group, int[] counts) {
    }

    private static void add(int[] to, int[] counts, int sign) {
        for (int i = 0; i < to.length; i++) {
            to[i] += sign * counts[i];
        }
    }

    /** The hash of the whole registry, from the maintained counts. Under the change lock. */
    private String appsHashCode() {
        Map<InstanceStatus, Integer> counts = new EnumMap<>(InstanceStatus.class);
        for (InstanceStatus status : InstanceStatus.values()) {
            if (statusCounts[status.ordinal()] > 0) {
                counts.put(status, statusCounts[status.ordinal()]);
            }
        }
        return AppsHashCode.of(counts);
    }

    /** Instances whose VIP address list of that kind contains {@code vip} exactly; version -1 as in Eureka. */
    public RegistrySnapshot vip(VipKind kind, String vip) {
        AppGroups matching = filtered(-1, i -> i.vips(kind).contains(vip));
        return new RegistrySnapshot(matching.decorated(), matching.sequence());
    }

    private AppGroups filtered(long version, Predicate<InstanceInfo> filter) {
        List<AppGroups.Group> groups = new ArrayList<>();
        Map<InstanceStatus, Integer> counts = new EnumMap<>(InstanceStatus.class);
        long seq;
        changeLock.lock();
        try {
            seq = sequence.getAsLong();
            for (Map<String, Lease> leases : apps.values()) {
                List<Lease> kept = new ArrayList<>(leases.size());
                for (Lease lease : leases.values()) {
                    if (filter.test(lease.instance())) {
                        kept.add(lease);
                        counts.merge(lease.instance().status(), 1, Integer::sum);
                    }
                }
                if (!kept.isEmpty()) {
                    InstanceInfo[] sources = new InstanceInfo[kept.size()];
                    for (int i = 0; i < sources.length; i++) {
                        sources[i] = kept.get(i).instance();
                    }
                    groups.add(new AppGroups.Group(sources[0].app(), sources, leases));
                }
            }
        } finally {
            changeLock.unlock();
        }
        groups.sort(BY_APP);
        return new AppGroups(version, AppsHashCode.of(counts), groups, seq);
    }

    /**
     * The delta: the latest state of every instance changed within the retention window, with the hash of the
     * whole registry at that same moment, so a client that merges it computes the same hash.
     */
    public RegistrySnapshot delta() {
        AppGroups changed = deltaGroups();
        return new RegistrySnapshot(changed.decorated(), changed.sequence());
    }

    /**
     * The delta as {@link #delta()}, its instances not yet decorated; apps sorted by name. Like {@link #groups()},
     * each app's group is kept and rebuilt only when its entries changed.
     */
    public AppGroups deltaGroups() {
        changeLock.lock();
        try {
            refreshFullGroups();   // for the hash
            recentChanges.drainChangedApps(app -> {
                List<InstanceInfo> sources = new ArrayList<>();
                for (RecentChanges.Entry e : recentChanges.latest(app)) {
                    sources.add(e.state());
                }
                if (sources.isEmpty()) {
                    delta.remove(app);
                } else {
                    Map<String, Lease> live = apps.get(app);
                    delta.put(app, new AppGroups.Group(app, sources.toArray(new InstanceInfo[0]),
                            live != null ? live : Map.of()));
                }
            });
            // versions__delta: the registry change this delta reflects (Eureka counts its delta builds, which no
            // client reads; a build counter would differ between nodes and between builds that race a refresh)
            long seq = sequence.getAsLong();
            return new AppGroups(seq, appsHashCode(), new ArrayList<>(delta.values()), seq);
        } finally {
            changeLock.unlock();
        }
    }

    /** Leases whose expiry (plus {@code grace}) has passed, at this moment. */
    public List<Lease> expiredLeases(Duration grace) {
        Instant now = clock.instant();
        List<Lease> expired = new ArrayList<>();
        for (Map<String, Lease> leases : apps.values()) {
            for (Lease lease : leases.values()) {
                if (lease.isExpired(now, grace)) {
                    expired.add(lease);
                }
            }
        }
        return expired;
    }

    /** Receives one app's instance counts, indexed by {@link InstanceStatus#ordinal()}. */
    public interface AppCounts {
        void accept(String app, int[] countsByStatus);
    }

    /**
     * Instance counts per app and status, without building a snapshot or taking the change lock (for metrics:
     * cheap with 100,000 apps; a change in flight may or may not be counted).
     */
    public void countByAppAndStatus(AppCounts visitor) {
        for (Map.Entry<String, Map<String, Lease>> app : apps.entrySet()) {
            int[] counts = new int[STATUSES];
            for (Lease lease : app.getValue().values()) {
                counts[lease.instance().status().ordinal()]++;
            }
            visitor.accept(app.getKey(), counts);
        }
    }
}
