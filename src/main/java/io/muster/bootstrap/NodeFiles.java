package io.muster.bootstrap;

import io.muster.registry.InstanceRegistry;
import io.muster.snapshot.CancelJournal;
import io.muster.snapshot.RegistryFile;
import io.muster.snapshot.SnapshotDirectory;
import io.muster.snapshot.SnapshotLock;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.logging.Logger;

/**
 * What a node keeps on disk: its registry snapshot and its cancellation journal, in a directory it holds the lock
 * of. {@link #open} gives none when snapshots are off or the place is refused, each logged: a node that knows
 * neither its root nor its port could be any server of this machine in the default directory, so it neither reads
 * a snapshot (it might be another's) nor writes one (another might read it).
 *
 * <p>Thread safety: saved on the files lane, appended to on the journal lane (see {@link CancelJournal}), closed
 * once by the server after both lanes stopped.
 */
final class NodeFiles implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RegistryServer.class.getName());
    private final SnapshotLock lock;
    private final RegistryFile snapshot;
    private final CancelJournal cancels;

    private NodeFiles(SnapshotLock lock, RegistryFile snapshot, CancelJournal cancels) {
        this.lock = lock;
        this.snapshot = snapshot;
        this.cancels = cancels;
    }

    /**
     * @param journalWrites where the journal's appends run (the server's journal lane)
     * @return the node's files, listening to the registry's cancellations, or null when it keeps none
     */
    static NodeFiles open(SnapshotPlace place, InstanceRegistry registry, Clock clock, Duration retention,
                          Executor journalWrites) {
        SnapshotDirectory dir = directory(place);
        SnapshotLock lock = dir == null ? null : SnapshotLock.take(dir, place.fileName(),
                place.identity().text() + ", pid " + ProcessHandle.current().pid()).orElse(null);
        if (lock == null) {
            return null;
        }
        RegistryFile snapshot = new RegistryFile(dir, place.identity(), place.fileName(), registry, clock);
        // the journal's lines are signed for this identity: another server's journal fails here and is ignored
        CancelJournal cancels = new CancelJournal(dir.signingFor(place.identity()),
                CancelJournal.besideSnapshot(place.fileName()), clock, retention, journalWrites);
        LOG.info("Muster: registry snapshot at " + snapshot.path() + " for " + place.identity());
        registry.addListener(cancels);
        return new NodeFiles(lock, snapshot, cancels);
    }

    private static SnapshotDirectory directory(SnapshotPlace place) {
        if (place == null) {
            return null;
        }
        if (!place.identity().isKnown()) {
            LOG.warning("Muster: registry snapshots are off for this run: this node knows neither its port nor a"
                    + " directory of its server's own (" + place.identity() + "), so its snapshot in "
                    + place.directory() + " could be another server's; set eureka.server.snapshot.directory,"
                    + " -Dport or eureka.server.myUrl");
            return null;
        }
        return SnapshotDirectory.open(place.directory()).orElse(null);
    }

    RegistryFile snapshot() {
        return snapshot;
    }

    CancelJournal cancels() {
        return cancels;
    }

    Path path() {
        return snapshot.path();
    }

    /** The files lane's periodic work, which an operator can also ask for now (an MBean operation). */
    void save() {
        snapshot.save();
        cancels.compact();
    }

    /** The last snapshot, then what the journal had not yet written, then the lock: the next deployment's turn. */
    @Override
    public void close() {
        snapshot.save();
        cancels.close();
        lock.close();
    }
}
