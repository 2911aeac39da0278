package io.muster.changes;

import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The last {@code capacity} visible changes, in a ring, and no more than {@code maxBytes} of them (large instances
 * churning must not hold tens of thousands of copies): what a stream resumes from after a reconnect
 * ({@code Last-Event-ID}), and what the dispatcher sends from. A reader further behind than the ring must start
 * over with a full fetch.
 *
 * <p>Thread safety: appended under the registry's change lock (one writer, O(1), then {@code onAppend}, which must
 * not block); read by the dispatcher; both synchronize on this.
 */
public final class ChangeLog implements RegistryListener {
    private final ChangeEvent[] ring;
    private final Runnable onAppend;
    private int head;      // index of the oldest event; guarded by this
    private int size;      // guarded by this
    private long lastId;   // guarded by this
    private long bytes;    // the events' weights together; guarded by this
    private final long maxBytes;

    public ChangeLog(int capacity, Runnable onAppend) {
        this(capacity, Long.MAX_VALUE, onAppend);
    }

    /** @param maxBytes the most the kept events may weigh together ({@link ChangeEvent#weight}); the newest is kept */
    public ChangeLog(int capacity, long maxBytes, Runnable onAppend) {
        this.ring = new ChangeEvent[capacity];
        this.maxBytes = maxBytes;
        this.onAppend = onAppend;
    }

    @Override
    public void onChange(RegistryChange change) {
        if (!change.isVisible()) {
            return;    // a plain heartbeat changes nothing a reader sees
        }
        ChangeEvent event = new ChangeEvent(change.sequence(), typeOf(change), change.instance());
        synchronized (this) {
            if (size == ring.length) {
                dropOldest();
            }
            ring[(head + size) % ring.length] = event;
            size++;
            bytes += event.weight();
            while (bytes > maxBytes && size > 1) {
                dropOldest();
            }
            lastId = event.id();
        }
        onAppend.run();
    }

    static String typeOf(RegistryChange change) {
        if (change instanceof RegistryChange.Registered r) {
            if (r.isNew()) {
                return "registered";
            }
            return Objects.equals(r.previous().metadata(), r.instance().metadata()) ? "updated" : "metadata";
        }
        if (change instanceof RegistryChange.Cancelled) {
            return "cancelled";
        }
        if (change instanceof RegistryChange.Expired) {
            return "expired";
        }
        if (change instanceof RegistryChange.OverrideDeleted) {
            return "override-deleted";
        }
        return "status";   // an override set, or a status a heartbeat changed
    }

    /** The newest event's id (0 before any). */
    public synchronized long lastId() {
        return lastId;
    }

    /**
     * Up to {@code max} events after {@code afterId}, oldest first; null when events after it have left the window
     * (or the id is from before this node's start: ids run from 1 again after a restart).
     */
    public synchronized List<ChangeEvent> after(long afterId, int max) {
        if (afterId > lastId) {
            return null;
        }
        if (afterId == lastId) {
            return List.of();
        }
        int start = size;   // walk back from the newest to the first event after afterId
        while (start > 0 && at(start - 1).id() > afterId) {
            start--;
        }
        if (start == 0 && at(0).id() > afterId + 1) {
            return null;   // ids are consecutive: a gap before the oldest kept event means events were dropped
        }
        List<ChangeEvent> out = new ArrayList<>(Math.min(max, size - start));
        for (int i = start; i < size && out.size() < max; i++) {
            out.add(at(i));
        }
        return out;
    }

    /** Under this. A reader that had not got past it gets a reset (the ids before the oldest kept are gone). */
    private void dropOldest() {
        bytes -= ring[head].weight();
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
    }

    private ChangeEvent at(int i) {
        return ring[(head + i) % ring.length];
    }
}
