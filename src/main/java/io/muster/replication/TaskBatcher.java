package io.muster.replication;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Batches replication tasks for one peer on one worker thread: a bounded pending map where a newer task for the
 * same key replaces the waiting one (so a burst of heartbeats for one instance costs one), batches of up to
 * {@code batchSize} sent once the oldest task has waited {@code delay} (default 25 ms, Eureka's is 500 ms), expired
 * tasks dropped unsent, and retry with exponential backoff on congestion (from 1 s) and network failures (from
 * 100 ms), capped at 30 s.
 *
 * <p>Thread safety: {@link #offer} may be called from any thread (it only takes a short lock); the pending map is
 * guarded by {@code lock}; the worker is the only thread that sends.
 */
final class TaskBatcher implements AutoCloseable {
    private static final Duration CONGESTION_BACKOFF = Duration.ofSeconds(1);
    private static final Duration NETWORK_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private record Pending(ReplicationTask task, long enqueuedNanos) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final LinkedHashMap<String, Pending> pending = new LinkedHashMap<>();
    private final int maxPending;
    private final int batchSize;
    private final long delayNanos;
    private final Clock clock;
    private final Function<List<ReplicationTask>, Outcome> processor;
    private final Thread worker;
    private volatile boolean running = true;
    private int consecutiveFailures;     // worker thread only

    final LongAdder sent = new LongAdder();
    final LongAdder batches = new LongAdder();
    final LongAdder failedBatches = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder expired = new LongAdder();
    final LongAdder replaced = new LongAdder();

    TaskBatcher(String name, int maxPending, int batchSize, Duration delay, Clock clock,
                Function<List<ReplicationTask>, Outcome> processor) {
        this.maxPending = maxPending;
        this.batchSize = batchSize;
        this.delayNanos = delay.toNanos();
        this.clock = clock;
        this.processor = processor;
        this.worker = new Thread(this::work, name);
        this.worker.setDaemon(true);
        this.worker.start();
    }

    void offer(ReplicationTask task) {
        lock.lock();
        try {
            Pending previous = pending.remove(task.key());
            if (previous != null) {
                replaced.increment();
            } else if (pending.size() >= maxPending) {
                Iterator<Map.Entry<String, Pending>> oldest = pending.entrySet().iterator();
                oldest.next();
                oldest.remove();
                dropped.increment();
            }
            // a replacement keeps the original enqueue time, so a steady stream of updates cannot starve it
            pending.put(task.key(), new Pending(task, previous == null ? System.nanoTime() : previous.enqueuedNanos));
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

    private void work() {
        while (running) {
            try {
                List<ReplicationTask> batch = nextBatch();
                if (batch.isEmpty()) {
                    continue;
                }
                Outcome outcome = processor.apply(batch);
                batches.increment();
                switch (outcome) {
                    case SUCCESS -> {
                        sent.add(batch.size());
                        consecutiveFailures = 0;
                    }
                    case CONGESTION -> retryLater(batch, CONGESTION_BACKOFF);
                    case TRANSIENT_FAILURE -> retryLater(batch, NETWORK_BACKOFF);
                    case PERMANENT_FAILURE -> {
                        failedBatches.increment();
                        dropped.add(batch.size());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // a bug in processing one batch must not end replication to this peer
                failedBatches.increment();
            }
        }
    }

    private List<ReplicationTask> nextBatch() throws InterruptedException {
        List<Pending> taken = new ArrayList<>();
        lock.lock();
        try {
            while (running && pending.isEmpty()) {
                changed.await();
            }
            while (running && pending.size() < batchSize) {
                long waited = System.nanoTime() - pending.values().iterator().next().enqueuedNanos;
                if (waited >= delayNanos) {
                    break;
                }
                changed.awaitNanos(delayNanos - waited);
            }
            Iterator<Pending> it = pending.values().iterator();
            while (it.hasNext() && taken.size() < batchSize) {
                taken.add(it.next());
                it.remove();
            }
        } finally {
            lock.unlock();
        }
        List<ReplicationTask> batch = new ArrayList<>(taken.size());
        var now = clock.instant();
        for (Pending p : taken) {
            if (p.task.expiresAt().isBefore(now)) {
                expired.increment();
            } else {
                batch.add(p.task);
            }
        }
        return batch;
    }

    /** Puts the batch back unless newer tasks for the same keys arrived meanwhile, then backs off. */
    private void retryLater(List<ReplicationTask> batch, Duration base) throws InterruptedException {
        failedBatches.increment();
        lock.lock();
        try {
            for (ReplicationTask t : batch) {
                if (!pending.containsKey(t.key()) && pending.size() < maxPending) {
                    pending.put(t.key(), new Pending(t, System.nanoTime()));
                }
            }
        } finally {
            lock.unlock();
        }
        consecutiveFailures = Math.min(consecutiveFailures + 1, 16);
        long backoff = Math.min(MAX_BACKOFF.toMillis(), base.toMillis() << Math.min(consecutiveFailures - 1, 8));
        TimeUnit.MILLISECONDS.sleep(backoff);
    }

    @Override
    public void close() {
        running = false;
        worker.interrupt();
        try {
            worker.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
