package io.muster.api;

import io.muster.cache.ResponseCache;
import io.muster.eviction.PreservationVerdict;
import io.muster.registry.TrafficGate;
import io.muster.replication.PeerCheck;
import io.muster.replication.PeerNode;
import io.muster.replication.PeerRefusal;
import io.muster.replication.ReplicaStatus;
import io.muster.status.LapsedLeases;
import io.muster.status.StatusSnapshot;
import io.muster.status.StatusSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The documents behind {@code /status}, the dashboard and the health checks, written from one {@link StatusSnapshot}
 * (the metrics read the same snapshot).
 */
public final class StatusReport {
    private final StatusSource source;
    private final TrafficGate gate;
    private final Clock clock;
    private final Instant startedAt;
    private final String environment;
    private final String dataCenter;
    private final String version;
    private final Supplier<Map<String, Object>> settings;
    private final Supplier<ReplicaStatus.Report> replicas;
    private final Function<Instant, List<Map<String, Object>>> remoteRegions;
    private final Probes probes;

    /**
     * @param version  this build's version
     * @param settings the effective configuration, shown on the dashboard (no credentials); asked at each call
     * @param remoteRegions each remote region as the document shows it, aged as of the given moment
     */
    public StatusReport(StatusSource source, Probes probes, TrafficGate gate, Clock clock, String environment,
                        String dataCenter, String version, Supplier<Map<String, Object>> settings,
                        Supplier<ReplicaStatus.Report> replicas,
                        Function<Instant, List<Map<String, Object>>> remoteRegions) {
        this.source = source;
        this.gate = gate;
        this.clock = clock;
        this.startedAt = clock.instant();
        this.environment = environment;
        this.dataCenter = dataCenter;
        this.version = version;
        this.settings = settings;
        this.replicas = replicas;
        this.remoteRegions = remoteRegions;
        this.probes = probes;
    }

    /** Eureka's replica view, health verdict and this server's own instance (see ReplicaStatus). */
    ReplicaStatus.Report replicas() {
        return replicas.get();
    }

    public Probes probes() {
        return probes;
    }

