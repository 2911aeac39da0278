package io.muster.metrics;

import io.muster.cache.ResponseCache;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.eviction.Evictor;
import io.muster.eviction.SelfPreservation;
import io.muster.model.DataCenterInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Origin;
import io.muster.replication.PeerCheck;
import io.muster.replication.PeerNode;
import io.muster.status.StatusSource;
import io.muster.testing.Instances;
import io.muster.testing.Promtool;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The label budget keeps a scrape small and fast however many apps register; refusals are counted by reason; peers'
 * meters follow the peers; the scrape passes promtool; closing lets go of everything.
 */
class MusterMetricsTest {
    private static final ServerConfig CONFIG = ConfigLoader.load(List.of(Map.of(
            "eureka.server.maxInstances", "200000", "eureka.server.metricsMaxAppLabels", "50")));

    private static MusterMetrics metrics(InstanceRegistry registry) {
        return metrics(registry, List::of);
    }

    private static MusterMetrics metrics(InstanceRegistry registry, Supplier<List<PeerNode.Status>> peers) {
        return metrics(registry, peers, new SelfPreservation(CONFIG.selfPreservation(), registry));
    }

    private static MusterMetrics metrics(InstanceRegistry registry, Supplier<List<PeerNode.Status>> peers,
                                         SelfPreservation sp) {
        Evictor evictor = new Evictor(CONFIG.eviction(), 0.85, registry, sp, Clock.systemUTC(), new Random(1));
        ResponseCache cache = new ResponseCache(registry, CONFIG.responseCache(), Clock.systemUTC());
        return new MusterMetrics(registry, new StatusSource(registry, sp, evictor, cache, peers, Clock.systemUTC()),
                CONFIG.metrics(), "9.9.9-test");
    }

    private static PeerNode.Status peer(String url, long sent, long failedBatches, long dropped, long repairs) {
        return new PeerNode.Status(url, true, null, 2, sent, sent, failedBatches, dropped, 0, 0, 0, null, 0.1, 0.2,
                new PeerCheck.Report(null, 1, 0, repairs, "1 differs", null, List.of()), null);
    }

    @Test
    void aScrapeWith100000AppsKeepsFiftyAppSeriesAndSumsTheRest() {
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        for (int i = 0; i < 100_000; i++) {
            registry.register(Instances.sample("APP-" + i, "i-" + i).metadata(Map.of()).build(), Origin.CLIENT);
        }
        for (int big = 0; big < 3; big++) {   // the largest apps keep their own series
            for (int k = 0; k < 5; k++) {
                registry.register(Instances.up("BIG-" + big, "big-" + big + "-" + k), Origin.CLIENT);
            }
        }
        try (MusterMetrics metrics = metrics(registry)) {
            // its time is a benchmark's figure (docs/benchmark.md, "Metrics scrape"), not a unit test's: a timed
            // assertion on a shared 2-core build machine measures the neighbours
            String scrape = metrics.scrape();
            assertThat(scrape.length()).as("scrape bytes").isLessThan(30_000);
            List<String> series = scrape.lines().filter(l -> l.startsWith("muster_instances{")).toList();
            assertThat(series).hasSize(51);
            assertThat(series).anySatisfy(l -> assertThat(l).contains("app=\"BIG-2\"").endsWith(" 5.0"));
            // 100,003 apps: the 50 kept hold 3 x 5 + 47 x 1 instances; the rest are summed
            assertThat(series).anySatisfy(l -> assertThat(l).contains("app=\"_other\"").endsWith(" 99953.0"));
        }
    }

    /** The metric tells the same story as the log and the page: the first minute's measuring is no emergency. */
    @Test
    void selfPreservationIsActiveOnlyInTheEmergencyNotWhileTheFirstMinuteIsMeasured() {
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        SelfPreservation sp = new SelfPreservation(CONFIG.selfPreservation(), registry);
        sp.expectClients(10);   // expected renewals, none counted
        try (MusterMetrics metrics = metrics(registry, List::of, sp)) {
            sp.measureFrom(java.time.Instant.now());
            assertThat(metrics.scrape()).contains("muster_self_preservation_active 0.0",
                    "muster_lapsed_leases_kept 1.0");
            sp.measureFrom(java.time.Instant.now().minusSeconds(180));
            assertThat(metrics.scrape()).contains("muster_self_preservation_active 1.0",
                    "muster_lapsed_leases_kept 1.0");
        }
    }

