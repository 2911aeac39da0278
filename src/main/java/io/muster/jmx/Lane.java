package io.muster.jmx;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One of the server's task lanes (a thread each, see the bootstrap's RegistryServer). An operator's "now" runs
 * there, not on the JMX thread: the lane's tasks are written for its one thread (the cluster check's records, the
 * snapshot file), and a manual run then queues behind the periodic one instead of racing it.
 */
@FunctionalInterface
public interface Lane {
    /** Runs the task once, soon, on the lane's thread; dropped when the lane has stopped. */
    void once(String name, Runnable task);

    /**
     * Runs the task on the lane and waits for its answer.
     *
     * @throws IllegalStateException when it failed or did not finish in time (it may still be running then)
     */
    default String call(String name, Supplier<String> task, Duration timeout) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        once(name, () -> {
            try {
                answer.complete(task.get());
            } catch (RuntimeException | Error e) {
                answer.completeExceptionally(e);
                throw e;
            }
        });
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(name + " did not finish within " + timeout.toSeconds() + " s (the lane"
                    + " is busy or the server is stopping); it may still run: see the server log");
        } catch (ExecutionException e) {
            // the message only: a remote console may not have the cause's class
            throw new IllegalStateException(name + " failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + " was interrupted while waiting");
        }
    }
}
