package io.muster.registry;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Renewals counted per wall-clock minute; {@link #lastMinute()} reports the previous full minute, as Eureka's
 * {@code MeasuredRate} does, but with buckets derived from the clock instead of a timer thread per counter.
 *
 * <p>Thread safety: lock-free. An increment racing a minute rollover may land in the bucket that just closed;
 * the count is a rate estimate, so that is accepted.
 */
public final class RenewalRate {
    private record Bucket(long minute, LongAdder count) {
    }

    private final Clock clock;
    private final AtomicReference<Bucket> current;
    private final AtomicReference<Bucket> previous;

    public RenewalRate(Clock clock) {
        this.clock = clock;
        long minute = minuteNow();
        this.current = new AtomicReference<>(new Bucket(minute, new LongAdder()));
        this.previous = new AtomicReference<>(new Bucket(minute - 1, new LongAdder()));
    }

    public void increment() {
        bucketFor(minuteNow()).count.increment();
    }

    /** Renewals during the last complete minute. */
    public long lastMinute() {
        long minute = minuteNow();
        Bucket cur = current.get();
        if (cur.minute == minute - 1) {
            return cur.count.sum();
        }
        Bucket prev = previous.get();
        return cur.minute == minute && prev.minute == minute - 1 ? prev.count.sum() : 0;
    }

    private Bucket bucketFor(long minute) {
        Bucket cur = current.get();
        while (cur.minute < minute) {
            Bucket next = new Bucket(minute, new LongAdder());
            if (current.compareAndSet(cur, next)) {
                previous.set(cur);
                return next;
            }
            cur = current.get();
        }
        return cur;
    }

    private long minuteNow() {
        return Math.floorDiv(clock.millis(), 60_000L);
    }
}
