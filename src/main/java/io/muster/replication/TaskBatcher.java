package io.muster.replication;

import io.muster.model.ReplicationAction;
import io.muster.model.ReplicationItem;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Batches replication tasks for one peer: a bounded pending map where a newer task for the same key replaces the
 * waiting one (so a burst of heartbeats for one instance costs one), batches of up to {@code batchSize} sent once
 * the oldest task has waited {@code delay} (default 25 ms, Eureka's is 500 ms), expired tasks dropped unsent, and
 * retry with exponential backoff on congestion (from 1 s, capped at 30 s) and network failures (from 100 ms, capped
 * at 5 s), each counted on its own, and either ended early by {@link #wake} when the peer shows it is alive.
 *
 * <p>A cancel supersedes the instance's waiting registration, heartbeat and status tasks: they are dropped (counted
 * in {@code superseded}), never sent after it. A replacement keeps its predecessor's place in the queue, so without
 * this a registration queued before a cancel and replaced after it would reach the peer first and be cancelled
 * there, or one put back by a retry would reach it after the cancel and bring the instance back.
 *
 * <p>Time comes from the injected clock and waits go through the {@link Sleeper}; {@link #start} runs the batches
 * on a worker thread, and a test that does not start it calls {@link #runOnce} itself, so that every rule here can
 * be checked without waiting.
 *
 * <p>Thread safety: {@link #offer} may be called from any thread (it only takes a short lock); the pending map is
 * guarded by {@code lock}; batches are run by one thread only (the worker, or the test instead of it).
 *
 * <p>One class, although long: the pending map, the supersession of waiting tasks by a cancel and the backoff
 * state change together under one lock, and their order is what keeps a cancel from being overtaken.
 */
final class TaskBatcher implements AutoCloseable {
    private static final Duration CONGESTION_BACKOFF = Duration.ofSeconds(1);
    private static final Duration NETWORK_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A peer that refuses connections costs one refused connect per attempt: it is tried again within seconds. */
    private static final Duration MAX_NETWORK_BACKOFF = Duration.ofSeconds(5);
    /**
     * How long a stopping node goes on sending what it had queued (its own cancel among it): long enough for a
     * few batches to a live peer, short enough that an undeploy does not wait on a dead one.
     */
    static final Duration DRAIN = Duration.ofSeconds(3);

    private record Pending(ReplicationTask task, Instant enqueued) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final LinkedHashMap<String, Pending> pending = new LinkedHashMap<>();
    private final String name;
    private final int maxPending;
    private final int batchSize;
    private final Duration delay;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Function<List<ReplicationTask>, Outcome> processor;
    private volatile Thread worker;
    private volatile boolean running = true;
    /** Set by {@link #startDraining}: no new task is taken, what is queued is sent once more, without delay. */
    private volatile boolean draining;
    /** Until when the drain may send (by the injected clock); set with {@link #draining}. */
    private volatile Instant drainUntil;
    /** While the worker is in (or about to enter) a backoff sleep, which a drain interrupts. */
    private volatile boolean backingOff;
    /**
     * Failures since the last success, counted apart for each kind (the batch-running thread only): a peer that
     * refused connections for a while and then times out once, while its connector starts, is not one that has
     * been congested for a while.
     */
    private int networkFailures;
    private int congestionFailures;
    private final WakeSignal wakeSignal = new WakeSignal();

    final LongAdder sent = new LongAdder();
    final LongAdder batches = new LongAdder();
    final LongAdder failedBatches = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder expired = new LongAdder();
    /** Tasks dropped because a later cancel of their instance made them pointless. */
    final LongAdder superseded = new LongAdder();
    /** Tasks a drain sent to the peer and tasks it could not (a failed batch, the drain's time up). */
    final LongAdder drainedSent = new LongAdder();
    final LongAdder drainedDropped = new LongAdder();
    /** Backoffs ended early because the peer showed it is alive. */
    final LongAdder woken = new LongAdder();
    /** Enqueue to acknowledgement of each delivered task; a retried task keeps its first enqueue time. */
    final LagWindow lag;
    private final Consumer<Duration> delivered;

    TaskBatcher(String name, int maxPending, int batchSize, Duration delay, Clock clock, Sleeper sleeper,
                Function<List<ReplicationTask>, Outcome> processor) {
        this(name, maxPending, batchSize, delay, clock, sleeper, processor, lag -> { });
    }

    /** @param delivered told the lag of each acknowledged task, beside {@link #lag} */
    TaskBatcher(String name, int maxPending, int batchSize, Duration delay, Clock clock, Sleeper sleeper,
                Function<List<ReplicationTask>, Outcome> processor, Consumer<Duration> delivered) {
        this.name = name;
        this.maxPending = maxPending;
        this.batchSize = batchSize;
        this.delay = delay;
        this.clock = clock;
        this.sleeper = sleeper;
        this.processor = processor;
        this.lag = new LagWindow(clock);
        this.delivered = delivered;
    }

    /** Starts the worker thread that sends batches as they fall due. */
    void start() {
        Thread t = new Thread(this::work, name);
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /** Queues the task; ignored once closing (nobody would send it). */
    void offer(ReplicationTask task) {
        lock.lock();
        try {
            if (!running || draining) {
                return;
            }
            if (task instanceof ReplicationTask.Cancel) {
                for (ReplicationAction action : ReplicationTask.SUPERSEDED_BY_CANCEL) {
                    if (pending.remove(ReplicationTask.key(action, task.app(), task.id())) != null) {
                        superseded.increment();
                    }
                }
            }
            Pending previous = pending.get(task.key());
            if (previous == null && pending.size() >= maxPending) {
                Iterator<Map.Entry<String, Pending>> oldest = pending.entrySet().iterator();
                oldest.next();
                oldest.remove();
                dropped.increment();
            }
            // a replacement keeps the original place and enqueue time, so a steady stream of updates cannot
            // starve it, and the first entry stays the oldest (which is what the delay is measured from)
            pending.put(task.key(), new Pending(task, previous == null ? clock.instant() : previous.enqueued));
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    int queueDepth() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends one batch if one is due (and backs off after a failure); returns false when none was due. A processor
     * that throws counts as a failed batch: a bug in one batch must not end replication to this peer.
     */
    boolean runOnce() throws InterruptedException {
        List<Pending> batch = takeDue();
        if (batch == null) {
            return false;
        }
        if (batch.isEmpty()) {
            return true;   // everything taken had expired
        }
        Outcome outcome;
        try {
            outcome = processor.apply(batch.stream().map(Pending::task).toList());
        } catch (RuntimeException e) {
            failedBatches.increment();
            return true;
        }
        batches.increment();
        switch (outcome) {
            case SUCCESS -> {
                sent.add(batch.size());
                networkFailures = 0;
                congestionFailures = 0;
                Instant acknowledged = clock.instant();
                for (Pending p : batch) {
                    Duration taken = Duration.between(p.enqueued, acknowledged);
                    lag.record(taken);
                    delivered.accept(taken);
                }
            }
            case CONGESTION -> retryLater(batch, CONGESTION_BACKOFF);
            case TRANSIENT_FAILURE -> retryLater(batch, NETWORK_BACKOFF);
            case PERMANENT_FAILURE -> {
                failedBatches.increment();
                dropped.add(batch.size());
            }
        }
        return true;
    }

    private void work() {
        try {
            while (running && !draining) {
                awaitDue();
                if (!draining) {
                    runOnce();
                }
            }
        } catch (InterruptedException e) {
            if (!draining) {
                Thread.currentThread().interrupt();   // closed without a drain
                return;
            }
        }
        drainQueued();
    }

    /**
     * What is queued goes out in batches at once, each tried once: a failure drops its batch rather than backing
     * off, and what is left when {@link #DRAIN} ends is dropped. Counted as usual.
     */
    private void drainQueued() {
        while (running) {
            List<Pending> taken;
            lock.lock();
            try {
                taken = takeBatch();
            } finally {
                lock.unlock();
            }
            if (taken.isEmpty()) {
                return;
            }
            if (clock.instant().isAfter(drainUntil)) {
                lock.lock();
                try {
                    dropped.add(taken.size() + pending.size());
                    drainedDropped.add(taken.size() + pending.size());
                    pending.clear();
                } finally {
                    lock.unlock();
                }
                return;
            }
            List<ReplicationTask> live = unexpired(taken).stream().map(Pending::task).toList();
            if (live.isEmpty()) {
                continue;
            }
            Outcome outcome;
            try {
                outcome = processor.apply(live);
            } catch (RuntimeException e) {
                outcome = Outcome.PERMANENT_FAILURE;
            }
            batches.increment();
            if (outcome == Outcome.SUCCESS) {
                sent.add(live.size());
                drainedSent.add(live.size());
            } else {
                failedBatches.increment();
                dropped.add(live.size());
                drainedDropped.add(live.size());
            }
        }
    }

    private void awaitDue() throws InterruptedException {
        lock.lock();
        try {
            long wait;
            while (running && !draining && (wait = nanosUntilDue()) > 0) {
                if (wait == Long.MAX_VALUE) {
                    changed.await();
                } else {
                    changed.awaitNanos(wait);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** 0 when a batch is due now, Long.MAX_VALUE when nothing is pending. Called with the lock held. */
    private long nanosUntilDue() {
        if (pending.isEmpty()) {
            return Long.MAX_VALUE;
        }
        if (pending.size() >= batchSize) {
            return 0;
        }
        Instant oldest = pending.values().iterator().next().enqueued;
        Duration left = delay.minus(Duration.between(oldest, clock.instant()));
        return left.isNegative() ? 0 : left.toNanos();
    }

    /** The due tasks that have not expired, or null when no batch is due. */
    private List<Pending> takeDue() {
        List<Pending> taken;
        lock.lock();
        try {
            if (!running || nanosUntilDue() > 0) {
                return null;
            }
            taken = takeBatch();
        } finally {
            lock.unlock();
        }
        return unexpired(taken);
    }

    /** Up to a batch from the head of the queue, taken out of it. Called with the lock held. */
    private List<Pending> takeBatch() {
        List<Pending> taken = new ArrayList<>(Math.min(batchSize, pending.size()));
        Iterator<Pending> it = pending.values().iterator();
        while (it.hasNext() && taken.size() < batchSize) {
            taken.add(it.next());
            it.remove();
        }
        return taken;
    }

    /** The tasks that have not expired; the others are counted and left out. */
    private List<Pending> unexpired(List<Pending> taken) {
        List<Pending> batch = new ArrayList<>(taken.size());
        Instant now = clock.instant();
        for (Pending p : taken) {
            if (p.task.expiresAt().isBefore(now)) {
                expired.increment();
            } else {
                batch.add(p);
            }
        }
        return batch;
    }

    /** Puts the batch back unless newer tasks for the same keys arrived meanwhile, then backs off. */
    private void retryLater(List<Pending> batch, Duration base) throws InterruptedException {
        failedBatches.increment();
        lock.lock();
        try {
            // the first enqueue time is kept: the lag a peer outage causes is what the lag figures are for
            for (Pending p : batch) {
                if (cancelledSince(p.task)) {
                    superseded.increment();
                } else if (!pending.containsKey(p.task.key()) && pending.size() < maxPending) {
                    pending.put(p.task.key(), p);
                }
            }
        } finally {
            lock.unlock();
        }
        boolean network = base == NETWORK_BACKOFF;
        int failures = network ? (networkFailures = Math.min(networkFailures + 1, 16))
                : (congestionFailures = Math.min(congestionFailures + 1, 16));
        long backoff = Math.min((network ? MAX_NETWORK_BACKOFF : MAX_BACKOFF).toMillis(),
                base.toMillis() << Math.min(failures - 1, 8));
        backingOff = true;   // before reading draining: startDraining writes draining before reading this
        try {
            // a peer that shows it is alive (it syncs from us, replicates to us) ends either backoff: one that is
            // congested gets at most two attempts a second from it (the wake's floor), not one per batch it sends
            if (!draining && sleeper.sleepUnlessWoken(Duration.ofMillis(backoff), wakeSignal)) {
                // the peer is alive: if this attempt fails too (its connector not accepting yet), the backoff starts
                // over from its first step instead of waiting its longest again
                networkFailures = 0;
                congestionFailures = 0;
            }
        } catch (InterruptedException e) {
            if (!draining) {
                throw e;
            }
        } finally {
            backingOff = false;
        }
    }

    /** Whether a cancel of the task's instance was queued while the task was out for sending. Lock held. */
    private boolean cancelledSince(ReplicationTask task) {
        return !(task instanceof ReplicationTask.Cancel)
                && pending.containsKey(ReplicationTask.key(ReplicationAction.CANCEL, task.app(), task.id()));
    }

    /**
     * The peer showed it is alive: a backoff in progress ends (no sooner than {@link WakeSignal#FLOOR} after it
     * began). Returns whether one was in progress.
     */
    boolean wake() {
        boolean was = wakeSignal.wake();
        if (was) {
            woken.increment();
        }
        return was;
    }

    /**
     * The node is stopping: no new task is taken, and the worker sends what is queued at once, each batch tried
     * once, for at most {@link #DRAIN} (a backoff in progress ends). Returns at once; {@link #close} waits for it.
     * Every peer's drain is started before any is waited for, so that a node with several peers stops in one
     * drain's time.
     */
    void startDraining() {
        lock.lock();
        try {
            if (draining) {
                return;
            }
            drainUntil = clock.instant().plus(DRAIN);
            draining = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        Thread t = worker;
        if (t != null && backingOff) {
            t.interrupt();
        }
    }

    /**
     * Stops sending. After {@link #startDraining}, first waits (up to the drain's end and a second) for the queued
     * tasks to go out; otherwise what is still queued is dropped. A backoff in progress is interrupted.
     */
    @Override
    public void close() {
        Thread t = worker;
        if (t != null && draining) {
            try {
                Duration left = Duration.between(clock.instant(), drainUntil);
                t.join(Math.max(1, left.toMillis()) + 1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running = false;
        if (t == null) {
            return;
        }
        t.interrupt();
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
