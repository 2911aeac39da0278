package io.muster.replication;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How replication waits between retries. Production sleeps for real, and ends a backoff early when the peer
 * shows it is alive; a test passes one that records the wait and moves its clock, so backoff can be checked without
 * taking the time it describes.
 */
@FunctionalInterface
interface Sleeper {
    Sleeper REAL = new Sleeper() {
        @Override
        public void sleep(Duration duration) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        }

        @Override
        public boolean sleepUnlessWoken(Duration duration, WakeSignal wake) throws InterruptedException {
            return wake.await(duration);
        }
    };

    void sleep(Duration duration) throws InterruptedException;

    /**
     * A backoff that {@link WakeSignal#wake} may end early; returns whether it did. A recording sleeper just records
     * it.
     */
    default boolean sleepUnlessWoken(Duration duration, WakeSignal wake) throws InterruptedException {
        sleep(duration);
        return false;
    }
}
