package io.muster.testing;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Polls until what a test waits for holds, and fails with what it saw last when it does not within the bound: a
 * wait never falls through silently, and its failure says how far the system got.
 */
public final class Await {
    private static final Duration POLL = Duration.ofMillis(50);

    private Await() {
    }

    /**
     * Reads {@code probe} until {@code done} accepts a value, and returns that value.
     *
     * @throws AssertionError naming {@code what}, the bound and the last value read, when the bound passes first
     */
    public static <T> T until(String what, Duration bound, Supplier<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + bound.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(what + ": not within " + describe(bound) + "; last seen: " + last);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(what + ": interrupted while waiting; last seen: " + last, e);
            }
            last = probe.get();
        }
        return last;
    }

    /** {@link #until} for a condition with nothing to show but itself. */
    public static void until(String what, Duration bound, java.util.function.BooleanSupplier condition) {
        until(what, bound, condition::getAsBoolean, Boolean::booleanValue);
    }

    private static String describe(Duration bound) {
        return bound.toMillis() % 1000 == 0 ? bound.toSeconds() + " s" : bound.toMillis() + " ms";
    }
}
