package io.muster.snapshot;

import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cancellation journal's lock order before issue 23, kept as a test helper to show what the new order avoids:
 * {@link #replay} holds the journal's lock while it cancels through the registry (change lock), and
 * {@link #onChange}, under the change lock, takes the journal's lock to append. A plain lock stands for the old
 * journal's monitor; where the old code waited for ever, this one waits until interrupted, so the test that shows
 * the deadlock can still end (the old monitor could not be interrupted: both threads stayed stuck, and every
 * write to the registry behind them).
 *
 * <p>Thread safety: as the old journal's, which is the point.
 */
final class OldOrderJournal implements RegistryListener {
    private final ReentrantLock monitor = new ReentrantLock();
    private final String app;
    private final String id;
    private final long dirty;
    /** The cancel that gave up waiting for the journal while holding the change lock; set by the test's check. */
    volatile boolean appendGaveUp;

    /** @param app the one journalled entry replay goes through, with its instance's id and version */
    OldOrderJournal(String app, String id, long dirty) {
        this.app = app;
        this.id = id;
        this.dirty = dirty;
    }

    @Override
    public void onChange(RegistryChange change) {
        if (change instanceof RegistryChange.Cancelled c && c.origin() == Origin.CLIENT
                && !monitor.isHeldByCurrentThread()) {   // the old journal skipped its own replay's cancels
            try {
                if (!monitor.tryLock(1, TimeUnit.DAYS)) {
                    return;
                }
            } catch (InterruptedException e) {
                appendGaveUp = true;
                return;
            }
            try {
                // here the old code appended the line to the file
            } finally {
                monitor.unlock();
            }
        }
    }

    /** As the old {@code synchronized replay}: the entries read, remembered and cancelled, all under the lock. */
    int replay(InstanceRegistry registry, CancelJournal.Tombstones tombstones) {
        monitor.lock();
        try {
            tombstones.remember(app, id, dirty, Instant.EPOCH);
            return registry.cancel(app, id, Origin.CLIENT) ? 1 : 0;
        } finally {
            monitor.unlock();
        }
    }
}
