package io.muster.api;

import io.muster.cache.ResponseCache;
import io.muster.eviction.Evictor;
import io.muster.eviction.SelfPreservation;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.replication.PeerNode;
import io.muster.replication.ReplicaStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Gathers the numbers behind {@code /status}, the dashboard document and the health checks. */
public final class StatusReport {
    private final InstanceRegistry registry;
    private final SelfPreservation selfPreservation;
    private final Evictor evictor;
    private final ResponseCache cache;
    private final TrafficGate gate;
    private final Clock clock;
    private final Instant startedAt;
    private final String environment;
    private final String dataCenter;
    private final Supplier<List<PeerNode.Status>> peers;
    private final Map<String, Object> settings;
    private final Supplier<ReplicaStatus.Report> replicas;

    /** @param settings the effective configuration, shown on the dashboard (no credentials) */
    public StatusReport(InstanceRegistry registry, SelfPreservation selfPreservation, Evictor evictor,
                        ResponseCache cache, TrafficGate gate, Clock clock, String environment, String dataCenter,
                        Supplier<List<PeerNode.Status>> peers, Map<String, Object> settings,
                        Supplier<ReplicaStatus.Report> replicas) {
        this.registry = registry;
        this.selfPreservation = selfPreservation;
        this.evictor = evictor;
        this.cache = cache;
        this.gate = gate;
        this.clock = clock;
        this.startedAt = clock.instant();
        this.environment = environment;
        this.dataCenter = dataCenter;
        this.peers = peers;
        this.settings = Map.copyOf(settings);
        this.replicas = replicas;
    }

    /** Eureka's replica view, health verdict and this server's own instance (see ReplicaStatus). */
    ReplicaStatus.Report replicas() {
        return replicas.get();
    }

    public boolean isReady() {
        return gate.isOpen();
    }

    /** Eureka's {@code StatusInfo} sections, with its key spellings. */
    public Map<String, Map<String, String>> eurekaStatus() {
        Runtime rt = Runtime.getRuntime();
        long totalMb = rt.maxMemory() / (1024 * 1024);
        long usedMb = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
        Map<String, String> general = new LinkedHashMap<>();
        general.put("environment", environment);
        general.put("num-of-cpus", Integer.toString(rt.availableProcessors()));
        general.put("total-avail-memory", totalMb + "mb");
        general.put("current-memory-usage", usedMb + "mb (" + (totalMb == 0 ? 0 : usedMb * 100 / totalMb) + "%)");
        general.put("server-uptime", uptimeText(Duration.between(startedAt, clock.instant())));
        Map<String, String> apps = new LinkedHashMap<>();
        ReplicaStatus.Report r = replicas.get();
        apps.put("registered-replicas", String.join(", ", r.registered()));
        apps.put("available-replicas", r.available().stream().map(u -> u + ",").reduce("", String::concat));
        apps.put("unavailable-replicas", r.unavailable().stream().map(u -> u + ",").reduce("", String::concat));
        Map<String, Map<String, String>> status = new LinkedHashMap<>();
        status.put("generalStats", general);
        status.put("applicationStats", apps);
        return status;
    }

    /** The dashboard's document: everything needed to explain what the server is doing. */
    public Map<String, Object> dashboard() {
        Map<String, Object> d = new LinkedHashMap<>();
        Instant now = clock.instant();
        d.put("currentTime", now.toString());
        d.put("startedAt", startedAt.toString());
        d.put("uptimeSeconds", Duration.between(startedAt, now).toSeconds());
        d.put("environment", environment);
        d.put("dataCenter", dataCenter);
        d.put("instances", registry.size());
        d.put("applications", registry.applicationCount());
        d.put("openForTraffic", gate.isOpen());
        d.put("readsAllowed", gate.allowsReads());
        d.put("readsHeldUntil", gate.readsHeldUntil() == null ? null : gate.readsHeldUntil().toString());
        d.put("selfPreservation", selfPreservationSection());
        d.put("evictedTotal", evictor.evictedTotal());
        d.put("statusOverrides", registry.statusOverrides());
        ResponseCache.Stats stats = cache.stats();
        d.put("responseCache", Map.of("hits", stats.hits(), "misses", stats.misses(), "builds", stats.builds(),
                "buildMillis", stats.buildNanos() / 1_000_000, "readOnlyEntries", stats.readOnlyEntries()));
        d.put("peers", peers.get().stream().map(StatusReport::peer).toList());
        d.put("settings", settings);
        d.put("recentActivity", registry.activity().recent().stream().limit(1000).map(a -> Map.of(
                "at", a.at().toString(), "kind", a.kind(), "app", a.app(), "id", a.id(), "status", a.status()))
                .toList());
        Runtime rt = Runtime.getRuntime();
        d.put("jvm", Map.of("cpus", rt.availableProcessors(), "heapUsedBytes", rt.totalMemory() - rt.freeMemory(),
                "heapMaxBytes", rt.maxMemory()));
        return d;
    }

    private static Map<String, Object> peer(PeerNode.Status p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", p.url());
        m.put("reachable", p.reachable());
        m.put("lastSuccess", p.lastSuccess() == null ? null : p.lastSuccess().toString());
        m.put("queueDepth", p.queueDepth());
        m.put("sent", p.sent());
        m.put("batches", p.batches());
        m.put("failedBatches", p.failedBatches());
        m.put("dropped", p.dropped());
        m.put("expired", p.expired());
        m.put("lastError", p.lastError());
        return m;
    }

    private Map<String, Object> selfPreservationSection() {
        Map<String, Object> s = new LinkedHashMap<>();
        long renewals = registry.renewalsLastMinute();
        boolean expiryAllowed = selfPreservation.allowsExpiry();
        s.put("enabled", selfPreservation.isEnabled());
        s.put("expectedClients", selfPreservation.expectedClients());
        s.put("renewalsLastMinute", renewals);
        s.put("renewalThreshold", selfPreservation.threshold());
        s.put("leaseExpirationEnabled", expiryAllowed);
        s.put("belowThreshold", selfPreservation.isBelowRenewalThreshold());
        Instant measuring = selfPreservation.measuringUntil(clock.instant());
        s.put("measuringUntil", measuring == null ? null : measuring.toString());
        String reason;
        if (!selfPreservation.isEnabled()) {
            reason = "self-preservation is off: lapsed leases always expire";
        } else if (expiryAllowed) {
            reason = renewals + " renewals in the last minute exceed the threshold of "
                    + selfPreservation.threshold() + ": lapsed leases expire";
        } else {
            reason = renewals + " renewals in the last minute are at or below the threshold of "
                    + selfPreservation.threshold() + " (" + selfPreservation.expectedClients()
                    + " expected clients): leases are kept in case this is a network problem";
        }
        s.put("reason", reason);
        return s;
    }

    private static String uptimeText(Duration d) {
        long days = d.toDays();
        String hm = String.format("%02d:%02d", d.toHoursPart(), d.toMinutesPart());
        return days == 0 ? hm : days + (days == 1 ? " day " : " days ") + hm;
    }
}
