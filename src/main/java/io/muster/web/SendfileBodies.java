package io.muster.web;

import io.muster.files.PrivateDirectory;
import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Large cached response bodies (full registries, deltas) handed to Tomcat's sendfile: each body is written once to
 * a file in the web application's temporary directory, and the connector then sends that file from the page cache
 * for every request that gets the same body, instead of copying hundreds of kilobytes through the JVM and the
 * socket buffers per response. Used only where the container offers it (Tomcat's HTTP connectors set {@value
 * #SUPPORT}), for bodies of at least {@code minBytes}; otherwise the caller writes the bytes as usual.
 *
 * <p>A body is recognised by identity: the response cache hands every request the same array until the payload is
 * rebuilt. The array is held only weakly: a payload the cache replaced must not stay in the heap because its file
 * is still listed (a registry filled and emptied again left hundreds of MB of old bodies here). The bodies are full registries, so the directory is a {@link PrivateDirectory} (owner-only, never written
 * through a link); one that is refused turns sendfile off, logged once, and the bodies are written as usual.
 *
 * <p>A file nobody was sent for {@value #IDLE_MILLIS} ms is deleted when the next file is written, so the
 * files on disk are those of the last few payloads. Tomcat opens the file as soon as the request returns, long
 * before that.
 *
 * <p>Thread safety: files are published through a concurrent map; a file's use and its deletion are ordered by
 * the file's own lock, so a file handed to a request is not deleted for {@value #IDLE_MILLIS} ms.
 */
final class SendfileBodies implements AutoCloseable {
    static final String SUPPORT = "org.apache.tomcat.sendfile.support";
    static final String FILENAME = "org.apache.tomcat.sendfile.filename";
    static final String START = "org.apache.tomcat.sendfile.start";
    static final String END = "org.apache.tomcat.sendfile.end";
    static final long IDLE_MILLIS = 5_000;
    private static final Logger LOG = Logger.getLogger(SendfileBodies.class.getName());
    private final Path dir;
    /** Opened on the first body; guarded by this. */
    private PrivateDirectory bodiesDir;
    private volatile boolean refused;
    private final int minBytes;
    private final LongSupplier millis;
    private final Map<Body, BodyFile> files = new ConcurrentHashMap<>();
    /** When files were last swept; written under this. */
    private volatile long lastSweep;
    private final AtomicLong names = new AtomicLong();
    /** Files put aside by a listing with the same hash and length, deleted once idle; guarded by this. */
    private final java.util.List<BodyFile> idle = new java.util.ArrayList<>();

    /** @param dir a directory of this web application's own, created if missing and removed by {@link #close} */
    SendfileBodies(Path dir, int minBytes, LongSupplier millis) {
        this.dir = dir;
        this.minBytes = minBytes;
        this.millis = millis;
    }

    /**
     * Sets the request up to have {@code body} sent by sendfile, when the container supports it and the body is
     * large enough; the caller then sets the headers (Content-Length included) and writes no body.
     *
     * @return false when the caller must write the body itself
     */
    boolean offer(HttpServletRequest req, byte[] body) {
        if (refused || !Boolean.TRUE.equals(req.getAttribute(SUPPORT))) {
            return false;
        }
        if (body.length < minBytes) {
            if (!files.isEmpty()) {
                sweepIfDue(millis.getAsLong());
            }
            return false;
        }
        try {
            String path = fileFor(body);
            if (path == null) {
                return false;
            }
            req.setAttribute(FILENAME, path);
            req.setAttribute(START, 0L);
            req.setAttribute(END, (long) body.length);
            return true;
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            LOG.log(Level.WARNING, "sendfile unavailable, writing the body instead: " + e);
            return false;
        }
    }

    private String fileFor(byte[] body) throws IOException {
        long now = millis.getAsLong();
        Body key = new Body(System.identityHashCode(body), body.length);
        BodyFile f = files.get(key);
        if (f != null && f.isOf(body) && f.use(now)) {
            return f.path;
        }
        synchronized (this) {   // one writer: a rebuilt payload's first requests arrive together
            f = files.get(key);
            if (f != null && f.isOf(body) && f.use(now)) {
                return f.path;
            }
            sweep(now);
            if (bodiesDir == null) {
                bodiesDir = PrivateDirectory.open(dir, "sendfile bodies").orElse(null);
                if (bodiesDir == null) {
                    refused = true;
                    return null;
                }
            }
            Path file = bodiesDir.write("body-" + names.incrementAndGet(), body);
            f = new BodyFile(file.toFile().getCanonicalPath(), now, body);
            BodyFile other = files.put(key, f);
            if (other != null) {
                idle.add(other);   // another array with the same hash and length: deleted once idle
            }
            return f.path;
        }
    }

    /** Deletes the files nobody was sent for a while; under this. */
    private void sweep(long now) {
        lastSweep = now;
        files.values().removeIf(f -> retired(f, now));
        idle.removeIf(f -> retired(f, now));
    }

    private static boolean retired(BodyFile f, long now) {
        if (!f.retire(now)) {
            return false;
        }
        try {
            Files.deleteIfExists(Path.of(f.path));
        } catch (IOException ex) {
            LOG.fine("could not delete " + f.path + ": " + ex);
        }
        return true;
    }

    /** Sweeps if none ran for a while, so files go even when no new large body comes (the registry shrank). */
    private void sweepIfDue(long now) {
        if (now - lastSweep >= IDLE_MILLIS) {
            synchronized (this) {
                sweep(now);
            }
        }
    }

    /** Files written so far and still held (for tests). */
    int held() {
        return files.size();
    }

    @Override
    public void close() {
        synchronized (this) {
            sweep(Long.MAX_VALUE);
            if (bodiesDir != null) {
                bodiesDir.deleteIfEmpty();
            }
        }
    }

    /**
     * Where a body array is listed: its identity hash and length (the array itself is checked in the file). equals
     * and hashCode are written out: the record-generated ones go through {@code java.lang.runtime.ObjectMethods},
     * whose cached method handles keep this class, and with it the web application, after an undeploy (see
     * {@code CacheKey}).
     */
    private record Body(int identity, int length) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Body b && b.identity == identity && b.length == length;
        }

        @Override
        public int hashCode() {
            return identity * 31 + length;
        }
    }

    /** A written body, the array it was written from (weakly), and when it was last handed out. */
    private static final class BodyFile {
        final String path;
        private final WeakReference<byte[]> body;
        private long lastUsed;
        private boolean retired;

        BodyFile(String path, long now, byte[] body) {
            this.path = path;
            this.lastUsed = now;
            this.body = new WeakReference<>(body);
        }

        boolean isOf(byte[] bytes) {
            return body.get() == bytes;
        }

        /** Marks the file used now; false when it has been retired (deleted or about to be). */
        synchronized boolean use(long now) {
            if (retired) {
                return false;
            }
            lastUsed = now;
            return true;
        }

        /** Retires the file when idle long enough; true when the caller is to delete it. */
        synchronized boolean retire(long now) {
            if (retired || (now != Long.MAX_VALUE && now - lastUsed < IDLE_MILLIS)) {
                return retired;
            }
            retired = true;
            return true;
        }
    }
}
