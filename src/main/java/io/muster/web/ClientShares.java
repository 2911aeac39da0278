package io.muster.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slots of a bounded resource (open streams, parked fetches, large answers in flight), with a total and a share
 * per client address, so that one client holding all it may still leaves room for every other client.
 *
 * <p>Thread safety: lock-free; an address's counter is removed when its last slot is released (a race may drop a
 * counter another thread just raised, which then counts again from its next acquire: at worst one extra slot).
 */
final class ClientShares {
    private final int total;
    private final int perClient;
    private final AtomicInteger used = new AtomicInteger();
    private final Map<String, AtomicInteger> byClient = new ConcurrentHashMap<>();

    ClientShares(int total, int perClient) {
        this.total = total;
        this.perClient = perClient;
    }

    /** Why a slot was refused, or null when one was taken (release it with {@link #release}). */
    String acquire(String client) {
        if (used.incrementAndGet() > total) {
            used.decrementAndGet();
            return "the server's limit of " + total + " is reached";
        }
        AtomicInteger mine = byClient.computeIfAbsent(client, c -> new AtomicInteger());
        if (mine.incrementAndGet() > perClient) {
            release(client);
            return "this client's share of " + perClient + " is in use";
        }
        return null;
    }

    void release(String client) {
        used.decrementAndGet();
        AtomicInteger mine = byClient.get(client);
        if (mine != null && mine.decrementAndGet() <= 0) {
            byClient.remove(client, mine);
        }
    }

    int used() {
        return used.get();
    }

    /** Addresses holding at least one slot (a client gone leaves nothing behind). */
    int clients() {
        return byClient.size();
    }
}
