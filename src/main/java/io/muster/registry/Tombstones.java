package io.muster.registry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cancellations of the recent window: for each cancelled instance ("APP/id"), the version the cancel superseded
 * (a dirty timestamp: a client's cancel supersedes every registration made before it, see
 * {@link InstanceRegistry#cancel}) and when that was. Recorded for every cancel, a client's or a peer's; expiries are not
 * cancellations (every node evicts on its own clock, and an instance one node evicted may be alive on another).
 * Also handed over: from the cancellation journal at start and from the peer a node syncs from, so a node that was
 * away knows what was cancelled meanwhile.
 *
 * <p>What they decide: a replicated registration of an instance this node does not hold, no newer than a
 * cancellation of it here, is stale (a retry queued before the cancel, or a peer's copy that missed it) and is
 * refused; the cluster check does not copy a cancelled instance back; a client registering again is stamped past the
 * cancelled version, so that every peer takes its registration as newer.
 *
 * <p>Thread safety: a leaf monitor. Written under the registry's change lock, read from request threads (the
 * digest) and the cluster check; it never calls out while holding its monitor.
 */
public final class Tombstones {
    /** Bounded: at most this many cancellations are remembered, the oldest forgotten first. */
    public static final int MAX_ENTRIES = 10_000;

    private record Tombstone(long lastDirtyTimestamp, Instant at) {
    }

    private final Clock clock;
    private final Duration window;
    /** In order of {@code at}, oldest first (a handed-over entry older than the newest is placed by its time). */
    private final LinkedHashMap<String, Tombstone> entries = new LinkedHashMap<>();

    Tombstones(Clock clock, Duration window) {
        this.clock = clock;
        this.window = window;
    }

    public static String key(String app, String id) {
        return app + "/" + id;
    }

    /** A cancellation made or learnt now. */
    void cancelled(String app, String id, long lastDirtyTimestamp) {
        remember(app, id, lastDirtyTimestamp, clock.instant());
    }

    /**
     * A cancellation made elsewhere or before a restart, with its own time (so it leaves the window when it would
     * have). An entry no newer than what is known changes nothing.
     */
    public synchronized void remember(String app, String id, long lastDirtyTimestamp, Instant at) {
        String key = key(app, id);
        Tombstone known = entries.get(key);
        if (known != null && known.lastDirtyTimestamp >= lastDirtyTimestamp && !known.at.isBefore(at)) {
            return;
        }
        Tombstone merged = known == null ? new Tombstone(lastDirtyTimestamp, at)
                : new Tombstone(Math.max(known.lastDirtyTimestamp, lastDirtyTimestamp),
                known.at.isAfter(at) ? known.at : at);
        entries.remove(key);
        entries.put(key, merged);
        if (entries.size() > MAX_ENTRIES) {
            entries.remove(entries.keySet().iterator().next());
        }
    }

    /** The newest cancelled version of the instance inside the window, or {@code Long.MIN_VALUE}. */
    public synchronized long cancelledVersion(String app, String id) {
        Tombstone t = entries.get(key(app, id));
        return t == null || t.at.isBefore(clock.instant().minus(window)) ? Long.MIN_VALUE : t.lastDirtyTimestamp;
    }

    /** Every cancellation of the window, "APP/id" to its version (what peers read in the digest). */
    public synchronized Map<String, Long> recent() {
        Instant from = clock.instant().minus(window);
        Iterator<Tombstone> it = entries.values().iterator();
        while (it.hasNext() && it.next().at.isBefore(from)) {
            it.remove();   // nearly time order: a handed-over entry may sit after a newer one and leave a bit late
        }
        Map<String, Long> out = new HashMap<>();
        entries.forEach((k, t) -> {
            if (!t.at.isBefore(from)) {
                out.put(k, t.lastDirtyTimestamp);
            }
        });
        return out;
    }
}
