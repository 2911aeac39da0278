package io.muster.bootstrap;

import io.muster.cache.ResponseCache;
import io.muster.config.ServerConfig;
import io.muster.eviction.Evictor;
import io.muster.eviction.SelfPreservation;
import io.muster.metrics.MusterMetrics;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.replication.InboundBatch;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerCluster;
import io.muster.resources.Api;
import io.muster.resources.StatusReport;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The object graph of one server and its lifecycle: find the peers, copy the registry from one, open for traffic,
 * run the periodic tasks, and stop them all again. Built by {@link RegistryBootstrap}; holds no static state, so
 * redeploys start clean.
 */
public final class RegistryServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RegistryServer.class.getName());

    private final ServerConfig config;
    private final InstanceRegistry registry;
    private final ResponseCache cache;
    private final SelfPreservation selfPreservation;
    private final Evictor evictor;
    private final TrafficGate gate;
    private final PeerCluster peers;
    private final LocalNode self;
    private final Api api;
    private final MusterMetrics metrics;
    private Scheduler scheduler;

    public RegistryServer(ServerConfig config, Clock clock, LocalNode self) {
        this.config = config;
        this.self = self;
        this.registry = new InstanceRegistry(clock, config.delta().retention(), config.limits());
        this.cache = new ResponseCache(registry, config.responseCache(), clock);
        this.selfPreservation = new SelfPreservation(config.selfPreservation(), registry);
        this.evictor = new Evictor(config.eviction(), config.selfPreservation().renewalPercentThreshold(), registry,
                selfPreservation, clock, new SecureRandom());
        this.gate = new TrafficGate(clock);
        this.peers = new PeerCluster(config.peers(), self, registry, clock);
        registry.addListener(cache);
        registry.addListener(selfPreservation);
        registry.addListener(peers);
        StatusReport status = new StatusReport(registry, selfPreservation, evictor, cache, gate, clock,
                config.environment(), config.dataCenter(), peers::statuses, settings(config));
        this.metrics = new MusterMetrics(registry, selfPreservation, evictor, cache, peers::statuses,
                config.metrics());
        registry.addListener(metrics);
        this.api = new Api(registry, cache, gate, config.delta().disabled(), clock, status,
                new InboundBatch(registry), metrics::scrape);
    }

    /** Finds peers, copies the registry from one, opens for traffic and schedules the periodic tasks. */
    public void start() {
        peers.refresh();
        int copied = syncUp();
        boolean emptySync = peers.isConfigured() && copied == 0;
        selfPreservation.expectClients(copied);
        gate.open(emptySync, config.startup().waitWhenSyncEmpty());
        if (emptySync) {
            LOG.warning("Muster: no instances copied from peers; reads answer 403 for "
                    + config.startup().waitWhenSyncEmpty().toSeconds() + " s while clients re-register");
        }
        scheduler = new Scheduler();
        scheduler.every("eviction", config.eviction().interval(), evictor::run);
        scheduler.every("delta-retention", config.delta().purgeInterval(), registry::purgeRecentChanges);
        if (config.responseCache().useReadOnlyCache()) {
            scheduler.every("response-cache-refresh", config.responseCache().updateInterval(),
                    cache::refreshReadOnly);
        }
        scheduler.every("renewal-threshold", config.selfPreservation().thresholdUpdateInterval(),
                selfPreservation::updateThreshold);
        if (peers.isConfigured()) {
            scheduler.every("peer-refresh", config.peers().updateInterval(), peers::refresh);
        }
        LOG.info("Muster: open for traffic with " + copied + " instances copied from " + peers.nodes().size()
                + " peer(s)");
    }

    private int syncUp() {
        try {
            return peers.syncUp(config.startup().syncRetries(), config.startup().syncRetryWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** A request arrived on a port not seen before: this node may be one of the configured peer URLs. */
    void learnedPort(int port) {
        if (self.learnPort(port) && peers.isConfigured() && scheduler != null) {
            scheduler.once("peer-refresh-on-new-port", peers::refresh);
        }
    }

    private static Map<String, Object> settings(ServerConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enableSelfPreservation", c.selfPreservation().enabled());
        m.put("renewalPercentThreshold", c.selfPreservation().renewalPercentThreshold());
        m.put("expectedClientRenewalIntervalSeconds", c.selfPreservation().expectedClientRenewalInterval().toSeconds());
        m.put("renewalThresholdUpdateIntervalMs", c.selfPreservation().thresholdUpdateInterval().toMillis());
        m.put("evictionIntervalTimerInMs", c.eviction().interval().toMillis());
        m.put("useReadOnlyResponseCache", c.responseCache().useReadOnlyCache());
        m.put("responseCacheUpdateIntervalMs", c.responseCache().updateInterval().toMillis());
        m.put("responseCacheAutoExpirationInSeconds", c.responseCache().autoExpiration().toSeconds());
        m.put("retentionTimeInMSInDeltaQueue", c.delta().retention().toMillis());
        m.put("disableDelta", c.delta().disabled());
        m.put("waitTimeInMsWhenSyncEmpty", c.startup().waitWhenSyncEmpty().toMillis());
        m.put("peerReplicationBatchDelayMs", c.peers().batchDelay().toMillis());
        m.put("peerEurekaNodesUpdateIntervalMs", c.peers().updateInterval().toMillis());
        m.put("maxInstances", c.limits().maxInstances());
        m.put("maxInstancesPerApp", c.limits().maxInstancesPerApp());
        return m;
    }

    public Api api() {
        return api;
    }

    MusterMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        peers.close();
        metrics.close();
        LOG.info("Muster: stopped");
    }
}
