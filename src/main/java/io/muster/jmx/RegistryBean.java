package io.muster.jmx;

import io.muster.eviction.PreservationVerdict;
import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.status.StatusSnapshot;
import io.muster.status.StatusSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Thread safety: every figure is read from its thread-safe source at each call; nothing is held here. */
final class RegistryBean implements RegistryMXBean {
    private static final Duration SNAPSHOT_WAIT = Duration.ofMinutes(1);
    private final StatusSource status;
    private final TrafficGate gate;
    private final InstanceRegistry registry;
    private final InstanceActions actions;
    private final Parts.Snapshot snapshot;

    RegistryBean(Parts parts) {
        this.status = parts.status();
        this.gate = parts.gate();
        this.registry = parts.registry();
        this.actions = new InstanceActions(parts.writes());
        this.snapshot = parts.snapshot();
    }

    private StatusSnapshot.SelfPreservationState preservation() {
        return status.snapshot().selfPreservation();
    }

    @Override
    public int getInstances() {
        return registry.size();
    }

    @Override
    public int getApplications() {
        return registry.applicationCount();
    }

    @Override
    public StatusCounts getInstancesByStatus() {
        int[] all = new int[InstanceStatus.values().length];
        registry.views().countByAppAndStatus((app, counts) -> {
            for (int i = 0; i < all.length; i++) {
                all[i] += counts[i];
            }
        });
        return StatusCounts.of(all);
    }

    @Override
    public long getRenewalsLastMinute() {
        return preservation().renewalsLastMinute();
    }

    @Override
    public int getRenewalThreshold() {
        return preservation().threshold();
    }

    @Override
    public int getExpectedClients() {
        return preservation().expectedClients();
    }

    @Override
    public boolean isSelfPreservationEnabled() {
        return preservation().enabled();
    }

    @Override
    public String getSelfPreservationMode() {
        return preservation().verdict().mode().name();
    }

    @Override
    public String getSelfPreservationReason() {
        return preservation().verdict().text();
    }

    @Override
    public boolean isSelfPreservationActive() {
        return preservation().verdict().mode() == PreservationVerdict.Mode.PRESERVING;
    }

    @Override
    public boolean isLapsedLeasesKept() {
        return preservation().verdict().keepsLapsedLeases();
    }

    @Override
    public boolean isOpenForTraffic() {
        return gate.isOpen();
    }

    @Override
    public boolean isReadsAllowed() {
        return gate.allowsReads();
    }

    @Override
    public String getReadsHeldUntil() {
        Instant until = gate.readsHeldUntil();
        return until == null ? null : until.toString();
    }

    @Override
    public long getEvictedTotal() {
        return status.snapshot().evictedTotal();
    }

    @Override
    public int getStatusOverrides() {
        return status.snapshot().statusOverrides();
    }

    @Override
    public Map<String, Long> getRejectedWrites() {
        Map<String, Long> m = new TreeMap<>();
        status.snapshot().refusals().forEach((reason, n) -> m.put(reason.name().toLowerCase(Locale.ROOT), n));
        return m;
    }

    @Override
    public long getRejectedWritesTotal() {
        return status.snapshot().refusals().values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String takeOutOfService(String app, String id) {
        return actions.takeOutOfService(app, id, JmxCaller.operator());
    }

    @Override
    public String removeOverride(String app, String id) {
        return actions.removeOverride(app, id, JmxCaller.operator());
    }

    @Override
    public String deregister(String app, String id) {
        return actions.deregister(app, id, JmxCaller.operator());
    }

    /** save() logs its own failure and returns: a file replaced (or first written) is how success shows. */
    @Override
    public String writeSnapshotNow() {
        if (snapshot.path() == null) {
            return "snapshots are off on this node (eureka.server.snapshot.enabled, or the start-up log says why)";
        }
        String by = JmxCaller.operator();   // the caller's subject is on this thread, not on the lane's
        return snapshot.lane().call("registry-snapshot-now", () -> {
            List<Object> before = fileVersion();
            snapshot.write().run();
            List<Object> after = fileVersion();
            if (after == null || after.equals(before)) {
                throw new IllegalStateException("could not write the registry snapshot to " + snapshot.path()
                        + ": the server log says why");
            }
            io.muster.api.AuditLog.operation(by, "wrote the registry snapshot now");
            return "registry snapshot written to " + snapshot.path() + " (" + after.get(2) + " bytes)";
        }, SNAPSHOT_WAIT);
    }

    /** The file's identity, time and size (the save replaces the file), or null when there is none. */
    private List<Object> fileVersion() {
        try {
            BasicFileAttributes a = Files.readAttributes(snapshot.path(), BasicFileAttributes.class);
            return java.util.Arrays.asList(a.fileKey(), a.lastModifiedTime(), a.size());
        } catch (IOException none) {
            return null;
        }
    }
}
