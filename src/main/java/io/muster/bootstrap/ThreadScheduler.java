package io.muster.bootstrap;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The server's {@link Scheduler}: one lane of tasks on a single named daemon thread (the server runs several, see
 * {@link RegistryServer}; the name says which lane a thread dump is looking at). A task that throws is logged and
 * keeps its schedule (a bare {@link ScheduledExecutorService} silently cancels it, and a {@code Timer} dies). The
 * thread starts with the first task, so a lane nothing is given to costs no thread.
 *
 * <p>Thread safety: safe to call from any thread, also after {@link #close} (the task is dropped: the server is
 * stopping); a lane's tasks run one at a time, so they need no locking among themselves, but tasks on different
 * lanes run at the same time.
 */
final class ThreadScheduler implements Scheduler {
    private static final Logger LOG = Logger.getLogger(ThreadScheduler.class.getName());

    private final String name;
    private final ScheduledExecutorService executor;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** @param name the thread's name: the lane's, beginning with {@code muster-} (the leak checks look for that) */
    ThreadScheduler(String name) {
        this.name = name;
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name);
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
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (Throwable t) {
                    LOG.log(Level.WARNING, "Muster task " + name + " failed", t);
                }
            });
        } catch (RejectedExecutionException closed) {
            // a request or a registry listener racing the undeploy: nothing may throw at it for that
            LOG.fine("Muster task " + name + " dropped: lane " + this.name + " is closed");
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warning("Muster lane " + name + " did not stop within 5 s");
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
