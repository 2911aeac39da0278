package io.muster.registry;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Renewals counted per wall-clock minute; {@link #lastMinute()} reports the previous full minute, as Eureka's
 * {@code MeasuredRate} does, but with buckets derived from the clock instead of a timer thread per counter.
 * Heartbeats past an instance's allowance ({@link RenewalAllowance}) are kept apart, so the dashboard can say how
 * many were left out.
 *
 * <p>Thread safety: lock-free. An increment racing a minute rollover may land in the bucket that just closed;
 * the count is a rate estimate, so that is accepted.
 */
public final class RenewalRate {
    private record Bucket(long minute, LongAdder counted, LongAdder notCounted) {
        Bucket(long minute) {
            this(minute, new LongAdder(), new LongAdder());
        }
    }

    private final Clock clock;
    private final AtomicReference<Bucket> current;
    private final AtomicReference<Bucket> previous;

    public RenewalRate(Clock clock) {
        this.clock = clock;
        long minute = minuteOf(clock.instant());
        this.current = new AtomicReference<>(new Bucket(minute));
        this.previous = new AtomicReference<>(new Bucket(minute - 1));
    }

    /** The wall-clock minute an instant falls in: the unit of both the rate and the per-instance allowance. */
    static long minuteOf(Instant at) {
        return Math.floorDiv(at.toEpochMilli(), 60_000L);
    }

    /** A heartbeat at {@code at} that counts towards the rate. */
    public void increment(Instant at) {
        bucketFor(minuteOf(at)).counted.increment();
    }

    /** A heartbeat at {@code at} past its instance's allowance: kept, but not as a renewal. */
    void notCounted(Instant at) {
        bucketFor(minuteOf(at)).notCounted.increment();
    }

    /** Renewals during the last complete minute. */
    public long lastMinute() {
        Bucket last = lastComplete();
        return last == null ? 0 : last.counted.sum();
    }

    /** Heartbeats during the last complete minute left out of {@link #lastMinute()} for passing an allowance. */
    public long notCountedLastMinute() {
        Bucket last = lastComplete();
        return last == null ? 0 : last.notCounted.sum();
    }

    private Bucket lastComplete() {
        long minute = minuteOf(clock.instant());
        Bucket cur = current.get();
        if (cur.minute == minute - 1) {
            return cur;
        }
        Bucket prev = previous.get();
        return cur.minute == minute && prev.minute == minute - 1 ? prev : null;
    }

    private Bucket bucketFor(long minute) {
        Bucket cur = current.get();
        while (cur.minute < minute) {
            Bucket next = new Bucket(minute);
            if (current.compareAndSet(cur, next)) {
                previous.set(cur);
                return next;
            }
            cur = current.get();
        }
        return cur;
    }
}
