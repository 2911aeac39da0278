package io.muster.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.muster.config.ServerConfig.MetricsConfig;
import io.muster.eviction.PreservationVerdict;
import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Refusal;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;
import io.muster.replication.LagObserver;
import io.muster.status.StatusSnapshot;
import io.muster.status.StatusSource;
import io.prometheus.metrics.core.metrics.Info;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The server's meters, in one Prometheus registry owned by this object (never Micrometer's global one, so a
 * redeploy starts clean). Counters move on registry changes; gauges that describe the whole registry or the peers
 * are recomputed when Prometheus scrapes, from one {@link StatusSnapshot} taken per scrape (the dashboard's document
 * is written from the same kind of snapshot).
 *
 * <p>Label budget: {@code muster_instances} has its own series only for the {@code maxAppLabels} largest apps (most
 * instances, then by name); the others are summed under {@code app="_other"}, so a scrape stays small and fast
 * however many apps register (one series per app made 3,000 apps cost 173 KB and 0.47 s per scrape).
 *
 * <p>Thread safety: Micrometer meters are thread-safe; {@link #scrape()} serialises its refresh on a private lock.
 */
public final class MusterMetrics implements RegistryListener, AutoCloseable {
    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final InstanceRegistry registry;
    private final StatusSource source;
    private volatile StatusSnapshot last;
    private final Counter registrations;
    private final Counter cancellations;
    private final Counter renewals;
    private final MultiGauge instances;
    private final PeerMeters peers;
    private final JvmMeters jvm;
    private final Object scrapeLock = new Object();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final int maxAppLabels;

    /** The app label under which apps beyond the label budget are summed. */
    public static final String OTHER_APPS = "_other";

    /**
     * Request latency buckets: registry reads from the cache take well under a millisecond, writes a few, and a
     * large uncached read or a slow client up to seconds.
     */
    private static final Duration[] REQUEST_BUCKETS = PeerMeters.seconds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
            0.1, 0.25, 0.5, 1, 2.5, 5, 10);

    /** What the front door's body intake reports; set once at start-up (volatile: read by scrapes). */
    private volatile IntSupplier arrivingBodies = () -> 0;
    private volatile LongSupplier waitedBodies = () -> 0;

    /**
     * @param registry for the per-app instance counts, which are not part of the snapshot
     * @param version  this build's version, for {@code muster_build_info}
     */
    public MusterMetrics(InstanceRegistry registry, StatusSource source, MetricsConfig config, String version) {
        this.jvm = new JvmMeters(prometheus);   // first: its filters rename meters as they are registered
        this.registry = registry;
        this.source = source;
        this.last = source.snapshot();
        this.maxAppLabels = config.maxAppLabels();
        registrations = Counter.builder("muster_registrations").description("registrations, local and replicated")
                .register(prometheus);
        cancellations = Counter.builder("muster_cancellations").description("cancellations, local and replicated")
                .register(prometheus);
        renewals = Counter.builder("muster_renewals").description("successful heartbeats").register(prometheus);
        FunctionCounter.builder("muster_evictions", this, m -> m.last.evictedTotal())
                .description("leases expired by eviction").register(prometheus);
        Gauge.builder("muster_renewals_last_minute", this, m -> m.last.selfPreservation().renewalsLastMinute())
                .description("renewals counted in the last full minute").register(prometheus);
        Gauge.builder("muster_renewal_threshold", this, m -> m.last.selfPreservation().threshold())
                .description("renewals per minute at or below which leases stop expiring").register(prometheus);
        Gauge.builder("muster_expected_clients", this, m -> m.last.selfPreservation().expectedClients())
                .description("clients expected to renew, from which the renewal threshold is computed")
                .register(prometheus);
        // the emergency the log warns of and the page shows, not the first minute's measuring nor an empty registry
        Gauge.builder("muster_self_preservation_active", this, m -> m.last.selfPreservation().verdict().mode()
                        == PreservationVerdict.Mode.PRESERVING ? 1 : 0)
                .description("1 while renewals are at or below the threshold and lapsed leases are kept "
                        + "(Eureka's emergency)").register(prometheus);
        Gauge.builder("muster_lapsed_leases_kept", this, m -> m.last.selfPreservation().verdict().keepsLapsedLeases()
                        ? 1 : 0)
                .description("1 while lapsed leases are not expired, for whatever reason: self-preservation, the "
                        + "first minute of measuring renewals, no instance renewing yet").register(prometheus);
        FunctionCounter.builder("muster_response_cache_hits", this, m -> m.last.responseCache().hits())
                .description("registry reads answered from the response cache").register(prometheus);
        FunctionCounter.builder("muster_response_cache_misses", this, m -> m.last.responseCache().misses())
                .description("registry reads the response cache could not answer").register(prometheus);
        FunctionCounter.builder("muster_response_cache_builds", this, m -> m.last.responseCache().builds())
                .description("payloads built for the response cache").register(prometheus);
        FunctionCounter.builder("muster_response_cache_build_seconds", this,
                        m -> m.last.responseCache().buildNanos() / 1e9)
                .description("time spent building payloads").register(prometheus);
        instances = MultiGauge.builder("muster_instances")
                .description("registered instances by app and status; apps beyond the label budget as app=_other")
                .register(prometheus);
        for (Refusal reason : Refusal.values()) {
            FunctionCounter.builder("muster_rejected_writes", this, m -> m.last.refusals().get(reason))
                    .description("registrations and metadata updates refused, by reason")
                    .tag("reason", reason.label()).register(prometheus);
        }
        // the Prometheus client's own info metric: Micrometer would take "_info" off a gauge's name
        Info.builder().name("muster_build_info").help("this build of Muster (the value is always 1)")
                .labelNames("version").register(prometheus.getPrometheusRegistry()).addLabelValues(version);
        peers = new PeerMeters(prometheus);
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

    /**
     * Times one HTTP request under an endpoint name (a small fixed set, so the series stay few), as a histogram:
     * unlike client-side quantiles, its buckets add up across nodes and over any range.
     */
    public void recordRequest(String endpoint, String method, int status, long nanos) {
        // looked up in a map of its own: building and registering a Timer on every request is hot-path garbage
        timers.computeIfAbsent(endpoint + ' ' + method + ' ' + status, k -> Timer.builder("muster_http_requests")
                        .description("HTTP requests by endpoint, method and status, from arrival to the answer")
                        .tags("endpoint", endpoint, "method", method, "status", Integer.toString(status))
                        .serviceLevelObjectives(REQUEST_BUCKETS).register(prometheus))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The front door's request bodies that did not come with their headers and were read as they arrived: how many
     * are arriving now, and how many there have been (refused ones show as 503 and 408 in the request timings).
     */
    public void watchArrivingBodies(IntSupplier arriving, LongSupplier waited) {
        // held here: meters keep only weak references to what they read
        this.arrivingBodies = arriving;
        this.waitedBodies = waited;
        Gauge.builder("muster_request_bodies_arriving", this, m -> m.arrivingBodies.getAsInt())
                .description("request bodies being read as they arrive, without a thread waiting for them")
                .register(prometheus);
        FunctionCounter.builder("muster_request_bodies_waited", this, m -> m.waitedBodies.getAsLong())
                .description("request bodies that did not arrive with their headers and were waited for")
                .register(prometheus);
    }

    /** Where the peers report each delivered task's replication lag. */
    public LagObserver replicationLag() {
        return peers;
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        synchronized (scrapeLock) {
            last = source.snapshot();
            refreshInstances();
            peers.refresh(last.peers());
            return prometheus.scrape();
        }
    }

    private record AppRow(String app, int[] counts, int total) {
    }

    private static final Comparator<AppRow> SMALLEST_FIRST =
            Comparator.comparingInt(AppRow::total).thenComparing(AppRow::app, Comparator.reverseOrder());

    private void refreshInstances() {
        // a bounded min-heap keeps the largest apps in O(apps log budget) without sorting them all
        PriorityQueue<AppRow> largest = new PriorityQueue<>(Math.max(1, maxAppLabels + 1), SMALLEST_FIRST);
        int[] other = new int[InstanceStatus.values().length];
        boolean[] hasOther = {false};
        registry.views().countByAppAndStatus((app, counts) -> {
            int total = 0;
            for (int n : counts) {
                total += n;
            }
            if (total == 0) {
                return;
            }
            AppRow row = new AppRow(app, counts, total);
            AppRow dropped = row;
            boolean kept = maxAppLabels > 0
                    && (largest.size() < maxAppLabels || SMALLEST_FIRST.compare(row, largest.peek()) > 0);
            if (kept) {
                largest.add(row);
                dropped = largest.size() > maxAppLabels ? largest.poll() : null;
            }
            if (dropped != null) {
                for (int s = 0; s < other.length; s++) {
                    other[s] += dropped.counts()[s];
                }
                hasOther[0] = true;
            }
        });
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (AppRow row : largest) {
            addRows(rows, row.app(), row.counts());
        }
        if (hasOther[0]) {
            addRows(rows, OTHER_APPS, other);
        }
        instances.register(rows, true);
    }

    private static void addRows(List<MultiGauge.Row<?>> rows, String app, int[] counts) {
        InstanceStatus[] statuses = InstanceStatus.values();
        for (int s = 0; s < counts.length; s++) {
            if (counts[s] > 0) {
                rows.add(MultiGauge.Row.of(Tags.of("app", app, "status", statuses[s].name()), counts[s]));
            }
        }
    }

    /** The meter registry itself, for a test that watches it become unreachable after {@link #close()}. */
    PrometheusMeterRegistry prometheusRegistry() {
        return prometheus;
    }

    @Override
    public void close() {
        jvm.close();
        prometheus.clear();
        prometheus.close();
    }
}
