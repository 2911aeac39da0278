package io.muster.replication;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Replication lag samples (a write's enqueue to the peer's acknowledgement) of the last minute, for p50/p99. Bounded:
 * beyond {@link #MAX_SAMPLES} the oldest go first, so a burst costs memory once and not per write.
 *
 * <p>Thread safety: recorded by the batcher's thread, read by scrapes; every method is synchronized (cheap next to
 * an HTTP batch).
 */
final class LagWindow {
    static final int MAX_SAMPLES = 4096;
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private record Sample(Instant at, long nanos) {
    }

    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private final Clock clock;

    LagWindow(Clock clock) {
        this.clock = clock;
    }

    synchronized void record(Duration lag) {
        if (samples.size() >= MAX_SAMPLES) {
            samples.removeFirst();
        }
        samples.addLast(new Sample(clock.instant(), Math.max(0, lag.toNanos())));
    }

    /** The quantile (0..1) in seconds over the last minute; NaN when nothing was acknowledged in it. */
    synchronized double quantileSeconds(double q) {
        Instant from = clock.instant().minus(WINDOW);
        while (!samples.isEmpty() && samples.peekFirst().at().isBefore(from)) {
            samples.removeFirst();
        }
        if (samples.isEmpty()) {
            return Double.NaN;
        }
        long[] sorted = samples.stream().mapToLong(Sample::nanos).toArray();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(q * sorted.length) - 1;   // nearest rank
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e9;
    }
}
