package io.muster.chaos;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the clients were told: for every instance, its last write that a node acknowledged with a 2xx (registered
 * with a status, or cancelled). An instance whose last write got no answer on any node is uncertain (the write may
 * or may not have happened) and is left out of the checks until a later write is acknowledged.
 */
final class Ledger {
    /** status null: cancelled; {@code at}: when it was acknowledged ({@link System#nanoTime}). */
    record Acked(String app, String status, long at) {
        boolean cancelled() {
            return status == null;
        }
    }

    private final Map<String, Acked> acked = new ConcurrentHashMap<>();
    private final Map<String, Boolean> uncertain = new ConcurrentHashMap<>();

    void registered(String id, String app, String status) {
        acked.put(id, new Acked(app, status, System.nanoTime()));
        uncertain.remove(id);
    }

    void cancelled(String id, String app) {
        acked.put(id, new Acked(app, null, System.nanoTime()));
        uncertain.remove(id);
    }

    void unanswered(String id) {
        uncertain.put(id, Boolean.TRUE);
    }

    /** The acknowledged state of every instance that is not uncertain. */
    Map<String, Acked> certain() {
        Map<String, Acked> out = new java.util.HashMap<>(acked);
        uncertain.keySet().forEach(out::remove);
        return out;
    }

    boolean isUncertain(String id) {
        return uncertain.containsKey(id);
    }

    int uncertainCount() {
        return uncertain.size();
    }
}
