package io.muster.registry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether reads may be answered. A node whose registry is known to be incomplete answers reads with 403 for a
 * while (Java clients then ask another server) instead of telling clients that nothing is registered. Writes are
 * never gated.
 *
 * <p>Departure from Eureka, which holds reads whenever the start-up sync copied nothing: here only a node that
 * could reach none of its peers holds reads, because only then does it not know what the cluster holds. A peer
 * that answers, even with an empty registry, is a definite answer; a node without peers (its own URL dropped)
 * has nothing to wait for. A held node opens as soon as a later sync succeeds or the wait ends.
 *
 * <p>Thread safety: state is published through volatile fields; opened by the start-up thread, released by the
 * thread of the start-up sync's retries (the peers lane).
 */
public final class TrafficGate {
    /** What the start-up sync found. */
    public enum SyncOutcome {
        /** No peer besides this node: nothing to copy, nothing to wait for. */
        NO_PEERS,
        /** A peer that is not itself waiting answered (with instances, or with none). */
        PEER_ANSWERED,
        /**
         * Every peer that answered is itself waiting for its peers (a whole-cluster restart, or a cluster started
         * together): what they hold was copied, and this node adds its own snapshot. Reads open at once.
         */
        PEERS_WAITING,
        /** Not one peer could be reached. */
        EVERY_PEER_UNREACHABLE
    }

    private final Clock clock;
    private volatile Instant openedAt;
    private volatile Instant readsAllowedFrom;

    public TrafficGate(Clock clock) {
        this.clock = clock;
    }

    /**
     * Opens for traffic after the start-up sync; returns true when reads are held back.
     *
     * @param neverHold true when the operator asked to open regardless (Spring's defaultOpenForTrafficCount > 0)
     */
    public boolean open(SyncOutcome outcome, Duration waitWhenUnreachable, boolean neverHold) {
        Instant now = clock.instant();
        boolean hold = outcome == SyncOutcome.EVERY_PEER_UNREACHABLE && !neverHold && !waitWhenUnreachable.isZero();
        readsAllowedFrom = hold ? now.plus(waitWhenUnreachable) : now;
        openedAt = now;
        return hold;
    }

    /** A sync succeeded after the start: reads may be answered from now. Returns true if reads were held. */
    public boolean release() {
        Instant from = readsAllowedFrom;
        Instant now = clock.instant();
        if (from != null && now.isBefore(from)) {
            readsAllowedFrom = now;
            return true;
        }
        return false;
    }

    public boolean isOpen() {
        return openedAt != null;
    }

    /** Whether reads are still held back waiting for a peer (then a background sync is worth trying). */
    public boolean isHoldingReads() {
        Instant from = readsAllowedFrom;
        return from != null && clock.instant().isBefore(from);
    }

    public boolean allowsReads() {
        Instant from = readsAllowedFrom;
        return from != null && !clock.instant().isBefore(from);
    }

    /** When reads open at the latest, or null once they are open. */
    public Instant readsHeldUntil() {
        return isHoldingReads() ? readsAllowedFrom : null;
    }
}
