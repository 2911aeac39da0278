package io.muster.bootstrap;

import io.muster.config.ServerConfig.StartupConfig;
import io.muster.eviction.SelfPreservation;
import io.muster.registry.TrafficGate;
import io.muster.registry.TrafficGate.SyncOutcome;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerCluster;
import io.muster.replication.SyncResult;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntSupplier;
import java.util.logging.Logger;

/**
 * The start-up sync and the read gate: copy the registry from a peer, open for traffic, and, only when not one peer
 * could be reached, hold reads back while retrying in the background until a sync succeeds or the wait ends. Peers
 * that answer but are waiting themselves (restarted together) count as an answer: their registries and this node's
 * snapshot are served at once, and they open at their next retry, when they find this node open. Also
 * syncs once from peers that appear later (a node that learns its own port only from its first request recognises
 * its peers only then). Logs which case applied, in words an operator can act on.
 *
 * <p>After a sync that copied from Muster peers it catches up: what the peers cancel after their registry was read
 * reaches this node by replication only once its connector accepts and their senders have worked through what
 * they queued for it while it was away, seconds later; until then it would list instances cancelled elsewhere
 * seconds before. So their cancellations are read again every {@link #CATCH_UP_INTERVAL} from the sync until
 * {@link #CATCH_UP_AFTER_OPEN} after this node's first request, and the copies they cover are dropped.
 *
 * <p>Thread safety: {@link #start} runs on the deploying thread; everything after it on the scheduler's one thread.
 * The one handle the two share, what cancels the retries, is published through volatiles: start stores it after
 * scheduling them, and a retry on the lane may run before that (the deploying thread paused past the period).
 */
final class StartupSync {
    private static final Logger LOG = Logger.getLogger(StartupSync.class.getName());

    private final StartupConfig config;
    private final PeerCluster peers;
    private final TrafficGate gate;
    private final SelfPreservation selfPreservation;
    private final LocalNode self;
    private final Clock clock;
    private final int configuredUrls;
    private final IntSupplier restoreSnapshot;
    /**
     * After a sync from a peer: puts back what this node's own fresh snapshot holds and the peer did not (the last
     * writes acknowledged here before the cluster stopped), sending them to the peers; returns how many.
     */
    private final IntSupplier restoreMissing;
    /** Runs after each sync that copied a peer's registry (the cancellation journal's replay). */
    private final Runnable afterSync;
    private volatile boolean synced;
    /** What cancels the retries: stored by {@link #start} on the deploying thread once they are scheduled. */
    private volatile Scheduler.Cancellable retries;
    /** Set by the retry that ends them, on the lane, maybe before {@link #retries} was stored. */
    private volatile boolean retriesDone;
    /** The lane {@link #start} was given: the retries and the catch-up run on it. */
    private volatile Scheduler scheduler;
    /** The catch-up while it runs, else null; and when it began (set before it is scheduled). */
    private volatile Scheduler.Cancellable catchUps;
    private volatile Instant catchUpFrom;
    /** How many copies the catch-up dropped so far (said once, when it ends). Its rounds' thread only. */
    private int caughtUp;
    /** When this node's first request came (its connector accepts), or null before. */
    private volatile Instant acceptingSince;

    /** How often the catch-up reads the peers' cancellations again: far within the 2 s a cancel takes to spread. */
    static final Duration CATCH_UP_INTERVAL = Duration.ofMillis(250);
    /**
     * How long the catch-up goes on once this node accepts requests: a peer's sender that backed off from this
     * node while it was away tries again within 5 s (its longest network backoff; this node's first request ends
     * the backoff sooner), then sends what it queued for this node, oldest first, before what is cancelled now.
     */
    static final Duration CATCH_UP_AFTER_OPEN = Duration.ofSeconds(10);
    /** The catch-up's end should no request ever come. */
    static final Duration CATCH_UP_LONGEST = Duration.ofMinutes(5);

