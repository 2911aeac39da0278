package io.muster.snapshot;

import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import io.muster.files.UnsafeFileException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
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
 * <p>A journal line that does not verify under the directory's {@link IntegrityKey} is ignored: a planted line
 * would otherwise cancel instances cluster-wide at start.
 *
 * <p>The file is only appended to (no fsync: the page cache survives a killed process; a machine that loses power
 * loses its registry on every node anyway) and rewritten with the window's entries on each {@link #compact}.
 *
 * <p>{@link #onChange} runs under the registry's change lock, so it never touches the file: it queues the entry and
 * hands a write to the {@code writer} (the server's journal lane), which appends whatever is queued by then in one
 * write. A cancel therefore never waits for the disk, for a compaction or for a replay; the price is that a kill
 * in the moment between a cancel and its write (a millisecond on an idle disk) loses that entry, as it would lose
 * the replication still queued for the peers. The queue holds at most {@link #MAX_ENTRIES}, the most the journal
 * keeps anyway: behind a stalled disk the oldest are dropped (and counted in the log), never the cancel held up.
 *
 * <p>Thread safety and lock order. {@code queueLock} guards the queue only and is held for O(1) (it is the one lock
 * taken under the change lock). {@code fileLock} guards the channel and the file's state; it is held by the write,
 * {@link #compact}, {@link #close} and the reading in {@link #recent}, never together with the change lock, and
 * nothing is called under it but the file system. {@link #replay} reads the entries under {@code fileLock}, lets
 * go, and only then cancels through the registry: the registry's change lock is never taken under a journal lock,
 * and a journal lock is never waited for under the change lock.
 *
 * <p>One class, although long: the queue, the file and their two locks are one owner, and the lock order above
 * holds only while a single class takes both locks.
 */
public final class CancelJournal implements RegistryListener {
    private static final Logger LOG = Logger.getLogger(CancelJournal.class.getName());
    /** At most this many entries are kept (the cluster check remembers as many tombstones). */
    static final int MAX_ENTRIES = 10_000;

    /**
     * One acknowledged cancellation: when, which instance, and the version it superseded. On disk one
     * line, {@code at TAB app TAB id TAB dirty TAB hmac}; the HMAC covers the journal's name and the fields, so a
     * line is good only in the journal it was written to, and each line stands alone (the file is appended to, and
     * a torn last line must not cost the others).
     */
    public record Entry(Instant at, String app, String id, long lastDirtyTimestamp) {
        private String fields() {
            return at.toEpochMilli() + "\t" + app + "\t" + id + "\t" + lastDirtyTimestamp;
        }

        String line(IntegrityKey key, String journal) {
            String fields = fields();
            return fields + "\t" + key.sign(signed(journal, fields)) + "\n";
        }

        /** The entry, or null for a line that is damaged, unsigned (the format before signing) or not ours. */
        static Entry parse(String line, IntegrityKey key, String journal) {
            int tab = line.lastIndexOf('\t');
            if (tab < 0 || !key.verifies(signed(journal, line.substring(0, tab)), line.substring(tab + 1))) {
                return null;
            }
            String[] f = line.substring(0, tab).split("\t", -1);
            if (f.length != 4) {
                return null;
            }
            try {
                return new Entry(Instant.ofEpochMilli(Long.parseLong(f[0])), f[1], f[2], Long.parseLong(f[3]));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private static byte[] signed(String journal, String fields) {
            return (SIGNED_AS + journal + "\n" + fields).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Sets the journal's MACs apart from anything else the key may ever sign. */
    private static final String SIGNED_AS = "muster-cancel-journal 2\n";

    /** Where the replayed entries go: the cluster check's tombstones. */
    @FunctionalInterface
    public interface Tombstones {
        void remember(String app, String id, long lastDirtyTimestamp, Instant at);
    }

    private final SnapshotDirectory dir;
    private final String name;
    private final Clock clock;
    private final Duration window;
    private final Executor writer;

    private final Object queueLock = new Object();
    private ArrayDeque<Entry> queued = new ArrayDeque<>();   // guarded by queueLock; swapped out whole by a write
    private long dropped;                                     // guarded by queueLock
    /** A write has been handed to the writer and has not started yet: the next cancel need not hand another. */
    private final AtomicBoolean writeHanded = new AtomicBoolean();
    /** Threads inside {@link #replay}: the cancels they make are the journal's own, not new ones to journal. */
    private final Set<Thread> replaying = ConcurrentHashMap.newKeySet();

    /** Package-private: the lock-order test holds it, as a write to a stalled disk or a compaction would. */
    final Object fileLock = new Object();
    private FileChannel out;    // guarded by fileLock
    private int appended;       // guarded by fileLock
    private boolean broken;     // guarded by fileLock
    private boolean closed;     // guarded by fileLock

    /**
     * @param window how long a cancellation matters (the recent-changes retention, as for tombstones)
     * @param writer runs the writes of queued entries; it is handed one at a time (the server's journal lane). Its
     *               {@code execute} is called under the registry's change lock, so it must only queue the task
     */
    public CancelJournal(SnapshotDirectory dir, String name, Clock clock, Duration window, Executor writer) {
        this.dir = dir;
        this.name = name;
        this.clock = clock;
        this.window = window;
        this.writer = writer;
    }

    /** The journal's name beside the node's snapshot file of that name. */
    public static String besideSnapshot(String snapshotFile) {
        return snapshotFile + ".cancels";
    }

    private Path path() {
        return dir.path().resolve(name);
    }

    /** Under the registry's change lock: queues the entry and makes sure a write will follow. No I/O. */
    @Override
    public void onChange(RegistryChange change) {
        if (change instanceof RegistryChange.Cancelled c && c.origin() == Origin.CLIENT
                && !replaying.contains(Thread.currentThread())) {
            InstanceInfo i = c.instance();
            Entry e = new Entry(clock.instant(), i.app(), i.id(), c.version());
            synchronized (queueLock) {
                if (queued.size() >= MAX_ENTRIES) {
                    queued.removeFirst();
                    dropped++;
                }
                queued.addLast(e);
            }
            if (writeHanded.compareAndSet(false, true)) {
                try {
                    writer.execute(this::writeQueued);
                } catch (RuntimeException refused) {
                    writeHanded.set(false);   // stays queued for the next cancel's write, or for close
                }
            }
        }
    }

    /**
     * The cancelling client's thread, outside the change lock and before its answer: the entry is on its way to the
     * page cache before the client hears its cancel was taken (a node killed right after the answer keeps it).
     */
    @Override
    public void afterCancel() {
        boolean pending;
        synchronized (queueLock) {
            pending = !queued.isEmpty();
        }
        if (pending) {
            flush();
        }
    }

    /** The writer's task: appends everything queued so far. */
    private void writeQueued() {
        writeHanded.set(false);   // first: an entry queued from here on hands a write of its own
        synchronized (fileLock) {
            appendQueued();
        }
    }

    /** Under fileLock. */
    private void appendQueued() {
        ArrayDeque<Entry> batch;
        long lost;
        synchronized (queueLock) {
            if (queued.isEmpty()) {
                return;
            }
            batch = queued;
            queued = new ArrayDeque<>();
            lost = dropped;
            dropped = 0;
        }
        if (lost > 0) {
            LOG.warning("Muster: " + lost + " cancellation(s) were not journalled in " + path() + ": the journal's"
                    + " writes fell " + MAX_ENTRIES + " entries behind (a stalled disk?)");
        }
        if (closed || broken) {
            return;
        }
        StringBuilder text = new StringBuilder();
        batch.forEach(e -> text.append(e.line(dir.key(), name)));
        try {
            if (out == null) {
                out = dir.files().append(name);
            }
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            appended += batch.size();
        } catch (IOException x) {
            broken = true;   // one line, not one per cancel; the server goes on without the journal
            LOG.log(x instanceof UnsafeFileException ? Level.SEVERE : Level.WARNING,
                    "Muster: cannot write the cancellation journal " + path() + " (" + x
                    + "); cancellations acknowledged just before a crash may come back");
        }
    }

    /** Writes what is queued now, on the caller's thread (tests; {@link #compact} and {@link #close} do it too). */
    void flush() {
        synchronized (fileLock) {
            appendQueued();
        }
    }

    /** The entries still inside the window, oldest first, at most {@link #MAX_ENTRIES}. */
    List<Entry> recent() {
        synchronized (fileLock) {
            return readRecent();
        }
    }

    /** Under fileLock. */
    private List<Entry> readRecent() {
        Instant from = clock.instant().minus(window);
        ArrayDeque<Entry> kept = new ArrayDeque<>();
        byte[] bytes;
        try {
            bytes = dir.files().read(name);
        } catch (UnsafeFileException e) {
            broken = true;   // off for the run, logged once: the file is the operator's to look at
            LOG.severe("Muster: refusing the cancellation journal " + path() + " (" + e.getMessage()
                    + "); running without it");
            return List.of();
        } catch (IOException e) {
            LOG.warning("Muster: cannot read the cancellation journal " + path() + ": " + e);
            return List.of();
        }
        if (bytes == null) {
            return List.of();
        }
        int refused = 0;
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            Entry e = line.isEmpty() ? null : Entry.parse(line, dir.key(), name);
            if (e == null && !line.isEmpty()) {
                refused++;
            }
            if (e != null && !e.at().isBefore(from)) {
                kept.addLast(e);
                if (kept.size() > MAX_ENTRIES) {
                    kept.removeFirst();
                }
            }
        }
        if (refused > 0) {
            // until the next compaction, which keeps only the lines that verify
            LOG.warning("Muster: ignoring " + refused + " line(s) of the cancellation journal " + path()
                    + " that fail their integrity check (damaged, planted, or written before journal lines were"
                    + " signed)");
        }
        return new ArrayList<>(kept);
    }

    /**
     * After the start-up sync: every entry of the window becomes a tombstone of the cluster check, and each
     * journalled instance the registry holds again no newer than when it was cancelled is cancelled again as the
     * client's cancel (replicated to the peers). Returns how many were cancelled again.
     *
     * <p>The entries are read first, and the registry is called with no journal lock held: clients cancel under
     * the registry's change lock meanwhile, and replay and peer refreshes run while they do. The cancels made here
     * are not journalled again (their entries are there already, with the time the client cancelled).
     */
    public int replay(InstanceRegistry registry, Tombstones tombstones) {
        List<Entry> entries = recent();
        int cancelled = 0;
        Thread me = Thread.currentThread();
        replaying.add(me);
        try {
            for (Entry e : entries) {
                tombstones.remember(e.app(), e.id(), e.lastDirtyTimestamp(), e.at());
                boolean cameBack = registry.views().lease(e.app(), e.id())
                        .map(l -> l.instance().lastDirtyTimestamp() <= e.lastDirtyTimestamp()).orElse(false);
                if (cameBack && registry.cancelAt(e.app(), e.id(), Origin.CLIENT, e.lastDirtyTimestamp())) {
                    cancelled++;
                }
            }
        } finally {
            replaying.remove(me);
        }
        if (cancelled > 0) {
            LOG.info("Muster: cancelled again " + cancelled + " instance(s) whose cancellation this node had"
                    + " acknowledged before it stopped, and that came back with the start-up sync");
        }
        return cancelled;
    }

    /**
     * Rewrites the file with the window's entries only (periodically, with the snapshot, on the files lane).
     * Cancels go on meanwhile: they queue, and the next write appends them to the new file.
     */
    public void compact() {
        synchronized (fileLock) {
            appendQueued();
            if (closed || broken || appended == 0 && !dir.files().exists(name)) {
                return;
            }
            List<Entry> keep = readRecent();
            String temp = name + ".tmp";
            try {
                StringBuilder text = new StringBuilder();
                keep.forEach(e -> text.append(e.line(dir.key(), name)));
                dir.files().write(temp, text.toString().getBytes(StandardCharsets.UTF_8));
                closeQuietly();
                dir.files().commit(temp, name);
                appended = 0;
            } catch (IOException e) {
                LOG.warning("Muster: cannot compact the cancellation journal " + path() + ": " + e);
            }
        }
    }

    /** Writes what is still queued and closes the file; later cancels are not journalled (the server stopped). */
    public void close() {
        synchronized (fileLock) {
            appendQueued();
            closed = true;
            closeQuietly();
        }
    }

    /** Under fileLock. */
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
