package io.muster.snapshot;

import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The cancellations clients made on this node, appended to a file as they are acknowledged, so that one this node
 * acknowledged but had not yet replicated when it was killed is not lost with it. A cancellation has no second
 * chance otherwise: a lost registration comes back with the client's next heartbeat (404, register again), but a
 * cancelled client sends nothing more, and its copies on the peers would live out their leases (or be copied back
 * here by the start-up sync).
 *
 * <p>At start, after the sync from peers, {@link #replay} cancels again (and so replicates) every journalled
 * instance that came back no newer than it was cancelled, and hands every entry of the window to the cluster check
 * as a tombstone, so a copy on a peer this node did not sync from is cancelled there too.
 *
 * <p>The file is only appended to (no fsync: the page cache survives a killed process; a machine that loses power
 * loses its registry on every node anyway) and rewritten with the window's entries on each {@link #compact}.
 *
 * <p>Thread safety: {@link #onChange} runs under the registry's change lock; it and {@link #compact} and
 * {@link #replay} synchronize on this journal.
 */
public final class CancelJournal implements RegistryListener {
    private static final Logger LOG = Logger.getLogger(CancelJournal.class.getName());
    /** At most this many entries are kept (the cluster check remembers as many tombstones). */
    static final int MAX_ENTRIES = 10_000;

    /** One acknowledged cancellation: when, which instance, and the version (dirty timestamp) it had. */
    public record Entry(Instant at, String app, String id, long lastDirtyTimestamp) {
        String line() {
            return at.toEpochMilli() + "\t" + app + "\t" + id + "\t" + lastDirtyTimestamp + "\n";
        }

        static Entry parse(String line) {
            String[] f = line.split("\t", -1);
            if (f.length != 4) {
                return null;
            }
            try {
                return new Entry(Instant.ofEpochMilli(Long.parseLong(f[0])), f[1], f[2], Long.parseLong(f[3]));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** Where the replayed entries go: the cluster check's tombstones. */
    @FunctionalInterface
    public interface Tombstones {
        void remember(String app, String id, long lastDirtyTimestamp, Instant at);
    }

    private final Path file;
    private final Clock clock;
    private final Duration window;
    private FileChannel out;
    private int appended;
    private boolean replaying;
    private boolean broken;

    /** @param window how long a cancellation matters (the recent-changes retention, as for tombstones) */
    public CancelJournal(Path file, Clock clock, Duration window) {
        this.file = file;
        this.clock = clock;
        this.window = window;
    }

    /** The journal beside a snapshot file. */
    public static Path beside(Path snapshot) {
        return snapshot.resolveSibling(snapshot.getFileName() + ".cancels");
    }

    @Override
    public void onChange(RegistryChange change) {
        if (change instanceof RegistryChange.Cancelled c && c.origin() == Origin.CLIENT) {
            InstanceInfo i = c.instance();
            append(new Entry(clock.instant(), i.app(), i.id(), i.lastDirtyTimestamp()));
        }
    }

    private synchronized void append(Entry e) {
        if (replaying || broken) {
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(file.getParent());
                out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            }
            ByteBuffer bytes = ByteBuffer.wrap(e.line().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            appended++;
        } catch (IOException x) {
            broken = true;   // one warning, not one per cancel; the server goes on without the journal
            LOG.warning("Muster: cannot write the cancellation journal " + file + " (" + x
                    + "); cancellations acknowledged just before a crash may come back");
        }
    }

    /** The entries still inside the window, oldest first, at most {@link #MAX_ENTRIES}. */
    synchronized List<Entry> recent() {
        Instant from = clock.instant().minus(window);
        ArrayDeque<Entry> kept = new ArrayDeque<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            LOG.warning("Muster: cannot read the cancellation journal " + file + ": " + e);
            return List.of();
        }
        for (String line : lines) {
            Entry e = Entry.parse(line);
            if (e != null && !e.at().isBefore(from)) {
                kept.addLast(e);
                if (kept.size() > MAX_ENTRIES) {
                    kept.removeFirst();
                }
            }
        }
        return new ArrayList<>(kept);
    }

    /**
     * After the start-up sync: every entry of the window becomes a tombstone of the cluster check, and each
     * journalled instance the registry holds again no newer than when it was cancelled is cancelled again as the
     * client's cancel (replicated to the peers). Returns how many were cancelled again.
     */
    public synchronized int replay(InstanceRegistry registry, Tombstones tombstones) {
        int cancelled = 0;
        replaying = true;
        try {
            for (Entry e : recent()) {
                tombstones.remember(e.app(), e.id(), e.lastDirtyTimestamp(), e.at());
                boolean cameBack = registry.views().lease(e.app(), e.id())
                        .map(l -> l.instance().lastDirtyTimestamp() <= e.lastDirtyTimestamp()).orElse(false);
                if (cameBack && registry.cancel(e.app(), e.id(), Origin.CLIENT)) {
                    cancelled++;
                }
            }
        } finally {
            replaying = false;
        }
        if (cancelled > 0) {
            LOG.info("Muster: cancelled again " + cancelled + " instance(s) whose cancellation this node had"
                    + " acknowledged before it stopped, and that came back with the start-up sync");
        }
        return cancelled;
    }

    /** Rewrites the file with the window's entries only (periodically, with the snapshot). */
    public synchronized void compact() {
        if (broken || appended == 0 && !Files.exists(file)) {
            return;
        }
        List<Entry> keep = recent();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            StringBuilder text = new StringBuilder();
            keep.forEach(e -> text.append(e.line()));
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            closeQuietly();
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            appended = 0;
        } catch (IOException e) {
            LOG.warning("Muster: cannot compact the cancellation journal " + file + ": " + e);
        }
    }

    public synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // nothing left to write
            }
            out = null;
        }
    }
}
