package io.muster.audit;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The last {@code maxEntries} audited actions of one server, newest last, and their lines on the logger
 * {@code io.muster.audit} (route it to a file of its own with the container's logging configuration).
 *
 * <p>Off the request path: a request thread only offers an immutable entry to a bounded queue; the lane given at
 * construction numbers the entries, appends them to the ring and writes their log lines, one drain at a time. When
 * the queue is full the entry is counted as dropped and the request goes on: an audit that cannot keep up must not
 * slow the registry down. Entries of one thread keep their order (the queue is FIFO and one lane drains it).
 *
 * <p>Thread safety: {@link #record} and {@link #query} from any thread; the ring is guarded by its own lock.
 */
public final class AuditTrail {
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    public static final int DEFAULT_QUEUE = 4_096;
    private static final Logger LOG = Logger.getLogger("io.muster.audit");

    private final Clock clock;
    private final int maxEntries;
    private final Consumer<Runnable> lane;
    private final BlockingQueue<AuditEntry> queue;
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicLong dropped = new AtomicLong();
    private final QuietRefusals refusals = new QuietRefusals();
    /** Guarded by itself; appended by the lane only. */
    private final ArrayDeque<AuditEntry> ring = new ArrayDeque<>();
    /** Guarded by this (the drain): the last sequence number given and the drops already logged. */
    private long sequence;
    private long droppedLogged;

    /**
     * @param lane runs a drain on the trail's lane thread (the server's {@code muster-audit}); {@code Runnable::run}
     *             drains on the recording thread, for a trail without a server
     */
    public AuditTrail(Clock clock, int maxEntries, int queueCapacity, Consumer<Runnable> lane) {
        this.clock = clock;
        this.maxEntries = maxEntries;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.lane = lane;
    }

    /** A trail that keeps nothing and writes its lines at once: what the statics use without a running server. */
    public static AuditTrail logOnly() {
        return new AuditTrail(Clock.systemUTC(), 0, 64, Runnable::run);
    }

    public void record(AuditAction action, Actor actor, String app, String instance, String value, int status) {
        AuditEntry entry = new AuditEntry(0, clock.instant(), action, actor, app, instance, value, status);
        if (!queue.offer(entry)) {
            dropped.incrementAndGet();
            return;
        }
        // one drain queued at a time; one that starts after this offer sees the entry, so none is stranded
        if (drainQueued.compareAndSet(false, true)) {
            lane.accept(this::drain);
        }
    }

    /** A write refused for want of a right: the first in a minute per caller and application is recorded. */
    public void refused(Actor actor, String app, String reason) {
        if (refusals.first(actor.who(), app)) {
            record(AuditAction.REFUSED, actor, app, null, reason, 403);
        }
    }

    /** Entries lost because the queue was full, since the start. */
    public long dropped() {
        return dropped.get();
    }

    public int maxEntries() {
        return maxEntries;
    }

    /** Newest first: those of {@code app} and {@code instance} (each null for any) at or after {@code since}. */
    public List<AuditEntry> query(String app, String instance, Instant since, int limit) {
        List<AuditEntry> out = new ArrayList<>(Math.min(limit, 64));
        synchronized (ring) {
            for (Iterator<AuditEntry> it = ring.descendingIterator(); it.hasNext() && out.size() < limit; ) {
                AuditEntry e = it.next();
                if (since != null && e.at().isBefore(since)) {
                    continue;   // not break: entries are in append order, and `at` is each request's own time
                }
                if ((app == null || app.equalsIgnoreCase(e.app())) && (instance == null
                        || instance.equals(e.instance()))) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /** What was accepted and not yet drained, appended by the caller: the lane has stopped (the server is closing). */
    public void close() {
        drain();
    }

    /** Synchronized so that entries are appended in the queue's order even when callers drain (inline lane). */
    private synchronized void drain() {
        drainQueued.set(false);
        for (AuditEntry e = queue.poll(); e != null; e = queue.poll()) {
            append(e);
        }
        long lost = dropped.get();
        if (lost > droppedLogged) {
            LOG.warning("audit: " + (lost - droppedLogged) + " entries were dropped: the audit queue ("
                    + queue.remainingCapacity() + " free now) was full");
            droppedLogged = lost;
        }
    }

    private void append(AuditEntry e) {
        AuditEntry numbered = e.numbered(++sequence);
        synchronized (ring) {
            ring.addLast(numbered);
            while (ring.size() > maxEntries) {
                ring.removeFirst();
            }
        }
        LOG.log(e.action() == AuditAction.REFUSED ? Level.WARNING : Level.INFO, numbered::line);
    }
}
