package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The delta queue: each visible change with the time it was made, kept for the retention window (3 minutes by
 * default) so clients polling every 30 s see every change at least once.
 *
 * <p>Thread safety: none of its own; the registry calls it only while holding its change lock.
 */
final class RecentChanges {
    /**
     * A change and the instance as it was right after it (a removed instance as it was when removed). Only the
     * newest entry of an instance is ever read; one a later change of the same instance superseded stays in the
     * queue for its time only and lets go of its state, so that a fleet re-registering keeps one instance per
     * instance in the window, not one per registration (it used to pin every decoded copy for three minutes, the
     * bulk of the old generation the collector marks under churn).
     */
    static final class Entry {
        private final Instant at;
        private InstanceInfo state;

        Entry(Instant at, InstanceInfo state) {
            this.at = at;
            this.state = state;
        }

        Instant at() {
            return at;
        }

        /** The instance after this change; null once a later change of it superseded this one. */
        InstanceInfo state() {
            return state;
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    /**
     * The newest entry per instance, by app and then id, in the order the instances entered the window (a later
     * change keeps its instance's place): kept as entries come and go, because the delta is read twice a second and
     * the queue holds every change of the last three minutes (tens of thousands under churn).
     */
    private final Map<String, LinkedHashMap<String, Entry>> latestByApp = new HashMap<>();
    /** Apps whose newest entries changed since the last {@link #drainChangedApps}. */
    private final Set<String> changedApps = new HashSet<>();
    private final Duration retention;

    RecentChanges(Duration retention) {
        this.retention = retention;
    }

    void add(Instant at, InstanceInfo state) {
        Entry e = new Entry(at, state);
        entries.addLast(e);
        LinkedHashMap<String, Entry> latest = latestByApp.computeIfAbsent(state.app(), a -> new LinkedHashMap<>());
        // in place: an app's delta keeps its order while its instances change, so the end of its encoded segment
        // (the next app's compression dictionary, RegistrySegments) changes only when its last instance does
        Entry superseded = latest.put(state.id(), e);
        if (superseded != null) {
            superseded.state = null;
        }
        changedApps.add(state.app());
    }

    /** Drops entries older than the retention window; returns how many were dropped. */
    int purge(Instant now) {
        Instant cutoff = now.minus(retention);
        int dropped = 0;
        while (!entries.isEmpty() && entries.peekFirst().at().isBefore(cutoff)) {
            Entry e = entries.removeFirst();
            dropped++;
            if (e.state() == null) {
                continue;   // superseded: the newest entry of its instance is later in the queue
            }
            String app = e.state().app();
            LinkedHashMap<String, Entry> latest = latestByApp.get(app);
            // unless a later change of the same instance is still in the window
            if (latest != null && latest.remove(e.state().id(), e)) {
                changedApps.add(app);
                if (latest.isEmpty()) {
                    latestByApp.remove(app);
                }
            }
        }
        return dropped;
    }

    /** The last action per instance of one app, in the order they entered the window; empty when none. */
    Collection<Entry> latest(String app) {
        LinkedHashMap<String, Entry> latest = latestByApp.get(app);
        return latest == null ? List.of() : latest.values();
    }

    /** The instance as its latest change in the window left it (removed, when that change removed it), or null. */
    InstanceInfo latestOf(String app, String id) {
        LinkedHashMap<String, Entry> latest = latestByApp.get(app);
        Entry e = latest == null ? null : latest.get(id);
        return e == null ? null : e.state();
    }

    /** Hands over the apps whose entries changed since the last call, and forgets them. */
    void drainChangedApps(Consumer<String> to) {
        changedApps.forEach(to);
        changedApps.clear();
    }

    int size() {
        return entries.size();
    }
}
