package io.muster.cache;

import io.muster.codec.SegmentedDocument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Encoded response bytes and their gzip form (compressed once, on first use; a segmented payload compresses only
 * the segments not compressed before), tagged with the registry change
 * sequence they were built from. An empty payload means "not found".
 *
 * <p>Thread safety: immutable apart from the memoized plain and gzip bytes and the last read time, all volatile; two
 * threads may both join or compress once, which is harmless.
 */
public final class Payload {
    /** The plain bytes: given, or joined from {@link #document} on first use. */
    private volatile byte[] bytes;
    /** Null when the bytes were given. */
    private final SegmentedDocument document;
    private final long length;
    private final long builtFrom;
    private final long remoteGeneration;
    private volatile byte[] gzipped;
    /** When it was built and how long that took, in millis: set once by the builder before it is published. */
    private long builtAt;
    private long buildMillis;
    /** An app or VIP with no instance here: set once by the builder before it is published. */
    private boolean namesNothing;
    /** Epoch millis of a recent read, to the second: written at most once a second, however many readers. */
    private volatile long lastRead;

    Payload(byte[] bytes, long builtFrom) {
        this(bytes, builtFrom, 0);
    }

    /** @param remoteGeneration the remote regions' generation read before the payload was built */
    Payload(byte[] bytes, long builtFrom, long remoteGeneration) {
        this.bytes = bytes;
        this.document = null;
        this.length = bytes.length;
        this.builtFrom = builtFrom;
        this.remoteGeneration = remoteGeneration;
    }

    /** A payload joined from segments: its plain bytes are made only if a client asks for them. */
    Payload(SegmentedDocument document, long builtFrom, long remoteGeneration) {
        this.document = document;
        this.length = document.length();
        this.builtFrom = builtFrom;
        this.remoteGeneration = remoteGeneration;
    }

    long remoteGeneration() {
        return remoteGeneration;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    /** Whether the plain bytes are made already (they are made whole on first use of a segmented payload). */
    boolean hasPlainBytes() {
        return bytes != null;
    }

    /** The length of the plain bytes. */
    public long length() {
        return length;
    }

    /** The plain bytes. Callers must not modify the array. */
    public byte[] bytes() {
        byte[] b = bytes;
        if (b == null) {
            b = document.plain();
            bytes = b;
        }
        return b;
    }

    /** The gzip bytes. Callers must not modify the array. */
    public byte[] gzipped() {
        byte[] g = gzipped;
        if (g == null) {
            g = document != null ? document.gzip() : gzip(bytes);
            gzipped = g;
        }
        return g;
    }

    /** The registry sequence this payload reflects (every change up to it included). */
    public long builtFrom() {
        return builtFrom;
    }

    void timed(long builtAtMillis, long tookMillis) {
        this.builtAt = builtAtMillis;
        this.buildMillis = tookMillis;
    }

    void namesNothing() {
        namesNothing = true;
    }

    /**
     * Whether this is the answer for a single app or VIP that has no instance here ("not found"): such answers
     * are kept apart, bounded, since clients may ask for any number of names.
     */
    boolean namesNothingHere() {
        return namesNothing;
    }

    long builtAt() {
        return builtAt;
    }

    long buildMillis() {
        return buildMillis;
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
