package io.muster.replication;

import java.time.Duration;

/**
 * Ends one sender's backoff early when its peer shows it is alive (it synced from this node, asked for its
 * digest, or replicated a write to it): a peer that is back should not wait out a backoff meant for one that is
 * down. A wake never ends a backoff sooner than {@link #FLOOR} after it began, so a peer that is alive but keeps
 * failing our sends (and keeps sending us its own) is tried at most twice a second, not at every batch it sends.
 *
 * <p>Thread safety: {@link #await} runs on the sender's thread, {@link #wake} on request threads; both synchronize
 * on this signal.
 */
final class WakeSignal {
    static final Duration FLOOR = Duration.ofMillis(500);

    private boolean waiting;
    private boolean woken;

    /**
     * Waits for {@code max}, or until woken (but at least {@link #FLOOR}, or {@code max} if shorter); returns whether
     * it was woken.
     */
    synchronized boolean await(Duration max) throws InterruptedException {
        long start = System.nanoTime();
        long end = start + max.toNanos();
        long floor = start + Math.min(FLOOR.toNanos(), max.toNanos());
        waiting = true;
        woken = false;
        try {
            for (long now = start; now - (woken ? floor : end) < 0; now = System.nanoTime()) {
                long left = (woken ? floor : end) - now;
                wait(Math.max(1, left / 1_000_000), 0);
            }
            return woken;
        } finally {
            waiting = false;
        }
    }

    /** Returns whether a backoff was in progress. */
    synchronized boolean wake() {
        if (!waiting || woken) {
            return false;
        }
        woken = true;
        notifyAll();
        return true;
    }
}
