package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
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
    record Entry(Instant at, InstanceInfo state, String key) {
        Entry(Instant at, InstanceInfo state) {
            this(at, state, state.app() + '/' + state.id());
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    /**
     * The newest entry per instance (key {@code APP/id}), in order of each instance's latest change: kept as
     * entries come and go, because the delta is read twice a second and the queue holds every change of the
     * last three minutes (tens of thousands under churn).
     */
    private final LinkedHashMap<String, Entry> latest = new LinkedHashMap<>();
    private final Duration retention;

    RecentChanges(Duration retention) {
        this.retention = retention;
    }

    void add(Instant at, InstanceInfo state) {
        Entry e = new Entry(at, state);
        entries.addLast(e);
        latest.remove(e.key());   // so that it moves to the end
        latest.put(e.key(), e);
    }

    /** Drops entries older than the retention window; returns how many were dropped. */
    int purge(Instant now) {
        Instant cutoff = now.minus(retention);
        int dropped = 0;
        while (!entries.isEmpty() && entries.peekFirst().at().isBefore(cutoff)) {
            Entry e = entries.removeFirst();
            latest.remove(e.key(), e);   // unless a later change of the same instance is still in the window
            dropped++;
        }
        return dropped;
    }

    /** The last action per instance, in order of each instance's latest change. A live view: read under the lock. */
    Collection<Entry> latestByInstance() {
        return Collections.unmodifiableCollection(latest.values());
    }

    int size() {
        return entries.size();
    }
}
