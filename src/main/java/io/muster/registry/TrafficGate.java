package io.muster.registry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether reads may be answered. After a start-up sync with peers that copied nothing, this node's registry is
 * known to be incomplete, so reads answer 403 for a while (clients then ask another server) instead of telling
 * clients that nothing is registered. Writes are never gated. A node without peers has nothing to wait for.
 *
 * <p>Thread safety: state is published through volatile fields; opened once by the start-up thread.
 */
public final class TrafficGate {
    private final Clock clock;
    private volatile Instant openedAt;
    private volatile Instant readsAllowedFrom;

    public TrafficGate(Clock clock) {
        this.clock = clock;
    }

    /** @param emptySync true when peers were configured but the sync copied no instance */
    public void open(boolean emptySync, Duration waitWhenEmpty) {
        Instant now = clock.instant();
        readsAllowedFrom = emptySync ? now.plus(waitWhenEmpty) : now;
        openedAt = now;
    }

    public boolean isOpen() {
        return openedAt != null;
    }

    public boolean allowsReads() {
        Instant from = readsAllowedFrom;
        return from != null && !clock.instant().isBefore(from);
    }
}
