package io.muster.snapshot;

import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;

import io.muster.files.PrivateDirectory;
import io.muster.files.UnsafeFileException;

import javax.crypto.Mac;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This node's snapshot file: saved whole into a temporary file and renamed over the old one, so a crash mid-write
 * leaves the previous snapshot, never half of one; restored at start when no peer supplied the registry. Nothing
 * here is ever fatal: a file that cannot be written or read is logged and the server goes on without it. The file
 * lives in a {@link SnapshotDirectory} (owner-only, never through a link) and carries its HMAC (see
 * {@link SnapshotFile}), so a planted one is refused.
 *
 * <p>Thread safety: {@link #save} is synchronized (the files lane's periodic save and the final one on shutdown).
 */
public final class RegistryFile {
    private static final Logger LOG = Logger.getLogger(RegistryFile.class.getName());

    private final SnapshotDirectory dir;
    private final String name;
    private final String node;
    private final InstanceRegistry registry;
    private final Clock clock;

    /**
     * @param identity this node's, fixed at start-up so the save and the next restore agree on it
     * @param name     the file's name in the directory (see {@link SnapshotIdentity#fileName})
     */
    public RegistryFile(SnapshotDirectory dir, SnapshotIdentity identity, String name, InstanceRegistry registry,
                        Clock clock) {
        this(dir, name, identity.text(), registry, clock);
    }

    /** A file named after {@code node}, which is also the identity its header carries. */
    RegistryFile(SnapshotDirectory dir, String node, InstanceRegistry registry, Clock clock) {
        this(dir, fileName(node), node, registry, clock);
    }

    private RegistryFile(SnapshotDirectory dir, String name, String node, InstanceRegistry registry, Clock clock) {
        this.dir = dir;
        this.name = name;
        this.node = node;
        this.registry = registry;
        this.clock = clock;
    }

    /** A file name for the node, safe on every file system. */
    public static String fileName(String node) {
        return "registry-" + node.replaceAll("[^A-Za-z0-9._-]", "_") + ".snapshot";
    }

    public Path path() {
        return dir.path().resolve(name);
    }

    /**
     * Writes the registry to a temporary body file (one application at a time, counting and signing as it
     * goes), then the header and that body to the snapshot's temporary file, which is forced to disk and renamed
     * over the snapshot. Nothing the size of the registry is held in memory: at 100,000 instances the document is
     * 100 MB, and building it whole every 30 s cost full collections on a 1 GB heap.
     */
    public synchronized void save() {
        Instant now = clock.instant();
        String body = name + ".body";
        String temp = name + ".tmp";
        PrivateDirectory files = dir.files();
        try {
            Mac mac = dir.key().mac();
            long length;
            try (SigningOutputStream out = new SigningOutputStream(new BufferedOutputStream(
                    Channels.newOutputStream(files.createNew(body)), 1 << 16), mac)) {
                SnapshotFile.writeBody(out, registry.views().groups());
                out.flush();
                length = out.count;
            }
            try (FileChannel out = files.createNew(temp);
                 FileChannel in = files.openForReading(body)) {
                ByteBuffer head = ByteBuffer.wrap(SnapshotFile.header(node, now, length,
                        SnapshotFile.seal(mac, node, now, length)));
                while (head.hasRemaining()) {
                    out.write(head);
                }
                for (long at = 0; at < length; ) {
                    at += in.transferTo(at, length - at, out);
                }
                out.force(false);   // the rename must not become visible before the content
            }
            files.commit(temp, name);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "Muster: could not save the registry snapshot to " + path() + ": " + e, e);
        } finally {
            try {
                files.delete(body);
                files.delete(temp);
            } catch (IOException e) {
                LOG.fine("could not delete " + body + " or " + temp + ": " + e);
            }
        }
    }

    /** Counts the bytes written through it and feeds them to a MAC. */
    private static final class SigningOutputStream extends FilterOutputStream {
        private final Mac mac;
        long count;

        SigningOutputStream(OutputStream out, Mac mac) {
            super(out);
            this.mac = mac;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            mac.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            mac.update(b, off, len);
            count += len;
        }
    }

    /**
     * After a sync from a peer: puts back the instances of this node's own snapshot that the registry does not hold,
     * or holds in an older version (a lower dirty timestamp),
     * if the snapshot is younger than {@code window} (so every cancellation made since it was saved is among the
     * tombstones the sync handed over, and refuses its instance). These are the writes this node acknowledged last
     * before the cluster stopped, which no peer has; each one put back is handed to {@code restoredHook} (to be
     * sent to the peers). Returns how many.
     */
    public int restoreMissing(Duration window, Consumer<InstanceInfo> restoredHook) {
        Instant now = clock.instant();
        try (FileChannel in = dir.files().openForReading(name)) {
            SnapshotFile.Content content = SnapshotFile.decode(in, node, now.toEpochMilli(), dir.key());
            if (Duration.between(content.savedAt(), now).compareTo(window) > 0) {
                return 0;
            }
            // absent here, or here in an older version: a status change acknowledged here last (re-registration
            // with a newer dirty timestamp) must not lose to the peer's older copy
            RestoreRules.Result r = RestoreRules.restore(content.applications(), registry, now,
                    i -> registry.views().lease(i.app(), i.id())
                            .map(held -> held.instance().lastDirtyTimestamp() < i.lastDirtyTimestamp())
                            .orElse(true), restoredHook);
            if (r.restored() > 0) {
                LOG.info("Muster: put back " + r.restored() + " instance(s) from this node's own snapshot (saved "
                        + Duration.between(content.savedAt(), now).toSeconds() + " s ago) that the peer did not have"
                        + " or had in an older version"
                        + " (the last writes acknowledged here before the cluster stopped); sending them to the peers");
            }
            return r.restored();
        } catch (IOException | RuntimeException e) {
            return 0;   // restore() reports what is wrong with the file
        }
    }

    /** Restores the snapshot, if there is a usable one; returns how many instances came back. */
    public int restore() {
        Path file = path();
        Instant now = clock.instant();
        SnapshotFile.Content content;
        try (FileChannel in = dir.files().openForReading(name)) {
            content = SnapshotFile.decode(in, node, now.toEpochMilli(), dir.key());
        } catch (NoSuchFileException e) {
            LOG.info("Muster: no registry snapshot at " + file + "; starting empty");
            return 0;
        } catch (UnsafeFileException e) {
            LOG.severe("Muster: refusing the registry snapshot " + file + " (" + e.getMessage() + "); starting empty");
            return 0;
        } catch (UnusableSnapshotException e) {
            LOG.warning("Muster: ignoring the registry snapshot " + file + ": " + e.getMessage()
                    + "; starting empty");
            return 0;
        } catch (IOException e) {
            LOG.warning("Muster: registry snapshot " + file + " cannot be read (" + e + "); starting empty");
            return 0;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Muster: ignoring the registry snapshot " + file + "; starting empty", e);
            return 0;
        }
        try {
            RestoreRules.Result r = RestoreRules.restore(content.applications(), registry, now);
            LOG.info("Muster: restored " + r.restored() + " instances from the registry snapshot saved "
                    + Duration.between(content.savedAt(), now).toSeconds() + " s ago (" + r.expired()
                    + " leases lapsed meanwhile, " + r.refused() + " refused by the registry's rules)");
            return r.restored();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Muster: ignoring the registry snapshot " + file + "; starting empty", e);
            return 0;
        }
    }
}