    StartupSync(StartupConfig config, PeerCluster peers, TrafficGate gate, SelfPreservation selfPreservation,
                LocalNode self, Clock clock, int configuredUrls, IntSupplier restoreSnapshot, IntSupplier restoreMissing,
                Runnable afterSync) {
        this.config = config;
        this.peers = peers;
        this.gate = gate;
        this.selfPreservation = selfPreservation;
        this.self = self;
        this.clock = clock;
        this.configuredUrls = configuredUrls;
        this.restoreSnapshot = restoreSnapshot;
        this.restoreMissing = restoreMissing;
        this.afterSync = afterSync;
    }

    /** Resolves the peers, syncs once, opens the gate; schedules the retries when reads are held. */
    SyncResult start(Scheduler scheduler) {
        this.scheduler = scheduler;
        peers.refresh();
        if (configuredUrls > 0 && !self.knowsItsPort()) {
            LOG.info("Muster: this node does not know its port yet, so a URL on this machine with context "
                    + self.contextPath() + " counts as this node until its first request; set eureka.server.myUrl "
                    + "or -Dport to say which URL is this node");
        }
        selfPreservation.expectClients(config.expectedClientsBeforeSync());
        SyncResult sync = peers.syncUp(false);
        synced = sync.outcome() == SyncOutcome.PEER_ANSWERED;
        // a peer's registry is the cluster's present; the snapshot is this node's past, used only without one (or
        // beside those of peers that are waiting too: then each node's past is part of the newest state there is)
        int restored = synced ? 0 : restoreSnapshot.getAsInt();
        if (synced) {
            restoreMissing.getAsInt();   // logs what it put back; what the peers cancelled since stays out
        }
        afterSync.run();
        boolean held = gate.open(sync.outcome(), config.waitWhenSyncEmpty(), config.defaultOpenForTrafficCount() > 0);
        if (restored > 0) {
            selfPreservation.expectClients(0);   // the restored instances that were renewing count themselves
        } else if (!held) {
            // Spring's openForTraffic(count): the copied instances (which count themselves), or
            // defaultOpenForTrafficCount when none
            selfPreservation.expectClients(sync.copied() > 0 ? 0 : config.defaultOpenForTrafficCount());
        }
        selfPreservation.measureFrom(clock.instant());
        LOG.info("Muster: " + describe(sync, held));
        if (held) {
            Scheduler.Cancellable scheduled = scheduler.every("startup-sync-retry", config.syncRetryWait(),
                    this::retry);
            retries = scheduled;
            if (retriesDone) {
                scheduled.cancel();   // a retry ended them before the handle was stored
            }
        }
        catchUpAfter(sync);
        return sync;
    }

    /** This node's first request came: its connector accepts, and the peers' replication to it can begin. */
    void accepting() {
        if (acceptingSince == null) {
            acceptingSince = clock.instant();
        }
    }

    /** Starts the catch-up after a sync that copied what Muster peers hold (a stock Eureka peer has no digest). */
    private void catchUpAfter(SyncResult sync) {
        boolean copiedFromPeers = sync.outcome() == SyncOutcome.PEER_ANSWERED
                || sync.outcome() == SyncOutcome.PEERS_WAITING;
        if (copiedFromPeers && sync.digests() && catchUps == null) {
            catchUpFrom = clock.instant();
            catchUps = scheduler.every("startup-catch-up", CATCH_UP_INTERVAL, this::catchUp);
        }
    }

