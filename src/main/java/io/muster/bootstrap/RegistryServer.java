package io.muster.bootstrap;

import io.muster.api.Api;
import io.muster.api.AuditLog;
import io.muster.api.Probes;
import io.muster.api.StatusReport;
import io.muster.audit.AuditTrail;
import io.muster.cache.ResponseCache;
import io.muster.config.PendingSettings;
import io.muster.health.ContainerHealth;
import io.muster.config.ServerConfig;
import io.muster.eviction.Evictor;
import io.muster.eviction.SelfPreservation;
import io.muster.jmx.MusterMBeans;
import io.muster.jmx.Parts;
import io.muster.metrics.MusterMetrics;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.regions.RemoteRegion;
import io.muster.regions.RemoteRegions;
import io.muster.replication.ClusterChecker;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerCluster;
import io.muster.replication.ReplicaStatus;
import io.muster.replication.SelfRegistration;
import io.muster.status.StatusSource;
import io.muster.snapshot.CancelJournal;
import io.muster.snapshot.RegistryFile;
import io.muster.web.ChangeStreams;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The object graph of one server and its lifecycle: find the peers, copy the registry from one, open for traffic,
 * run the periodic tasks, and stop them all again. Built by {@link RegistryBootstrap}; holds no static state, so
 * redeploys start clean.
 *
 * <p>The periodic tasks run on lanes, one thread each, split by what a task may wait for, so that nothing waits
 * behind work of another kind: a peer that answers slowly must not delay the cache refresh (freshness) or the
 * eviction, and neither may a 100 MB snapshot write. Each lane's thread carries the lane's name:
 * <ul>
 *   <li>{@value #FRESH}: the response-cache refresh, eviction, the delta-retention purge and the renewal
 *       threshold; memory only, never peer HTTP or a file;</li>
 *   <li>{@value #PEERS}: peer refresh, the cluster check, the start-up sync's retries (and the journal replay
 *       after them) and this node's self-registration; peer HTTP;</li>
 *   <li>{@value #FILES}: the registry snapshot and the journal's compaction; big writes;</li>
 *   <li>{@value #JOURNAL}: the cancellation journal's appends, apart from the snapshot so that a cancel reaches the
 *       file within a moment, not after a snapshot of the whole registry;</li>
 *   <li>{@value #AUDIT}: the audit trail's appends and log lines, off the request threads;</li>
 *   <li>{@value #REGIONS}: the remote-region fetches, when there are remote regions.</li>
 * </ul>
 *
 * <p>One class, although long: it is the wiring, read top to bottom. Every part is built, started and closed here,
 * in the one order that is safe (the close order is commented line by line); the parts' own rules live in their
 * classes ({@link NodeFiles}, {@link SettingsView}, {@link StartupSync}, ...).
 */
public final class RegistryServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RegistryServer.class.getName());
    static final String FRESH = "muster-fresh";
    static final String PEERS = "muster-peers";
    static final String FILES = "muster-files";
    static final String JOURNAL = "muster-journal";
    static final String REGIONS = "muster-regions";
    static final String AUDIT = "muster-audit";

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
    private final SelfRegistration selfRegistration;
    private final StartupSync startup;
    /** The snapshot and the cancellation journal; null when snapshots are off. */
    private final NodeFiles disk;
    private final ChangeStreams changes;
    private final RemoteRegions remoteRegions;
    private final ClusterChecker checker;
    private final StatusSource source;
    /** The deployment's MBeans, once registered (see {@link #registerMBeans}). */
    private volatile MusterMBeans mbeans;
    /** Whether this node told its peers it accepts requests (at its first request). */
    private final AtomicBoolean announced = new AtomicBoolean();
    /*
     * The lanes. Made in the constructor and final, never replaced or cleared, so that request threads may hand
     * them tasks without synchronization: learnedPort (a request on a port not seen before), the audit trail's
     * drain, the cancellation journal's writes and the MBeans' operations, also while or after close() runs (a
     * closed lane drops the task: ThreadScheduler#once). start() only schedules on them and close() only closes
     * them; neither writes a field that a request reads (mbeans is volatile, and so are the pending settings).
     */
    private final Scheduler fresh;
    private final Scheduler peerLane;
    private final Scheduler files;
    private final Scheduler journal;
    private final Scheduler auditLane;
    private final AuditTrail audit;
    /** The remote-region fetches' own lane, or null without remote regions. */
    private final Scheduler regions;
    /** Why this node stays out of its cluster (see {@link PortClash}), or null when it joins. */
    private final String detachedBecause;
    private final Probes probes;
    private final SettingsView settings;

    /**
     * @param snapshotPlace where the registry is saved and restored from, and whose it is, or null when snapshots
     *                      are off; a directory that is refused (see {@link SnapshotDirectory#open}), a file another
     *                      live node holds (see {@link SnapshotLock}) or an identity that cannot tell this node
     *                      from another turns them off for this run
     */
    RegistryServer(ServerConfig config, Clock clock, LocalNode self, SnapshotPlace snapshotPlace) {
        this(config, clock, self, snapshotPlace, ThreadScheduler::new, null);
    }

    /**
     * @param lanes           makes the lane of that name (its thread's name); a lane starts its thread with its first
     *                        task
     * @param detachedBecause why this node must not join its cluster (logged at start), or null: such a node has no
     *                        peers, does not register itself, and never opens for traffic
     */
    RegistryServer(ServerConfig config, Clock clock, LocalNode self, SnapshotPlace snapshotPlace,
                   Function<String, Scheduler> lanes, String detachedBecause) {
        this.config = config;
        this.settings = new SettingsView(config.keys());
        this.detachedBecause = detachedBecause;
        this.fresh = lanes.apply(FRESH);
        this.peerLane = lanes.apply(PEERS);
        this.files = lanes.apply(FILES);
        this.journal = lanes.apply(JOURNAL);
        this.auditLane = lanes.apply(AUDIT);
        this.audit = new AuditTrail(clock, config.audit().maxEntries(), AuditTrail.DEFAULT_QUEUE,
                drain -> auditLane.once("audit-append", drain));
        this.self = self;
        this.registry = new InstanceRegistry(clock, config.delta().retention(), config.limits(),
                config.selfPreservation().expectedClientRenewalInterval());
        this.remoteRegions = config.remoteRegions().urls().isEmpty() ? RemoteRegions.NONE
                : RemoteRegions.create(config.remoteRegions(), clock);
        this.cache = new ResponseCache(registry, remoteRegions, config.responseCache(), clock);
        this.selfPreservation = new SelfPreservation(config.selfPreservation(), registry);
        this.evictor = new Evictor(config.eviction(), config.selfPreservation().renewalPercentThreshold(), registry,
                selfPreservation, clock, new SecureRandom());
        this.gate = new TrafficGate(clock);
        this.peers = new PeerCluster(config.peers(), self, registry, clock);
        registry.addListener(cache);
        registry.addListener(peers);
        this.checker = new ClusterChecker(registry, peers, clock, config.clusterCheck().repairGrace(),
                config.delta().retention());
        this.selfRegistration = new SelfRegistration(config.instance(), self, registry, clock, self.contextPath());
        this.regions = remoteRegions.all().isEmpty() ? null : lanes.apply(REGIONS);
        this.disk = NodeFiles.open(snapshotPlace, registry, clock, config.delta().retention(),
                write -> journal.once("cancel-journal-write", write));
        RegistryFile snapshot = disk == null ? null : disk.snapshot();
        CancelJournal cancels = disk == null ? null : disk.cancels();
        this.startup = new StartupSync(config.startup(), peers, gate, selfPreservation, self, clock,
                config.peers().serviceUrls().size() + (config.peers().dnsUrl() == null ? 0 : 1),
                snapshot == null ? () -> 0 : snapshot::restore,
                snapshot == null ? () -> 0 : () -> snapshot.restoreMissing(config.delta().retention(),
                        saved -> registry.views().lease(saved.app(), saved.id())
                                .ifPresent(lease -> peers.sendToAll(lease.instance()))),
                cancels == null ? () -> { } : () -> cancels.replay(registry, (app, id, dirty, at) -> {
                    registry.tombstones().remember(app, id, dirty, at);
                    if (registry.views().lease(app, id).isEmpty()) {
                        peers.cancelAgain(app, id, dirty);   // one held is cancelled again by the replay itself
                    }
                }));
        ReplicaStatus replicas = new ReplicaStatus(peers, registry, selfRegistration,
                config.peers().minAvailableForHealthy());
        this.source = new StatusSource(registry, selfPreservation, evictor, cache, peers::statuses, clock);
        String version = BuildVersion.read();
        this.probes = new Probes(gate, detachedBecause);
        StatusReport status = new StatusReport(source, probes, gate, clock,
                config.environment(), config.dataCenter(), version, settings::document, replicas::report,
                remoteRegions::describe);
        this.metrics = new MusterMetrics(registry, source, config.metrics(), version);
        registry.addListener(metrics);
        peers.observeLag(metrics.replicationLag());
        ServerConfig.ChangeStreamConfig streams = config.changes();
        this.changes = new ChangeStreams(new ChangeStreams.Limits(streams.maxOpen(), streams.maxOpenPerClient(),
                streams.heartbeat(), streams.window(), streams.queue()), registry::sequence);
        registry.addListener(changes.log());
        this.api = Api.create(registry, cache, gate, config.delta().disabled(), clock, status,
                metrics::scrape, () -> checker.digest().withReadsHeld(gate.isHoldingReads()), peers::anyPeerHolds,
                peers::heardFromPeer, audit);
    }

    /**
     * Finds peers, copies the registry from one, opens for traffic, registers this node with its peers and schedules
     * the periodic tasks.
     */
    public void start() {
        AuditLog.attach(audit);
        ContainerHealth.attach(self.contextPath(), probes);
        changes.start();
        if (detachedBecause == null) {
            startup.start(peerLane);
        } else {
            // the gate stays shut: this node never learnt what the cluster holds, and its URL is another's
            LOG.severe(detachedBecause);
        }
        fresh.every("eviction", config.eviction().interval(), evictor::run);
        fresh.every("delta-retention", config.delta().purgeInterval(), () -> {
            if (registry.purgeRecentChanges() > 0) {
                cache.deltaWindowMoved();
            }
        });
        if (config.responseCache().useReadOnlyCache()) {
            fresh.every("response-cache-refresh", config.responseCache().updateInterval(),
                    () -> cache.refreshReadOnly(gate.allowsReads()));
        }
        fresh.every("renewal-threshold", config.selfPreservation().thresholdUpdateInterval(),
                selfPreservation::updateThreshold);
        if (disk != null) {
            files.every("registry-snapshot", config.snapshot().interval(), disk::save);
        }
        startRemoteRegions();
        if (detachedBecause == null) {
            joinCluster();
        }
        settings.log();
    }

    /**
     * Registers the deployment's MBeans in the platform MBean server (see {@link MusterMBeans}); they leave it
     * first thing at {@link #close()}. Not part of {@link #start()}: a server built by a test stays out of the JVM's
     * MBean server unless the test asks.
     *
     * @param host the virtual server the application is deployed to, which tells two deployments apart beside the
     *             context path
     */
    void registerMBeans(String host) {
        boolean peersChecked = peers.isConfigured() && detachedBecause == null;
        MusterMBeans beans = MusterMBeans.register(new Parts(source, gate, registry, api.writes(), peers::statuses,
                new Parts.Check(config.clusterCheck().enabled(), peersChecked, config.clusterCheck().interval(),
                        checker::run, peerLane::once),
                new Parts.Snapshot(disk == null ? null : disk.path(), disk == null ? () -> { } : disk::save,
                        files::once),
                new Parts.Streams(changes::streams, changes::waitingFetches, changes::dropped,
                        config.changes().maxOpen(), config.changes().maxOpenPerClient()),
                config.keys()), host, self.contextPath());
        mbeans = beans;
        // the peer list changes on every refresh (DNS, a port learnt): the peers' beans follow it
        fresh.every("mbean-peers", Duration.ofSeconds(15), beans::refreshPeers);
    }

    /** The periodic peer work: the peer list, the cluster check and this node's own registration with its peers. */
    private void joinCluster() {
        if (peers.isConfigured()) {
            peerLane.every("peer-refresh", config.peers().updateInterval(), startup::refreshPeers);
        }
        if (peers.isConfigured() && config.clusterCheck().enabled()) {
            peerLane.every("cluster-check", config.clusterCheck().interval(), checker::run);
        }
        renewSelf();
        peerLane.every("self-registration", Duration.ofSeconds(30), this::renewSelf);
    }

    /** Each remote region fetched at once (as Eureka does at start), then every fetch interval. */
    private void startRemoteRegions() {
        if (regions == null) {
            return;
        }
        for (RemoteRegion region : remoteRegions.all()) {
            Runnable fetch = () -> remoteRegions.refresh(region);
            regions.once("remote-region-" + region.name(), fetch);
            regions.every("remote-region-" + region.name(), config.remoteRegions().fetchInterval(), fetch);
            LOG.info("Muster: remote region " + region.name() + " at " + region.displayUrl() + ", fetched every "
                    + config.remoteRegions().fetchInterval().toSeconds() + " s");
        }
    }

    private void renewSelf() {
        selfRegistration.renew(!peers.nodes().isEmpty());
    }

    /** A request arrived on a port not seen before: this node may be one of the configured peer URLs. */
    void learnedPort(int port) {
        if (detachedBecause != null) {
            return;   // a request on another connector does not make this node the owner of its URL
        }
        if (announced.compareAndSet(false, true)) {
            startup.accepting();   // the start-up catch-up goes on a while from now (see StartupSync)
            if (peers.isConfigured()) {
                // the first request shows the connector accepts: peers' senders backing off from this node retry now
                peerLane.once("announce-to-peers", peers::announce);
            }
        }
        if (self.learnPort(port)) {
            peerLane.once("peer-refresh-on-new-port", () -> {   // dropped when the server has stopped
                if (peers.isConfigured()) {
                    startup.refreshPeers();
                }
                renewSelf();   // the port was what the node's own registration waited for
            });
        }
    }

    /** Lets the settings view tell what the next start would read, from the same sources as this start. */
    void watchSettings(PendingSettings pending) {
        settings.watch(pending);
    }

    public Api api() {
        return api;
    }

    ChangeStreams changes() {
        return changes;
    }

    MusterMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        MusterMBeans beans = mbeans;
        if (beans != null) {
            beans.close();   // first: no console acts on a server that is stopping
        }
        fresh.close();
        peerLane.close();
        files.close();
        if (regions != null) {
            regions.close();   // stops the fetch thread; its HTTP connections are the JDK's, per call
        }
        changes.close();
        selfRegistration.cancel();   // queued for the peers; their batchers send it while closing, if they can
        if (disk != null) {
            // after the files lane stopped, so nothing changes the file after this; the journal then writes what
            // its lane had not yet, the cancel just above among it
            disk.close();
        }
        journal.close();             // after the journal's close: no append is cut off by the lane's interrupt
        AuditLog.detach(audit);
        ContainerHealth.detach(probes);
        auditLane.close();
        audit.close();               // after its lane stopped: what was accepted and not yet appended is logged
        peers.close();
        metrics.close();
        LOG.info("Muster: stopped");
    }
}
