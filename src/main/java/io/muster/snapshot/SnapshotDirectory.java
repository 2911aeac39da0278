package io.muster.snapshot;

import io.muster.files.PrivateDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Where this node's snapshot and cancellation journal live: a {@link PrivateDirectory} and the
 * {@link IntegrityKey} kept in it. Thread safety: immutable.
 */
public final class SnapshotDirectory {
    private static final Logger LOG = Logger.getLogger(SnapshotDirectory.class.getName());
    private final PrivateDirectory files;
    private final IntegrityKey key;

    SnapshotDirectory(PrivateDirectory files, IntegrityKey key) {
        this.files = files;
        this.key = key;
    }

    /**
     * The directory with its key, or empty (logged SEVERE) when it is refused: the node then starts without a
     * snapshot and saves none this run, rather than failing its deployment, since peers or clients' next
     * heartbeats refill the registry and a refused directory is a matter for the operator, not for the clients.
     */
    public static Optional<SnapshotDirectory> open(Path dir) {
        Optional<PrivateDirectory> files = PrivateDirectory.open(dir, "registry snapshots and the cancellation"
                + " journal");
        if (files.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SnapshotDirectory(files.get(), IntegrityKey.in(files.get())));
        } catch (IOException | RuntimeException e) {
            LOG.severe("Muster: registry snapshots and the cancellation journal are off for this run: the integrity"
                    + " key in " + dir + " cannot be used (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    /**
     * The same directory whose key is this one derived for {@code identity}: for the cancellation journal, whose
     * lines carry no node of their own, so that a journal written by another server (sharing the directory, or a
     * Payara domain copied with its files) fails its integrity check here and is ignored, with a log line, instead
     * of cancelling that server's instances in this cluster.
     */
    public SnapshotDirectory signingFor(SnapshotIdentity identity) {
        return new SnapshotDirectory(files, key.derived(identity.text()));
    }

    public Path path() {
        return files.path();
    }

    PrivateDirectory files() {
        return files;
    }

    IntegrityKey key() {
        return key;
    }
}
