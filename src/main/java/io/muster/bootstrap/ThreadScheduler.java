package io.muster.bootstrap;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The server's {@link Scheduler}: periodic tasks on a single named daemon thread. A task that throws is logged and keeps
 * its schedule (a bare {@link ScheduledExecutorService} silently cancels it, and a {@code Timer} dies).
 *
 * <p>Thread safety: safe to call from any thread; tasks run one at a time, so they need no locking among
 * themselves.
 */
final class ThreadScheduler implements Scheduler {
    private static final Logger LOG = Logger.getLogger(ThreadScheduler.class.getName());
    static final String THREAD_NAME = "muster-scheduler";

    private final ScheduledExecutorService executor;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    ThreadScheduler() {
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, THREAD_NAME);
            t.setDaemon(true);
            threads.add(t);
            return t;
        };
        executor = Executors.newSingleThreadScheduledExecutor(factory);
    }

    /**
     * Runs the task every period, start to start: the cache refresher rebuilds large payloads, and "every 500 ms"
     * must not become every 500 ms plus the rebuild time, or a change takes longer than a second to show. A run
     * that overruns its period delays the next one; runs never overlap.
     */
    @Override
    public Cancellable every(String name, Duration period, Runnable task) {
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(() -> {
            try {
                task.run();
            } catch (Throwable t) {   // keep the schedule whatever happens; the next run may succeed
                LOG.log(Level.WARNING, "Muster task " + name + " failed; it will run again in " + period, t);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void once(String name, Runnable task) {
        executor.execute(() -> {
            try {
                task.run();
            } catch (Throwable t) {
                LOG.log(Level.WARNING, "Muster task " + name + " failed", t);
            }
        });
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warning("Muster scheduler did not stop within 5 s");
            }
            // the pool reports termination a moment before its thread has exited; an undeploy must not see it
            for (Thread t : threads) {
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
