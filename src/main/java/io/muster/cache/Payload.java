package io.muster.cache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Encoded response bytes and their gzip form (compressed once, on first use), tagged with the registry change
 * sequence they were built from. An empty payload means "not found".
 *
 * <p>Thread safety: immutable apart from the memoized gzip bytes and the last read time, both volatile; two threads
 * may both compress once, which is harmless.
 */
public final class Payload {
    private final byte[] bytes;
    private final long builtFrom;
    private final long remoteGeneration;
    private volatile byte[] gzipped;
    /** Epoch millis of a recent read, to the second: written at most once a second, however many readers. */
    private volatile long lastRead;

    Payload(byte[] bytes, long builtFrom) {
        this(bytes, builtFrom, 0);
    }

    /** @param remoteGeneration the remote regions' generation read before the payload was built */
    Payload(byte[] bytes, long builtFrom, long remoteGeneration) {
        this.bytes = bytes;
        this.builtFrom = builtFrom;
        this.remoteGeneration = remoteGeneration;
    }

    long remoteGeneration() {
        return remoteGeneration;
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }

    /** The plain bytes. Callers must not modify the array. */
    public byte[] bytes() {
        return bytes;
    }

    /** The gzip bytes. Callers must not modify the array. */
    public byte[] gzipped() {
        byte[] g = gzipped;
        if (g == null) {
            g = gzip(bytes);
            gzipped = g;
        }
        return g;
    }

    /** The registry sequence this payload reflects (every change up to it included). */
    public long builtFrom() {
        return builtFrom;
    }

    void markRead(long nowMillis) {
        if (nowMillis - lastRead >= 1000) {
            lastRead = nowMillis;
        }
    }

    long lastRead() {
        return lastRead;
    }

    private static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, plain.length / 6));
        // the default level: fetch throughput is bound by bytes on the wire, and a payload is compressed once per
        // rebuild (at most twice a second per request shape) while it is sent thousands of times
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 8192) {
            {
                def.setLevel(Deflater.DEFAULT_COMPRESSION);
            }
        }) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