    @Test
    void refusedWritesAreCountedByReason() {
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        try (MusterMetrics metrics = metrics(registry)) {
            assertThatThrownBy(() -> registry.register(Instances.sample("A", "i")
                    .dataCenterInfo(new DataCenterInfo("Nope", Map.of())).build(), Origin.CLIENT))
                    .isInstanceOf(InvalidInstanceException.class);
            assertThatThrownBy(() -> registry.register(Instances.sample("A", "i").hostName("h".repeat(300)).build(),
                    Origin.PEER)).isInstanceOf(InvalidInstanceException.class);
            String scrape = metrics.scrape();
            assertThat(scrape).contains("muster_rejected_writes_total{reason=\"invalid_value\"} 1.0",
                    "muster_rejected_writes_total{reason=\"field_length\"} 1.0",
                    "muster_rejected_writes_total{reason=\"max_instances\"} 0.0");
        }
    }

    @Test
    void peersHaveCountersGaugesAndALagHistogramUntilTheyLeave() {
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        AtomicReference<List<PeerNode.Status>> peers = new AtomicReference<>(List.of(
                peer("http://a:8761/eureka/", 7, 1, 3, 4), peer("http://b:8761/eureka/", 0, 0, 0, 0)));
        try (MusterMetrics metrics = metrics(registry, peers::get)) {
            metrics.replicationLag().delivered("http://a:8761/eureka/", Duration.ofMillis(30));
            metrics.replicationLag().delivered("http://a:8761/eureka/", Duration.ofMillis(700));
            String scrape = metrics.scrape();
            String a = "{peer=\"http://a:8761/eureka/\"}";
            assertThat(scrape).contains("# TYPE muster_replication_sent_total counter",
                    "muster_replication_sent_total" + a + " 7.0",
                    "muster_replication_failed_batches_total" + a + " 1.0",
                    "muster_replication_dropped_total" + a + " 3.0",
                    "muster_replica_repairs_total" + a + " 4.0",
                    "muster_replication_queue_depth" + a + " 2.0",
                    "muster_replica_differences" + a + " 1.0",
                    "# TYPE muster_replication_lag_seconds histogram",
                    "muster_replication_lag_seconds_bucket{peer=\"http://a:8761/eureka/\",le=\"0.05\"} 1",
                    "muster_replication_lag_seconds_bucket{peer=\"http://a:8761/eureka/\",le=\"1.0\"} 2",
                    "muster_replication_lag_seconds_count" + a + " 2",
                    // a peer with nothing delivered yet has an empty histogram, not a missing one
                    "muster_replication_lag_seconds_count{peer=\"http://b:8761/eureka/\"} 0",
                    "muster_build_info{version=\"9.9.9-test\"} 1");
            assertThat(scrape).doesNotContain("quantile=");

            peers.set(List.of(peer("http://b:8761/eureka/", 1, 0, 0, 0)));
            metrics.replicationLag().delivered("http://a:8761/eureka/", Duration.ofMillis(5));   // acknowledged late
            assertThat(metrics.scrape()).contains("muster_replication_sent_total{peer=\"http://b:8761/eureka/\"} 1.0")
                    .doesNotContain("http://a:8761");
        }
    }

    @Test
    void aScrapeWithPeersPassesPromtool() {
        Promtool.assumeInstalled();
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
        try (MusterMetrics metrics = metrics(registry, () -> List.of(peer("http://a:8761/eureka/", 7, 1, 3, 4),
                peer("http://b:8761/eureka/", 0, 0, 0, 0)))) {
            metrics.replicationLag().delivered("http://a:8761/eureka/", Duration.ofMillis(30));
            metrics.recordRequest("register", "POST", 204, 1_500_000);
            Promtool.Result result = Promtool.checkMetrics(metrics.scrape());
            assertThat(result.output()).as("promtool check metrics findings").isEmpty();
            assertThat(result.exit()).isZero();
        }
    }

    @Test
    void closingLetsGoOfTheRegistry() throws InterruptedException {
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), CONFIG.delta().retention(),
                CONFIG.limits());
        MusterMetrics metrics = metrics(registry);
        WeakReference<Object> prometheus = new WeakReference<>(metrics.prometheusRegistry());
        metrics.close();
        metrics = null;
        // the GC binder's listeners on the platform's beans held it (and, in a container, the WAR's class loader)
        for (int i = 0; i < 50 && prometheus.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(prometheus.get()).as("the meter registry after close").isNull();
    }
}