    /** Eureka's {@code StatusInfo} sections, with its key spellings, and this build's version. */
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
        // not Eureka's: generalStats is a map of strings to clients and Eureka's own dashboard, so they ignore it
        general.put("muster-version", version);
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
        StatusSnapshot snapshot = source.snapshot();
        Instant now = snapshot.at();
        d.put("version", version);
        d.put("currentTime", now.toString());
        d.put("startedAt", startedAt.toString());
        d.put("uptimeSeconds", Duration.between(startedAt, now).toSeconds());
        d.put("environment", environment);
        d.put("dataCenter", dataCenter);
        d.put("instances", snapshot.instances());
        d.put("applications", snapshot.applications());
        d.put("openForTraffic", gate.isOpen());
        d.put("readsAllowed", gate.allowsReads());
        d.put("readsHeldUntil", gate.readsHeldUntil() == null ? null : gate.readsHeldUntil().toString());
        d.put("selfPreservation", selfPreservationSection(snapshot.selfPreservation(),
                source.lapsedLeases(LAPSED_APPS_LISTED)));
        d.put("evictedTotal", snapshot.evictedTotal());
        // a count, not the map again: overrideDetails lists them (newest first, with app and who), bounded
        d.put("statusOverrideCount", snapshot.statusOverrides());
        d.put("overrideDetails", source.overrides(1000).stream().map(o -> Map.of("app", o.app(), "id", o.id(),
                "status", o.status().name(), "setBy", o.setBy(), "at", o.at().toString())).toList());
        ResponseCache.Stats stats = snapshot.responseCache();
        d.put("responseCache", Map.of("hits", stats.hits(), "misses", stats.misses(), "builds", stats.builds(),
                "buildMillis", stats.buildNanos() / 1_000_000, "readOnlyEntries", stats.readOnlyEntries(),
                "readWriteEntries", stats.readWriteEntries(), "stamps", stats.stamps(),
                "plainRefused", stats.plainRefused()));
        d.put("peers", snapshot.peers().stream().map(StatusReport::peer).toList());
        d.put("replicas", replicaLists(replicas.get()));
        d.put("remoteRegions", remoteRegions.apply(now));
        d.put("settings", settings.get());
        d.put("recentActivity", source.recentActivity().stream().limit(1000).map(a -> Map.of(
                "at", a.at().toString(), "kind", a.kind(), "app", a.app(), "id", a.id(), "status", a.status()))
                .toList());
        Runtime rt = Runtime.getRuntime();
        d.put("jvm", Map.of("cpus", rt.availableProcessors(), "heapUsedBytes", rt.totalMemory() - rt.freeMemory(),
                "heapMaxBytes", rt.maxMemory()));
        return d;
    }

    /** Eureka's three lists as /status has them, with why each unavailable peer does not count. */
    private static Map<String, Object> replicaLists(ReplicaStatus.Report r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("registered", r.registered());
        m.put("available", r.available());
        m.put("unavailable", r.unavailable());
        m.put("whyUnavailable", r.whyUnavailable());
        m.put("healthy", r.healthy());
        m.put("selfHostName", r.self() == null ? null : r.self().hostName());
        return m;
    }

    private static Map<String, Object> peer(PeerNode.Status p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", p.url());
        m.put("reachable", p.reachable());
        m.put("refusal", refusal(p.refusal()));
        m.put("lastSuccess", p.lastSuccess() == null ? null : p.lastSuccess().toString());
        m.put("queueDepth", p.queueDepth());
        m.put("sent", p.sent());
        m.put("batches", p.batches());
        m.put("failedBatches", p.failedBatches());
        m.put("dropped", p.dropped());
        m.put("expired", p.expired());
        m.put("superseded", p.superseded());
        m.put("wokenFromBackoff", p.woken());
        m.put("lastError", p.lastError());
        m.put("lagP50Seconds", Double.isNaN(p.lagP50Seconds()) ? null : p.lagP50Seconds());
        m.put("lagP99Seconds", Double.isNaN(p.lagP99Seconds()) ? null : p.lagP99Seconds());
        PeerCheck.Report c = p.check();
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("summary", c.summary());
        check.put("checkedAt", c.checkedAt() == null ? null : c.checkedAt().toString());
        check.put("differences", c.differences());
        check.put("longestSeconds", c.longestSeconds());
        check.put("repairs", c.repairs());
        check.put("note", c.note());
        check.put("sample", c.sample());
        m.put("sync", check);
        return m;
    }

    private static Map<String, Object> refusal(PeerRefusal r) {
        if (r == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", r.status());
        m.put("kind", r.kind().name());
        m.put("user", r.user());
        m.put("since", r.since().toString());
        m.put("problem", r.problem());
        m.put("fix", r.fix());
        return m;
    }

    /** At most this many apps are named in the lapsed-leases list (the counts cover them all). */
    static final int LAPSED_APPS_LISTED = 20;

    private static Map<String, Object> selfPreservationSection(StatusSnapshot.SelfPreservationState sp,
                                                               LapsedLeases lapsed) {
        Map<String, Object> s = new LinkedHashMap<>();
        PreservationVerdict verdict = sp.verdict();
        s.put("enabled", sp.enabled());
        s.put("mode", verdict.mode().name());
        s.put("expectedClients", sp.expectedClients());
        s.put("renewalsLastMinute", sp.renewalsLastMinute());
        s.put("renewalThreshold", sp.threshold());
        s.put("leaseExpirationEnabled", sp.allowsExpiry());
        s.put("belowThreshold", sp.belowThreshold());
        Instant measuring = sp.measuringUntil();
        s.put("measuringUntil", measuring == null ? null : measuring.toString());
        s.put("reason", verdict.text());
        s.put("neverRenewed", sp.neverRenewed());
        s.put("renewalsNotCounted", sp.renewalsNotCounted());
        s.put("counting", sp.neverRenewed() + " instance(s) registered but never renewed are not expected; "
                + sp.renewalsNotCounted() + " heartbeat(s) in the last minute above their instance's interval "
                + "were not counted as renewals");
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("instances", lapsed.instances());
        l.put("apps", lapsed.apps());
        l.put("largest", lapsed.largest().stream()
                .map(a -> Map.<String, Object>of("app", a.app(), "lapsed", a.lapsed())).toList());
        l.put("perEvictionPass", lapsed.passLimit());
        s.put("lapsed", l);
        return s;
    }

    private static String uptimeText(Duration d) {
        long days = d.toDays();
        String hm = String.format("%02d:%02d", d.toHoursPart(), d.toMinutesPart());
        return days == 0 ? hm : days + (days == 1 ? " day " : " days ") + hm;
    }
}
