package io.muster.registry;

import java.util.HashMap;
import java.util.Map;

/**
 * Who holds the registry's heap budget: each application's instances, and the instances each client address
 * registered here, so that one application or one client that fills the registry leaves room for every other
 * application's new instances. Only a client's write that grows the registry is refused; peers' writes are counted
 * (an application's share is all of its instances) but never refused, as with the instance counts, since the peer
 * admitted them under its own shares.
 *
 * <p>Thread safety: guarded by the registry's change lock.
 */
final class HeapShares {
    private final long perApp;
    private final long perClient;
    private final Map<String, long[]> byApp = new HashMap<>();
    private final Map<String, long[]> byClient = new HashMap<>();

    /**
     * @param perApp    the most estimated heap one application's instances may take
     * @param perClient the most estimated heap the instances one client address registered may take
     */
    HeapShares(long perApp, long perClient) {
        this.perApp = perApp;
        this.perClient = perClient;
    }

    /**
     * The refusal for a client's write that would grow {@code app} by {@code appGrowth} and what {@code client}
     * holds by {@code clientGrowth}, or null. Only growth is refused: an instance that keeps or loses weight, or
     * a holder already past its share (the share was lowered) re-registering the same instance, always passes.
     */
    RegistryFullException refusal(String app, long appGrowth, String client, long clientGrowth) {
        long appHeld = held(byApp, app);
        if (appGrowth > 0 && appHeld + appGrowth > perApp) {
            return new RegistryFullException(Refusal.MAX_APP_BYTES, "application " + app + " takes an estimated "
                    + mb(appHeld) + " MB of heap, the most one application may take is " + mb(perApp)
                    + " MB (eureka.server.maxAppHeapPercent)");
        }
        long clientHeld = client == null ? 0 : held(byClient, client);
        if (client != null && clientGrowth > 0 && clientHeld + clientGrowth > perClient) {
            return new RegistryFullException(Refusal.MAX_CLIENT_BYTES, "instances registered from " + client
                    + " take an estimated " + mb(clientHeld) + " MB of heap, the most one client address may take is "
                    + mb(perClient) + " MB (eureka.server.maxClientHeapPercent)");
        }
        return null;
    }

    /**
     * An instance of {@code app} that weighed {@code before} for {@code from} now weighs {@code after} for
     * {@code to} (either may be null: nobody's; after 0: removed). A holder left with nothing is forgotten.
     */
    void moved(String app, String from, long before, String to, long after) {
        add(byApp, app, after - before);
        if (from != null) {
            add(byClient, from, -before);
        }
        if (to != null) {
            add(byClient, to, after);
        }
    }

    /** Client addresses holding part of the budget (for tests: departed clients leave nothing). */
    int clients() {
        return byClient.size();
    }

    private static void add(Map<String, long[]> holders, String key, long weight) {
        if (weight == 0) {
            return;
        }
        long[] held = holders.computeIfAbsent(key, k -> new long[1]);
        held[0] += weight;
        if (held[0] <= 0) {
            holders.remove(key);
        }
    }

    private static long held(Map<String, long[]> holders, String key) {
        long[] held = holders.get(key);
        return held == null ? 0 : held[0];
    }

    private static long mb(long bytes) {
        return bytes / (1024 * 1024);
    }
}
