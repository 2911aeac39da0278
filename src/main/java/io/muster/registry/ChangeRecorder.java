package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the registry tells about each change: its sequence number, the delta queue, the activity log, and the
 * listeners (replication, caches, change streams, the journal).
 *
 * <p>Thread safety: {@link #record} and the publishing of a visible change run under the registry's change lock,
 * so sequence, delta queue and listener calls follow one order; {@link #sequence} is read without it (volatile).
 * A plain heartbeat is published without the lock: it changes nothing a reader sees.
 */
final class ChangeRecorder {
    private static final Logger TRACE = Logger.getLogger(InstanceRegistry.class.getName() + ".trace");
    private final RecentChanges recentChanges;
    private final ActivityLog activity = new ActivityLog(1000);
    private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();
    /** Told the app of each recorded change (the read views drop what they built of it). */
    private final Consumer<String> appChanged;
    private volatile long sequence;

    ChangeRecorder(Duration deltaRetention, Consumer<String> appChanged) {
        this.recentChanges = new RecentChanges(deltaRetention);
        this.appChanged = appChanged;
    }

    void addListener(RegistryListener listener) {
        listeners.add(listener);
    }

    /** A change clients can see: numbered, queued for deltas, logged (under the change lock). */
    void record(Instant now, InstanceInfo instance, String what) {
        sequence++;
        recentChanges.add(now, instance);
        appChanged.accept(instance.app());
        activity.add(new ActivityLog.Activity(now, what, instance.app(), instance.id(), instance.status().name()));
    }

    void publish(RegistryChange change) {
        if (change.isVisible() && TRACE.isLoggable(Level.FINE)) {
            // every visible write, for tracing one instance across nodes (off unless an operator turns it on)
            InstanceInfo i = change.instance();
            TRACE.fine(change.getClass().getSimpleName() + " " + i.app() + "/" + i.id() + " " + i.status()
                    + " dirty " + i.lastDirtyTimestamp() + " from " + origin(change) + " seq " + change.sequence());
        }
        for (RegistryListener l : listeners) {
            l.onChange(change);
        }
    }

    /** After a cancel, once the change lock is released (listeners may do I/O then). */
    void afterCancel() {
        listeners.forEach(RegistryListener::afterCancel);
    }

    /** The number of the last visible change. */
    long sequence() {
        return sequence;
    }

    RecentChanges recentChanges() {
        return recentChanges;
    }

    /**
     * The version of an instance removed here within the delta window, or {@code Long.MIN_VALUE} (under the
     * change lock).
     */
    long removedVersion(String app, String id) {
        InstanceInfo last = recentChanges.latestOf(app, id);
        return last != null && last.actionType() == ActionType.DELETED ? last.lastDirtyTimestamp() : Long.MIN_VALUE;
    }

    ActivityLog activity() {
        return activity;
    }

    private static Object origin(RegistryChange change) {
        if (change instanceof RegistryChange.Registered r) {
            return r.origin();
        } else if (change instanceof RegistryChange.Cancelled c) {
            return c.origin();
        } else if (change instanceof RegistryChange.Renewed r) {
            return r.origin();
        } else if (change instanceof RegistryChange.StatusChanged c) {
            return c.origin();
        } else if (change instanceof RegistryChange.OverrideDeleted d) {
            return d.origin();
        }
        return "EVICTION";
    }
}
