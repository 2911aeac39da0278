package io.muster.replication;

import io.muster.config.ServerConfig.PeerConfig;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The other nodes of the cluster, and the rule of what reaches them: every write a client made here goes to every
 * peer; writes that arrived from a peer never go further (peers are fully meshed, as in Eureka); evictions are
 * never replicated, because each node evicts on its own clock and a replicated expiry would hide from the peer
 * the renewal drop that its self-preservation is meant to see.
 *
 * <p>Thread safety: the peer list is an immutable list in a volatile field, swapped whole by {@link #refresh()};
 * {@link #onChange} runs on writer threads (under the registry's change lock for visible changes) and only offers
 * tasks to the peers' batchers.
 */
public final class PeerCluster implements RegistryListener, AutoCloseable {
    static final int MAX_LOOKUPS = 4;
    private final java.util.concurrent.Semaphore lookups = new java.util.concurrent.Semaphore(MAX_LOOKUPS);
    private static final Logger LOG = Logger.getLogger(PeerCluster.class.getName());

    private final PeerConfig config;
    private final ReplicationSettings settings;
    private final LocalNode self;
    private final InstanceRegistry registry;
    private final Clock clock;
    private final Function<PeerUrl, PeerClient> clients;
    private final Sleeper sleeper;
    private final boolean workerThreads;
    private final Object refreshLock = new Object();
    private volatile List<PeerNode> nodes = List.of();
    private volatile LagObserver lagObserver = LagObserver.NONE;
    /** Guarded by refreshLock. */
    private final PeerUrls urls;

    public PeerCluster(PeerConfig config, LocalNode self, InstanceRegistry registry, Clock clock) {
        this(config, self, registry, clock, null, PeerDns.SYSTEM, Sleeper.REAL, true);
    }

    /**
     * @param clients       makes the client for a peer; null for HTTP
     * @param dns           resolves the peer DNS name to its addresses
     * @param sleeper       how the batchers back off
     * @param workerThreads false when the caller runs the batches itself ({@link #runDueBatches})
     */
    PeerCluster(PeerConfig config, LocalNode self, InstanceRegistry registry, Clock clock,
                Function<PeerUrl, PeerClient> clients, PeerDns dns, Sleeper sleeper, boolean workerThreads) {
        this.sleeper = sleeper;
        this.workerThreads = workerThreads;
        this.config = config;
        this.settings = ReplicationSettings.of(config);
        this.self = self;
        this.registry = registry;
        this.clock = clock;
        this.urls = new PeerUrls(config, self, dns);
        this.clients = clients != null ? clients
                : url -> new HttpPeerClient(url, settings.connectTimeout(), settings.readTimeout(), clock);
    }

    /** Who is told each delivered task's lag, from now on (peers added later included). */
    public void observeLag(LagObserver observer) {
        this.lagObserver = observer;
    }

    public boolean isConfigured() {
        return !config.serviceUrls().isEmpty() || config.dnsUrl() != null;
    }

    /**
     * Recomputes the peer list from configuration and DNS; new peers get a node, vanished ones are closed. Returns
     * how many peers were added.
     */
    public int refresh() {
        synchronized (refreshLock) {
            Map<String, PeerUrl> wanted = urls.now();
            List<PeerNode> next = new ArrayList<>();
            for (PeerNode node : nodes) {
                if (wanted.remove(node.url().base().toString()) != null) {
                    next.add(node);
                } else {
                    LOG.info("Muster: peer " + node.url() + " removed");
                    node.close();
                }
            }
            for (PeerUrl url : wanted.values()) {
                LOG.info("Muster: peer " + url + " added");
                String shown = url.toString();
                next.add(new PeerNode(url, clients.apply(url), registry, clock, settings, sleeper, workerThreads,
                        lag -> lagObserver.delivered(shown, lag)));
            }
            nodes = List.copyOf(next);
            return wanted.size();
        }
    }

    @Override
    public void onChange(RegistryChange change) {
        List<PeerNode> peers = nodes;
        if (peers.isEmpty()) {
            return;
        }
        ReplicationTask task = toTask(change, clock.instant());
        if (task != null) {
            for (PeerNode peer : peers) {
                peer.enqueue(task);
            }
        }
    }

    private ReplicationTask toTask(RegistryChange change, Instant now) {
        Instant ttl = now.plus(settings.taskTtl());
        if (change instanceof RegistryChange.Registered r && r.origin() == Origin.CLIENT) {
            return new ReplicationTask.Register(r.instance(), renewalTtl(r, now));
        }
        if (change instanceof RegistryChange.Renewed r && r.origin() == Origin.CLIENT) {
            return new ReplicationTask.Heartbeat(r.instance(), renewalTtl(r, now));
        }
        if (change instanceof RegistryChange.Cancelled c && c.origin() == Origin.CLIENT) {
            return new ReplicationTask.Cancel(c.instance().app(), c.instance().id(), c.version(), ttl);
        }
        if (change instanceof RegistryChange.StatusChanged s && s.origin() == Origin.CLIENT) {
            return new ReplicationTask.StatusUpdate(s.instance(), ttl);
        }
        if (change instanceof RegistryChange.OverrideDeleted d && d.origin() == Origin.CLIENT) {
            return new ReplicationTask.DeleteStatusOverride(d.instance(), ttl);
        }
        return null;   // replicated writes and evictions stay here
    }

    /** A registration or heartbeat is worth sending until the client's next renewal would supersede it. */
    private static Instant renewalTtl(RegistryChange change, Instant now) {
        return now.plus(Duration.ofSeconds(change.instance().leaseInfo().renewalIntervalInSecs()));
    }

    /**
     * One round of the registry sync: copies the registry from the first peer that serves it.
     *
     * @param quiet true for background retries (failures logged at FINE)
     */
    public SyncResult syncUp(boolean quiet) {
        return new RegistrySync(registry).copyFromPeers(nodes, quiet);
    }

    /**
     * After the start-up sync, until the peers' replication to this node has caught up: reads every peer's
     * cancellations again and drops the copies they cover (see {@link RegistrySync#catchUp}). Returns how many.
     */
    public int catchUp() {
        return new RegistrySync(registry).catchUp(nodes);
    }

    /**
     * For a cluster built without worker threads: runs each peer's due batches on the calling thread until none is
     * due or one fails (a failed batch is due again right after its backoff, so the loop would not end). Returns
     * how many batches ran.
     */
    int runDueBatches() throws InterruptedException {
        int ran = 0;
        for (PeerNode node : nodes) {
            long failed = node.status().failedBatches();
            while (node.runDueBatch()) {
                ran++;
                if (node.status().failedBatches() > failed) {
                    break;
                }
            }
        }
        return ran;
    }

    public List<PeerNode.Status> statuses() {
        return nodes.stream().map(PeerNode::status).toList();
    }

    /**
     * Whether any peer holds the instance now: asked before refusing a client's registration at the instance cap,
     * since an instance a peer holds is not new to the cluster. At most {@link #MAX_LOOKUPS} lookups at a time
     * (more answer false at once), each bounded by a short timeout; an unreachable peer counts as not holding it.
     */
    public boolean anyPeerHolds(String app, String id) {
        if (!lookups.tryAcquire()) {
            return false;
        }
        try {
            for (PeerNode node : nodes) {
                try {
                    if (node.client().holds(app, id)) {
                        return true;
                    }
                } catch (IOException e) {
                    // the next peer may know
                }
            }
            return false;
        } finally {
            lookups.release();
        }
    }

    public List<PeerNode> nodes() {
        return nodes;
    }

    /** An instance only this node has (restored from its own snapshot after a sync): registered on every peer. */
    public void sendToAll(InstanceInfo instance) {
        for (PeerNode node : nodes) {
            node.repairRegister(instance);
        }
    }

    /**
     * Tells every peer this node now accepts requests (its first request came in: on Tomcat the connector starts
     * seconds after the application, so the start-up sync's own requests came before it): one digest request each,
     * which a Muster peer takes as a sign of life and which ends its senders' backoff towards this node.
     */
    public void announce() {
        for (PeerNode node : nodes) {
            try {
                node.client().fetchDigest();
            } catch (IOException | RuntimeException e) {
                // a peer that is down learns of this node when it syncs from it
            }
        }
    }

    /**
     * A cancellation this node acknowledged before it stopped (its journal), of an instance it does not hold now:
     * sent to every peer again, with its version, so a peer that still holds that copy (restored from its own
     * snapshot, or copied from a node restarted with it) drops it now, not at the cluster check's next repair.
     */
    public void cancelAgain(String app, String id, long lastDirtyTimestamp) {
        Instant ttl = clock.instant().plus(settings.taskTtl());
        for (PeerNode node : nodes) {
            node.enqueue(new ReplicationTask.Cancel(app, id, lastDirtyTimestamp, ttl));
        }
    }

    /**
     * A peer showed it is alive (it synced from this node, read its digest or replicated a write to it): every sender
     * in a backoff tries again now. Which peer it was is not known for certain (peers on one host share an
     * address, and a peer's own URL may be spelt differently in our list), so all are woken; each at most twice a
     * second (see {@link WakeSignal}) (a sender that is not backing off is not disturbed).
     */
    public void heardFromPeer() {
        for (PeerNode node : nodes) {
            node.wake();
        }
    }

    @Override
    public void close() {
        synchronized (refreshLock) {
            // what was queued (this node's own cancel among it) goes to every peer at once, for one drain's time;
            // a peer dropped from the configuration earlier was closed without one
            nodes.forEach(PeerNode::startDraining);
            nodes.forEach(PeerNode::close);
            nodes = List.of();
        }
    }
}