    /** One round of the catch-up; the last once this node accepted requests {@link #CATCH_UP_AFTER_OPEN} ago. */
    private void catchUp() {
        int dropped = peers.catchUp();
        caughtUp += dropped;
        if (dropped > 0) {
            LOG.fine("Muster: start-up catch-up removed " + dropped + " instance(s) the peers cancelled since");
        }
        Instant now = clock.instant();
        Instant since = acceptingSince;
        Instant open = since == null || since.isBefore(catchUpFrom) ? catchUpFrom : since;
        if (since != null && !now.isBefore(open.plus(CATCH_UP_AFTER_OPEN))
                || !now.isBefore(catchUpFrom.plus(CATCH_UP_LONGEST))) {
            Scheduler.Cancellable running = catchUps;
            if (running != null) {
                running.cancel();
                catchUps = null;
                if (caughtUp > 0) {
                    LOG.info("Muster: removed " + caughtUp + " instance(s) copied from the peers at the start that"
                            + " they cancelled while their replication to this node had not caught up yet");
                }
                caughtUp = 0;
            }
        }
    }

    private String describe(SyncResult sync, boolean held) {
        int count = peers.nodes().size();
        return switch (sync.outcome()) {
            case NO_PEERS -> configuredUrls == 0 ? "no peers configured; serving reads at once"
                    : "no peer besides this node (its own URL is not a peer); serving reads at once";
            case PEER_ANSWERED -> sync.copied() > 0
                    ? "copied " + sync.copied() + " instances from peer " + sync.peer() + "; serving reads at once"
                    : "peer " + sync.peer() + " answered with nothing to copy (an empty or starting cluster); "
                    + "serving reads at once";
            case PEERS_WAITING -> "every peer that answered (" + sync.peer() + ") was waiting for its own peers; "
                    + "serving the " + sync.copied() + " instance(s) they hold together with this node's own "
                    + "snapshot, at once";
            case EVERY_PEER_UNREACHABLE -> held
                    ? "none of the " + count + " peer(s) could be reached; reads answer 403 (clients ask another "
                    + "server) until a sync succeeds (retried every " + config.syncRetryWait().toMillis()
                    + " ms) or for at most " + config.waitWhenSyncEmpty().toSeconds() + " s"
                    : "none of the " + count + " peer(s) could be reached; serving reads at once because "
                    + (config.defaultOpenForTrafficCount() > 0 ? "defaultOpenForTrafficCount is "
                    + config.defaultOpenForTrafficCount() : "waitTimeInMsWhenSyncEmpty is 0");
        };
    }

    /** A background retry while reads are held. */
    private void retry() {
        if (!gate.isHoldingReads()) {
            LOG.warning("Muster: no peer answered within " + config.waitWhenSyncEmpty().toSeconds()
                    + " s; serving reads with what clients registered here since the start");
            stopRetrying();
            return;
        }
        SyncResult sync = peers.syncUp(true);
        if (sync.outcome() != SyncOutcome.EVERY_PEER_UNREACHABLE) {
            synced = sync.outcome() == SyncOutcome.PEER_ANSWERED;
            afterSync.run();
            gate.release();
            catchUpAfter(sync);
            selfPreservation.measureFrom(clock.instant());
            LOG.info("Muster: reads open: " + describe(sync, false));
            stopRetrying();
        }
    }

    /** Either this sees the stored handle, or {@link #start} sees the flag after storing it (both volatile). */
    private void stopRetrying() {
        retriesDone = true;
        Scheduler.Cancellable scheduled = retries;
        if (scheduled != null) {
            scheduled.cancel();
        }
    }

    /**
     * Recomputes the peer list (periodically, and when the node learns a port it serves on). Peers seen for the
     * first time by a node that never synced are synced from at once: the node has been serving what it had.
     */
    void refreshPeers() {
        int added = peers.refresh();
        if (added > 0 && !synced && !gate.isHoldingReads()) {
            SyncResult sync = peers.syncUp(false);
            if (sync.outcome() == SyncOutcome.PEER_ANSWERED) {
                synced = true;
                afterSync.run();
                catchUpAfter(sync);
                if (sync.copied() > 0) {
                    selfPreservation.measureFrom(clock.instant());
                }
                LOG.info("Muster: peers found after the start: " + describe(sync, false));
            }
        }
    }
}
