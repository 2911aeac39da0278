package io.muster.codec;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.zip.Deflater;

/**
 * An {@code applications} document as an envelope and segments (runs of an application's instances, in order),
 * joined on demand: into plain bytes for the few clients that do not take gzip, and into one gzip member from the
 * segments' compressed forms, of which only those not compressed before in the same place are compressed now.
 *
 * <p>Thread safety: immutable apart from the segments' memoized compressed forms (see {@link RegistrySegments}).
 */
public final class SegmentedDocument {
    private final Envelope envelope;
    private final RegistrySegments.Segment[] segments;
    private final long length;

    SegmentedDocument(Envelope envelope, RegistrySegments.Segment[] segments) {
        this.envelope = envelope;
        this.segments = segments;
        long n = envelope.head().length + envelope.tail().length;
        for (int i = 0; i < segments.length; i++) {
            n += separatorBefore(i).length + segments[i].length();
        }
        this.length = n;
    }

    /** How many segments this document shares with {@code other}, the same objects (for tests). */
    int sharedSegmentsWith(SegmentedDocument other) {
        Set<RegistrySegments.Segment> theirs = Collections.newSetFromMap(new IdentityHashMap<>());
        theirs.addAll(List.of(other.segments));
        int n = 0;
        for (RegistrySegments.Segment s : segments) {
            n += theirs.contains(s) ? 1 : 0;
        }
        return n;
    }

    /** Segments in all (for tests). */
    int segmentCount() {
        return segments.length;
    }

    /** The compressed form of segment {@code i} as the last gzip of any document holding it left it (for tests). */
    GzipParts.Part compressedForm(int i) {
        return segments[i].compressedForm();
    }

    public long length() {
        return length;
    }

    public byte[] plain() {
        Assembly out = new Assembly(2 * segments.length + 2);
        out.add(envelope.head());
        for (int i = 0; i < segments.length; i++) {
            out.add(separatorBefore(i));
            out.addAll(segments[i].form.pieces());
        }
        out.add(envelope.tail());
        return out.toByteArray();
    }

    /** The document's separator before the first segment of every application but the first; nothing otherwise. */
    private byte[] separatorBefore(int i) {
        return i > 0 && segments[i].first ? envelope.separator() : GzipParts.NO_BYTES;
    }

    /**
     * The gzip form. The envelope's head and tail are compressed each time (they carry the hash and version); each
     * segment is compressed with the last bytes of the segment before it as dictionary, which finds nearly what one
     * stream over the whole document finds, since neighbouring applications repeat the same field names and values.
     */
    public byte[] gzip() {
        Deflater deflater = new Deflater(GzipParts.LEVEL, true);
        try {
            GzipParts.Part[] parts = new GzipParts.Part[segments.length + 2];
            parts[0] = GzipParts.part(deflater, null, GzipParts.NO_BYTES, envelope.head(), false);
            for (int i = 0; i < segments.length; i++) {
                parts[i + 1] = i == 0 ? segments[i].compressed(deflater, null, GzipParts.NO_BYTES)
                        : segments[i].compressed(deflater, segments[i - 1], separatorBefore(i));
            }
            parts[parts.length - 1] = GzipParts.part(deflater, null, GzipParts.NO_BYTES, envelope.tail(), true);
            return GzipParts.member(parts);
        } finally {
            deflater.end();
        }
    }
}
