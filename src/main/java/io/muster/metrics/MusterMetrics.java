package io.muster.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.muster.cache.ResponseCache;
import io.muster.eviction.Evictor;
import io.muster.eviction.SelfPreservation;
import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;
import io.muster.replication.PeerNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's meters, in one Prometheus registry owned by this object (never Micrometer's global one, so a
 * redeploy starts clean). Counters move on registry changes; gauges that describe the whole registry or the peers
 * are recomputed when Prometheus scrapes.
 *
 * <p>Thread safety: Micrometer meters are thread-safe; {@link #scrape()} serialises its refresh on a private lock.
 */
public final class MusterMetrics implements RegistryListener, AutoCloseable {
    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final InstanceRegistry registry;
    private final Supplier<List<PeerNode.Status>> peers;
    private final Counter registrations;
    private final Counter cancellations;
    private final Counter renewals;
    private final MultiGauge instances;
    private final MultiGauge peerQueue;
    private final MultiGauge peerSent;
    private final MultiGauge peerFailed;
    private final MultiGauge peerDropped;
    private final MultiGauge peerReachable;
    private final Object scrapeLock = new Object();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public MusterMetrics(InstanceRegistry registry, SelfPreservation selfPreservation, Evictor evictor,
                         ResponseCache cache, Supplier<List<PeerNode.Status>> peers) {
        this.registry = registry;
        this.peers = peers;
        registrations = Counter.builder("muster_registrations").description("registrations, local and replicated")
                .register(prometheus);
        cancellations = Counter.builder("muster_cancellations").description("cancellations, local and replicated")
                .register(prometheus);
        renewals = Counter.builder("muster_renewals").description("successful heartbeats").register(prometheus);
        FunctionCounter.builder("muster_evictions", evictor, Evictor::evictedTotal)
                .description("leases expired by eviction").register(prometheus);
        Gauge.builder("muster_renewals_last_minute", registry, InstanceRegistry::renewalsLastMinute)
                .description("renewals counted in the last full minute").register(prometheus);
        Gauge.builder("muster_renewal_threshold", selfPreservation, SelfPreservation::threshold)
                .description("renewals per minute at or below which leases stop expiring").register(prometheus);
        Gauge.builder("muster_expected_clients", selfPreservation, SelfPreservation::expectedClients)
                .register(prometheus);
        Gauge.builder("muster_self_preservation_active", selfPreservation, s -> s.allowsExpiry() ? 0 : 1)
                .description("1 while self-preservation keeps lapsed leases").register(prometheus);
        FunctionCounter.builder("muster_response_cache_hits", cache, c -> c.stats().hits()).register(prometheus);
        FunctionCounter.builder("muster_response_cache_misses", cache, c -> c.stats().misses()).register(prometheus);
        FunctionCounter.builder("muster_response_cache_builds", cache, c -> c.stats().builds()).register(prometheus);
        FunctionCounter.builder("muster_response_cache_build_seconds", cache, c -> c.stats().buildNanos() / 1e9)
                .description("time spent building payloads").register(prometheus);
        instances = MultiGauge.builder("muster_instances").description("registered instances by app and status")
                .register(prometheus);
        peerQueue = MultiGauge.builder("muster_replication_queue_depth").register(prometheus);
        peerSent = MultiGauge.builder("muster_replication_sent").description("tasks delivered, per peer")
                .register(prometheus);
        peerFailed = MultiGauge.builder("muster_replication_failed_batches").register(prometheus);
        peerDropped = MultiGauge.builder("muster_replication_dropped").description("tasks given up, per peer")
                .register(prometheus);
        peerReachable = MultiGauge.builder("muster_replication_peer_reachable").register(prometheus);
    }

    @Override
    public void onChange(RegistryChange change) {
        if (change instanceof RegistryChange.Registered) {
            registrations.increment();
        } else if (change instanceof RegistryChange.Cancelled) {
            cancellations.increment();
        } else if (change instanceof RegistryChange.Renewed) {
            renewals.increment();
        }
    }

    /** Times one HTTP request under an endpoint name (a small fixed set, so the series stay few). */
    public void recordRequest(String endpoint, String method, int status, long nanos) {
        // looked up in a map of its own: building and registering a Timer on every request is hot-path garbage
        timers.computeIfAbsent(endpoint + ' ' + method + ' ' + status, k -> Timer.builder("muster_http_requests")
                        .tags("endpoint", endpoint, "method", method, "status", Integer.toString(status))
                        .publishPercentiles(0.5, 0.99).register(prometheus))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        synchronized (scrapeLock) {
            refreshInstances();
            refreshPeers();
            return prometheus.scrape();
        }
    }

    private void refreshInstances() {
        Map<List<String>, Integer> counts = new HashMap<>();
        for (Application app : registry.snapshot().applications().applications()) {
            for (InstanceInfo i : app.instances()) {
                counts.merge(List.of(app.name(), i.status().name()), 1, Integer::sum);
            }
        }
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        counts.forEach((k, n) -> rows.add(MultiGauge.Row.of(Tags.of("app", k.get(0), "status", k.get(1)), n)));
        instances.register(rows, true);
    }

    private void refreshPeers() {
        List<PeerNode.Status> all = peers.get();
        peerQueue.register(rows(all, PeerNode.Status::queueDepth), true);
        peerSent.register(rows(all, PeerNode.Status::sent), true);
        peerFailed.register(rows(all, PeerNode.Status::failedBatches), true);
        peerDropped.register(rows(all, PeerNode.Status::dropped), true);
        peerReachable.register(rows(all, p -> p.reachable() ? 1 : 0), true);
    }

    private static List<MultiGauge.Row<?>> rows(List<PeerNode.Status> all,
                                               java.util.function.ToDoubleFunction<PeerNode.Status> value) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (PeerNode.Status p : all) {
            rows.add(MultiGauge.Row.of(Tags.of("peer", p.url()), value.applyAsDouble(p)));
        }
        return rows;
    }

    @Override
    public void close() {
        prometheus.close();
    }
}
