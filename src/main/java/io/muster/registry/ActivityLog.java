package io.muster.registry;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The last registrations, cancellations, evictions and status changes, newest first, for the dashboard's
 * timeline (Eureka keeps the last 1,000 registered and cancelled). Bounded; oldest entries fall off.
 *
 * <p>Thread safety: appended under the registry's change lock; {@link #recent()} copies under its own monitor.
 */
public final class ActivityLog {
    public record Activity(Instant at, String kind, String app, String id, String status) {
    }

    private final int capacity;
    private final ArrayDeque<Activity> entries;

    ActivityLog(int capacity) {
        this.capacity = capacity;
        this.entries = new ArrayDeque<>(capacity);
    }

    void add(Activity a) {
        synchronized (entries) {
            if (entries.size() == capacity) {
                entries.removeLast();
            }
            entries.addFirst(a);
        }
    }

    public List<Activity> recent() {
        synchronized (entries) {
            return new ArrayList<>(entries);
        }
    }
}
