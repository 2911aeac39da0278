package io.muster.replication;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How replication waits between retries. Production sleeps for real; a test passes one that records the wait and
 * moves its clock, so backoff can be checked without taking the time it describes.
 */
@FunctionalInterface
interface Sleeper {
    Sleeper REAL = d -> TimeUnit.NANOSECONDS.sleep(d.toNanos());

    void sleep(Duration duration) throws InterruptedException;
}
