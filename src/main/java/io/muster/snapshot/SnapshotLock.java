package io.muster.snapshot;

import io.muster.files.PrivateDirectory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * One live node per snapshot file: an exclusive lock on {@code <snapshot>.lock} beside it, held for the life of
 * the deployment and released by {@link #close}, so a redeploy (which closes the old deployment first) takes it
 * again. Two live nodes writing one file every 30 s would each restore the other's registry at their next start;
 * the second one to start therefore runs without snapshots, with a SEVERE line naming the holder.
 *
 * <p>Two locks, because one is not enough. Between processes: a {@link FileLock}, which the system releases when
 * the holder dies however it dies (a stale lock file never blocks anyone; the file itself is never deleted, since
 * deleting it while it is locked would let a third node lock a new file of the same name). Within one JVM (two
 * contexts with the same identity, such as Tomcat's parallel deployment of two versions): a JMX name registered
 * on the platform MBean server, the one registry every web application of a JVM shares. The file lock cannot do
 * this part: the JVM reports the overlap, but on Linux closing the second channel would release the first's lock
 * for every other process (POSIX record locks belong to the process), so the second node never opens the file.
 * The name also shows in a JMX console which context holds which snapshot.
 *
 * <p>Thread safety: {@link #close} is idempotent and synchronized.
 */
public final class SnapshotLock implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SnapshotLock.class.getName());

    /** The JMX view of a held lock. */
    public interface HolderMXBean {
        String getFile();

        String getHolder();
    }

    /** Registered while the lock is held; unregistered in {@link #close}, so it never pins an undeployed WAR. */
    private static final class Holder implements HolderMXBean {
        private final String file;
        private final String holder;

        Holder(String file, String holder) {
            this.file = file;
            this.holder = holder;
        }

        @Override
        public String getFile() {
            return file;
        }

        @Override
        public String getHolder() {
            return holder;
        }
    }

    private final MBeanServer jmx;
    private final ObjectName name;
    private FileChannel channel;
    private FileLock lock;

    private SnapshotLock(MBeanServer jmx, ObjectName name, FileChannel channel, FileLock lock) {
        this.jmx = jmx;
        this.name = name;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * The lock on {@code snapshotName}'s lock file, or empty (logged SEVERE) when another live node holds it, or
     * the lock file cannot be used: the node then runs without snapshots for this run.
     *
     * @param holder who takes it, written into the lock file for the other node's log line (identity, process)
     */
    public static Optional<SnapshotLock> take(SnapshotDirectory dir, String snapshotName, String holder) {
        return take(dir, snapshotName, holder, ManagementFactory.getPlatformMBeanServer());
    }

    static Optional<SnapshotLock> take(SnapshotDirectory dir, String snapshotName, String holder, MBeanServer jmx) {
        String file = snapshotName + ".lock";
        PrivateDirectory files = dir.files();
        Path path = files.path().resolve(file);
        ObjectName name;
        try {
            name = new ObjectName("io.muster:type=SnapshotLock,file=" + ObjectName.quote(path.toString()));
            jmx.registerMBean(new Holder(path.toString(), holder), name);
        } catch (InstanceAlreadyExistsException e) {
            refuse(path, "another application in this JVM holds it (" + heldBy(jmx, path) + ")");
            return Optional.empty();
        } catch (JMException | RuntimeException e) {
            LOG.severe("Muster: registry snapshots are off for this run: cannot register the lock of " + path
                    + " (" + e + ")");
            return Optional.empty();
        }
        FileChannel channel = null;
        try {
            channel = files.append(file);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;   // held in this JVM after all (not through us): the same answer as another process's
            }
            if (lock == null) {
                channel.close();
                unregister(jmx, name);
                refuse(path, "another live server holds it (" + holderText(files, file) + ")");
                return Optional.empty();
            }
            channel.truncate(0);
            ByteBuffer text = ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8));
            while (text.hasRemaining()) {
                channel.write(text);
            }
            return Optional.of(new SnapshotLock(jmx, name, channel, lock));
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            unregister(jmx, name);
            LOG.severe("Muster: registry snapshots are off for this run: cannot lock " + path + " (" + e + ")");
            return Optional.empty();
        }
    }

    /** Releases the lock (closing the deployment); the lock file stays, for the next node to lock. */
    @Override
    public synchronized void close() {
        if (channel == null) {
            return;
        }
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it as well
        }
        closeQuietly(channel);
        channel = null;
        lock = null;
        unregister(jmx, name);   // last: until the file lock is gone, no one in this JVM may open the file
    }

    private static void refuse(Path path, String why) {
        LOG.severe("Muster: registry snapshots are off for this run: " + path + " is in use: " + why + ". Two"
                + " live servers must not share a snapshot file; give each its own eureka.server.snapshot.directory"
                + " (or port, or context path)");
    }

    private static String heldBy(MBeanServer jmx, Path path) {
        try {
            return String.valueOf(jmx.getAttribute(new ObjectName("io.muster:type=SnapshotLock,file="
                    + ObjectName.quote(path.toString())), "Holder"));
        } catch (JMException | RuntimeException e) {
            return "holder unknown";
        }
    }

    private static String holderText(PrivateDirectory files, String file) {
        try {
            byte[] text = files.read(file);
            String s = text == null ? "" : new String(text, StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "holder unknown" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
        } catch (IOException | RuntimeException e) {
            return "holder unknown: " + e.getMessage();
        }
    }

    private static void unregister(MBeanServer jmx, ObjectName name) {
        try {
            jmx.unregisterMBean(name);
        } catch (JMException | RuntimeException e) {
            LOG.fine("could not unregister " + name + ": " + e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing written through it matters
            }
        }
    }
}
