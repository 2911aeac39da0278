package io.muster.replication;

import io.muster.codec.WireFormatException;
import io.muster.model.InstanceInfo;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.CancelledHereException;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One peer: its task batcher, its HTTP client, and what happened lately. Handles the per-item answers as Eureka
 * does: a heartbeat the peer does not know (404) becomes a registration; a heartbeat the peer has a newer copy of
 * (409) makes this node adopt the peer's copy (unless {@code syncWhenTimestampDiffers} is false).
 *
 * <p>Thread safety: tasks are offered from any thread; batches are processed on the batcher's worker thread; the
 * status fields are volatile.
 */
public final class PeerNode implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PeerNode.class.getName());

    private final PeerUrl url;
    private final PeerClient client;
    private final InstanceRegistry registry;
    private final Clock clock;
    private final Duration registerTtl;
    private final TaskBatcher batcher;
    private final boolean syncWhenTimestampDiffers;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    private volatile boolean reachable = true;
    /** Set while the peer refuses our batches for their credentials; null once it accepts one. */
    private volatile PeerRefusal refusal;
    private final PeerCheck check = new PeerCheck();

    /**
     * @param workerThread false when the owner runs the batches itself ({@link #runDueBatch})
     * @param delivered    told the lag of each task the peer acknowledged
     */
    PeerNode(PeerUrl url, PeerClient client, InstanceRegistry registry, Clock clock, ReplicationSettings settings,
             Sleeper sleeper, boolean workerThread, Consumer<Duration> delivered) {
        this.url = url;
        this.client = client;
        this.registry = registry;
        this.clock = clock;
        this.registerTtl = settings.taskTtl();
        this.syncWhenTimestampDiffers = settings.syncWhenTimestampDiffers();
        this.batcher = new TaskBatcher("muster-replication-" + url.base().getHost() + ":" + url.port(),
                settings.maxPending(), settings.batchSize(), settings.batchDelay(), clock, sleeper, this::process,
                delivered);
        if (workerThread) {
            batcher.start();
        }
    }

    public PeerUrl url() {
        return url;
    }

    PeerClient client() {
        return client;
    }

    void enqueue(ReplicationTask task) {
        batcher.offer(task);
    }

    /** A repair found by the cluster check: our copy goes to the peer as a replicated registration. */
    void repairRegister(InstanceInfo instance) {
        batcher.offer(new ReplicationTask.Register(instance, clock.instant().plus(registerTtl)));
    }

    /** A repair found by the cluster check: the peer missed a cancellation. */
    void repairCancel(String app, String id) {
        long version = registry.tombstones().cancelledVersion(app, id);
        batcher.offer(new ReplicationTask.Cancel(app, id, version == Long.MIN_VALUE ? null : version,
                clock.instant().plus(registerTtl)));
    }

    PeerCheck check() {
        return check;
    }

    boolean runDueBatch() throws InterruptedException {
        return batcher.runOnce();
    }

    /** The peer showed it is alive: a backoff in progress ends (see {@link TaskBatcher#wake}). */
    boolean wake() {
        return batcher.wake();
    }

    private Outcome process(List<ReplicationTask> taken) {
        List<ReplicationTask> batch = current(taken);
        if (batch.isEmpty()) {
            return Outcome.SUCCESS;
        }
        List<ReplicationItem> items = batch.stream().map(ReplicationTask::item).toList();
        try {
            List<ReplicationResult> results = client.sendBatch(items);
            if (results.size() == batch.size()) {
                for (int i = 0; i < batch.size(); i++) {
                    handle(batch.get(i), results.get(i));
                }
            } else {
                LOG.warning("Muster: peer " + url + " answered " + results.size() + " results for " + batch.size()
                        + " items; per-item answers ignored");
            }
            succeeded();
            return Outcome.SUCCESS;
        } catch (PeerClient.StatusException e) {
            if (PeerRefusal.refusesCredentials(e.status)) {
                return refused(e.status, e.getMessage());
            }
            return failed(outcomeOf(e.status), e.getMessage());
        } catch (SocketTimeoutException e) {
            boolean connecting = e.getMessage() != null && e.getMessage().contains("connect");
            return failed(connecting ? Outcome.TRANSIENT_FAILURE : Outcome.CONGESTION, "timeout: " + e.getMessage());
        } catch (ConnectException e) {
            return failed(Outcome.TRANSIENT_FAILURE, "connection refused");
        } catch (IOException e) {
            return failed(Outcome.TRANSIENT_FAILURE, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (WireFormatException e) {
            return failed(Outcome.PERMANENT_FAILURE, "unreadable answer: " + e.getMessage());
        }
    }

    /**
     * The tasks still worth sending: a registration, heartbeat or status change of an instance this node no longer
     * holds is dropped. Its cancel reached this node from another peer (which replicates it to the peer itself), or
     * this node evicted it; sent now, after a backoff, it would bring a cancelled instance back on the peer.
     */
    private List<ReplicationTask> current(List<ReplicationTask> taken) {
        List<ReplicationTask> kept = new ArrayList<>(taken.size());
        for (ReplicationTask task : taken) {
            if (task instanceof ReplicationTask.Cancel || registry.views().lease(task.app(), task.id()).isPresent()) {
                kept.add(task);
            } else {
                batcher.superseded.increment();
            }
        }
        return kept.size() == taken.size() ? taken : kept;
    }

    /**
     * 503 is the peer asking for room. Another 5xx, or a 404 (its container up, the application away or still
     * deploying), says the batch was not delivered, not that its content is wrong: it is retried with backoff until
     * its tasks expire, so a peer that fails for a while gets its writes when it is back instead of waiting for the
     * cluster check. Anything else (400, 401, 403) refuses the content or the credentials: retrying cannot help.
     */
    static Outcome outcomeOf(int status) {
        if (status == 503) {
            return Outcome.CONGESTION;
        }
        return status >= 500 || status == 404 ? Outcome.TRANSIENT_FAILURE : Outcome.PERMANENT_FAILURE;
    }

    private void handle(ReplicationTask task, ReplicationResult result) {
        if (!(task instanceof ReplicationTask.Heartbeat)) {
            return;   // a cancel the peer did not know (404) needs nothing; other failures are not retried
        }
        if (result.statusCode() == 404) {
            registry.views().lease(task.app(), task.id()).ifPresent(lease -> batcher.offer(
                    new ReplicationTask.Register(lease.instance(), clock.instant().plus(registerTtl))));
        } else if (result.statusCode() == 409 && result.responseEntity() != null && syncWhenTimestampDiffers) {
            InstanceInfo theirs = result.responseEntity();
            try {
                registry.register(theirs, Origin.PEER);
            } catch (CancelledHereException e) {
                // the peer's copy is older than our cancel of it: ours (none) stands, the cluster check settles it
            } catch (InvalidInstanceException | RegistryFullException e) {
                // ours stays; the peer keeps answering 409 until the client re-registers with a valid copy
                LOG.warning("Muster: peer " + url + " sent a newer copy of " + task.app() + "/" + task.id()
                        + " that this node refuses: " + e.getMessage());
            }
        }
    }

    private void succeeded() {
        lastSuccess = clock.instant();
        if (refusal != null) {
            refusal = null;
            LOG.info("Muster: peer " + url + " accepts our replication again");
        }
        if (!reachable) {
            reachable = true;
            LOG.info("Muster: peer " + url + " is reachable again");
        }
    }

    private Outcome failed(Outcome outcome, String why) {
        lastError = why;
        if (reachable && outcome != Outcome.PERMANENT_FAILURE) {
            reachable = false;
            LOG.warning("Muster: peer " + url + " unreachable (" + why + "); retrying with backoff");
        } else if (outcome == Outcome.PERMANENT_FAILURE) {
            LOG.warning("Muster: peer " + url + " refused a batch (" + why + "); batch dropped");
        }
        return outcome;
    }

    /**
     * The peer answered but refuses our credentials: it is reachable, and every batch will be refused alike, so
     * this is logged once when it starts (or changes), not per batch.
     */
    private Outcome refused(int status, String why) {
        lastError = why;
        reachable = true;
        PeerRefusal before = refusal;
        if (before == null || before.status() != status) {
            PeerRefusal now = new PeerRefusal(status, url.user(), clock.instant());
            refusal = now;
            LOG.warning("Muster: peer " + url + " " + now.problem() + "; replication batches to it are dropped."
                    + " To fix: " + now.fix());
        }
        return Outcome.PERMANENT_FAILURE;
    }

    /** What the status document and metrics show for this peer. */
    public record Status(String url, boolean reachable, Instant lastSuccess, int queueDepth, long sent,
                         long batches, long failedBatches, long dropped, long expired, long superseded, long woken,
                         String lastError, double lagP50Seconds, double lagP99Seconds, PeerCheck.Report check,
                         PeerRefusal refusal) {
    }

    public Status status() {
        return new Status(url.toString(), reachable, lastSuccess, batcher.queueDepth(), batcher.sent.sum(),
                batcher.batches.sum(), batcher.failedBatches.sum(), batcher.dropped.sum(), batcher.expired.sum(),
                batcher.superseded.sum(), batcher.woken.sum(), lastError, batcher.lag.quantileSeconds(0.5), batcher.lag.quantileSeconds(0.99), check.report(),
                refusal);
    }

    /** The node is stopping: what is queued for this peer goes out now (see {@link TaskBatcher#startDraining}). */
    void startDraining() {
        batcher.startDraining();
    }

    /** Stops replicating to this peer: after {@link #startDraining}, once the drain ended; else at once. */
    @Override
    public void close() {
        batcher.close();
        long sent = batcher.drainedSent.sum();
        long dropped = batcher.drainedDropped.sum();
        if (dropped > 0) {
            LOG.warning("Muster: stopping: peer " + url + " was sent " + sent + " of the " + (sent + dropped)
                    + " change(s) queued for it; it catches up on the other " + dropped
                    + " as clients renew and leases lapse");
        } else if (sent > 0) {
            LOG.info("Muster: stopping: peer " + url + " was sent the " + sent + " change(s) queued for it");
        }
    }
}
