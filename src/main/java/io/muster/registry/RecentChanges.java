package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The delta queue: each visible change with the time it was made, kept for the retention window (3 minutes by
 * default) so clients polling every 30 s see every change at least once.
 *
 * <p>Thread safety: none of its own; the registry calls it only while holding its change lock.
 */
final class RecentChanges {
    /** A change and the instance as it was right after it (a removed instance as it was when removed). */
    record Entry(Instant at, InstanceInfo state) {
        String key() {
            return state.app() + '/' + state.id();
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final Duration retention;

    RecentChanges(Duration retention) {
        this.retention = retention;
    }

    void add(Instant at, InstanceInfo state) {
        entries.addLast(new Entry(at, state));
    }

    /** Drops entries older than the retention window; returns how many were dropped. */
    int purge(Instant now) {
        Instant cutoff = now.minus(retention);
        int dropped = 0;
        while (!entries.isEmpty() && entries.peekFirst().at().isBefore(cutoff)) {
            entries.removeFirst();
            dropped++;
        }
        return dropped;
    }

    /** The last action per instance (key {@code APP/id}), in order of each instance's latest change. */
    Map<String, Entry> latestByInstance() {
        Map<String, Entry> latest = new LinkedHashMap<>();
        for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            latest.remove(e.key());
            latest.put(e.key(), e);
        }
        return latest;
    }

    int size() {
        return entries.size();
    }
}
