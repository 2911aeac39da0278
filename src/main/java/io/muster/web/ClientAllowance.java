package io.muster.web;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Slots per client address ({@link ClientShares}) together with the bytes they hold, against a budget: what
 * large answers in flight and request bodies still arriving may take of the heap.
 *
 * <p>Thread safety: lock-free, as its shares.
 */
final class ClientAllowance {
    private final ClientShares shares;
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();

    ClientAllowance(int total, int perClient, long maxBytes) {
        this.shares = new ClientShares(total, perClient);
        this.maxBytes = maxBytes;
    }

    /** Why a slot holding {@code length} bytes was refused, or null when it was taken (release it). */
    String acquire(String client, long length) {
        if (!grow(length)) {
            return "the server's limit of " + (maxBytes >> 20) + " MB is reached";
        }
        String refused = shares.acquire(client);
        if (refused != null) {
            bytes.addAndGet(-length);
        }
        return refused;
    }

    /** Adds to the bytes a taken slot holds; false (nothing added) when the budget has no room. */
    boolean grow(long more) {
        if (bytes.addAndGet(more) > maxBytes) {
            bytes.addAndGet(-more);
            return false;
        }
        return true;
    }

    void release(String client, long length) {
        shares.release(client);
        bytes.addAndGet(-length);
    }

    int used() {
        return shares.used();
    }
}
