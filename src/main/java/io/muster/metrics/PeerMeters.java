package io.muster.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.muster.replication.LagObserver;
import io.muster.replication.PeerNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The meters of each peer, labelled {@code peer}: queue depth, reachability and cluster-check differences as
 * gauges; delivered, failed and dropped work and repairs as counters (they only grow while the peer is known); the
 * replication lag as a histogram of every acknowledged task. A peer's meters are registered when it first appears
 * in a scrape and removed when it is gone, so a peer dropped from the configuration leaves no stale series.
 *
 * <p>Thread safety: {@link #refresh} runs under the scrape's lock; {@link #delivered} runs on the batchers' threads
 * and only touches the concurrent map of timers.
 */
final class PeerMeters implements LagObserver {
    /** Delivery to the peer takes at least the batching delay (25 ms by default); retries take seconds. */
    private static final Duration[] LAG_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
            30, 60);

    private final MeterRegistry registry;
    private volatile Map<String, PeerNode.Status> latest = Map.of();
    /** Guarded by the scrape lock. */
    private final Map<String, List<Meter>> meters = new HashMap<>();
    private final Map<String, Timer> lag = new ConcurrentHashMap<>();

    PeerMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Takes the peers of this scrape: new ones get their meters, departed ones lose theirs. */
    void refresh(List<PeerNode.Status> all) {
        Map<String, PeerNode.Status> next = new LinkedHashMap<>();
        all.forEach(p -> next.put(p.url(), p));
        latest = next;
        for (String url : next.keySet()) {
            meters.computeIfAbsent(url, this::register);
            lagTimer(url);
        }
        meters.entrySet().removeIf(e -> {
            boolean gone = !next.containsKey(e.getKey());
            if (gone) {
                e.getValue().forEach(registry::remove);
            }
            return gone;
        });
        // apart from the others: a batch acknowledged after its peer left brings its timer back
        lag.entrySet().removeIf(e -> {
            boolean gone = !next.containsKey(e.getKey());
            if (gone) {
                registry.remove(e.getValue());
            }
            return gone;
        });
    }

    @Override
    public void delivered(String peer, Duration taken) {
        lagTimer(peer).record(taken);
    }

    private Timer lagTimer(String url) {
        return lag.computeIfAbsent(url, u -> Timer.builder("muster_replication_lag")
                .description("enqueue to the peer's acknowledgement, per delivered task")
                .tag("peer", u).serviceLevelObjectives(LAG_BUCKETS).register(registry));
    }

    private List<Meter> register(String url) {
        List<Meter> m = new ArrayList<>();
        m.add(gauge(url, "muster_replication_queue_depth", "tasks waiting to be sent to the peer",
                PeerNode.Status::queueDepth));
        m.add(gauge(url, "muster_replication_peer_reachable", "1 while the peer answers, 0 while it cannot be reached",
                p -> p.reachable() ? 1 : 0));
        m.add(gauge(url, "muster_replica_differences",
                "instances on which this node and the peer disagree, at the last cluster check",
                p -> p.check().differences()));
        m.add(counter(url, "muster_replication_sent", "tasks delivered to the peer", PeerNode.Status::sent));
        m.add(counter(url, "muster_replication_failed_batches",
                "batches that failed, whether retried later (network, congestion) or dropped (refused)",
                PeerNode.Status::failedBatches));
        m.add(counter(url, "muster_replication_dropped", "tasks given up for the peer", PeerNode.Status::dropped));
        m.add(counter(url, "muster_replication_superseded",
                "tasks not sent because a later write of the same instance replaced them (a cancel, a newer copy)",
                PeerNode.Status::superseded));
        m.add(counter(url, "muster_replica_repairs", "differences with the peer repaired by the cluster check",
                p -> p.check().repairs()));
        return m;
    }

    private Meter gauge(String url, String name, String help, ToDoubleFunction<PeerNode.Status> value) {
        return Gauge.builder(name, this, m -> m.value(url, value)).description(help).tag("peer", url)
                .register(registry);
    }

    private Meter counter(String url, String name, String help, ToDoubleFunction<PeerNode.Status> value) {
        return FunctionCounter.builder(name, this, m -> m.value(url, value)).description(help).tag("peer", url)
                .register(registry);
    }

    private double value(String url, ToDoubleFunction<PeerNode.Status> f) {
        PeerNode.Status p = latest.get(url);
        return p == null ? Double.NaN : f.applyAsDouble(p);
    }

    static Duration[] seconds(double... bounds) {
        Duration[] d = new Duration[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            d[i] = Duration.ofNanos(Math.round(bounds[i] * 1e9));
        }
        return d;
    }
}
