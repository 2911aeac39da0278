package io.muster.bootstrap;

import java.time.Duration;

/**
 * Runs the server's periodic and one-off tasks. An interface so that what is scheduled can be driven by a test
 * (run a task, move the clock) instead of waiting for a timer; production uses {@link ThreadScheduler}.
 */
interface Scheduler extends AutoCloseable {
    /** Runs the task every period, the first run one period from now, until cancelled or closed. */
    Cancellable every(String name, Duration period, Runnable task);

    /** Runs the task once, soon, on the scheduler's thread. */
    void once(String name, Runnable task);

    @Override
    void close();

    /** Stops a periodic task; a run in progress finishes. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }
}
