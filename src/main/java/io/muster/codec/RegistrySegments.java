package io.muster.codec;

import io.muster.model.InstanceInfo;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import java.util.zip.Deflater;

/**
 * Full-registry and delta payloads kept as one segment per application, so a rebuild costs in proportion to what
 * changed rather than to the size of the registry: an application whose instances are the very objects it was
 * encoded from keeps its bytes and its compressed form; only changed applications are decorated, assembled again
 * from their instances' fragments ({@link FragmentCodec}, which encodes only instances it has not seen) and
 * compressed again (and, for gzip, the application after one whose last fragments changed, since its compression
 * refers back into them).
 * Under steady churn of 10,000 instances this turns a rebuild from a re-encode and a re-compression of 9 MB into a
 * few dozen applications' worth (docs/benchmark.md).
 *
 * <p>Lease timestamps are written when an application is first encoded and then each time it is re-encoded for
 * age; a change writes the changed instances' leases and keeps the others' bytes. So an application's lease
 * timestamps are at most {@value #REENCODE_AFTER_MILLIS} ms old or a little more (at most a tenth of the
 * applications is re-encoded for age in one build), like Eureka's cached payloads (whose renewal times are as old as
 * the cache entry). Renewals never trigger a rebuild here or there. Above {@value #REENCODE_SCALE_INSTANCES}
 * instances the age grows with the registry, up to {@value #MAX_REENCODE_AFTER_MILLIS} ms at
 * {@value #MAX_REENCODE_INSTANCES} (see {@link #reencodeAfterMillis}).
 *
 * <p>Memory: per shape in use (format, detail, full or delta) the ranges of every application's fragments (about
 * 50 bytes per instance; the fragments themselves are {@link FragmentCodec}'s, one copy per wire form), plus its
 * compressed form once someone asked for gzip; a shape not rebuilt for {@value #IDLE_SHAPE_MILLIS} ms is dropped
 * at the next rebuild of any shape.
 *
 * <p>Thread safety: segments are immutable except for their compressed form, a volatile that any thread may set
 * (two threads compressing the same part produce the same bytes). Each shape's segment map is replaced whole on
 * publication; two concurrent rebuilds of one shape both produce correct payloads and the later one's map wins.
 */
public final class RegistrySegments {
    static final long REENCODE_AFTER_MILLIS = 30_000;
    /**
     * Re-encoding for age alone costs in proportion to the registry: at a million instances, a re-encode and a
     * recompression of 1 GB of JSON every 30 s took about half a core of each node, for timestamps no client acts
     * on. Eureka's own payloads carry renewal times up to 180 s old (its read-write cache's expiry) plus the 30 s of
     * its read-only copy; the age here grows linearly from {@value #REENCODE_AFTER_MILLIS} ms at
     * {@value #REENCODE_SCALE_INSTANCES} instances to {@value #MAX_REENCODE_AFTER_MILLIS} ms at
     * {@value #MAX_REENCODE_INSTANCES}, so that up to there the work per second stays that of a 100,000-instance
     * registry (a million re-encodes 5,600 instances a second instead of 33,000).
     */
    static final long MAX_REENCODE_AFTER_MILLIS = 180_000;
    static final int REENCODE_SCALE_INSTANCES = 100_000;
    static final int MAX_REENCODE_INSTANCES = 600_000;
    /**
     * Unchanged applications re-encoded for their lease timestamps' age alone, at most a tenth of the applications
     * (and at least this many) per build: a registry registered in one burst turns old all at once, and at a million
     * instances re-encoding and compressing all of it took one build 7 s, during which no change could be served.
     */
    static final int MIN_AGED_PER_BUILD = 64;
    static final int AGED_SHARE_PER_BUILD = 10;
    static final long IDLE_SHAPE_MILLIS = 300_000;
    private final LongSupplier millis;
    /** Encodes a changed application from its instances' fragments: only changed instances are encoded anew. */
    private final FragmentCodec fragments;
    /** Indexed by {@link #shape}. */
    private final AtomicReferenceArray<Shape> shapes = new AtomicReferenceArray<>(8);

    /**
     * @param millis    the clock that dates encodings
     * @param fragments the per-instance fragments changed applications are assembled from
     */
    public RegistrySegments(LongSupplier millis, FragmentCodec fragments) {
        this.millis = millis;
        this.fragments = fragments;
    }

    /**
     * The payload for this document: the bytes {@link EurekaCodec#encode(WireFormat, io.muster.model.Applications,
     * Detail)} gives for all of its applications built now, apart from lease timestamps as described above.
     */
    public SegmentedDocument encode(WireFormat format, Detail detail, boolean delta, AppsDocument document) {
        long now = millis.getAsLong();
        int index = shape(format, detail, delta);
        Shape previous = shapes.get(index);
        Map<String, Segment> kept = previous == null ? Map.of() : previous.segments;
        Map<String, Segment> next = new HashMap<>(Math.max(16, document.apps().size() * 2));
        Segment[] ordered = new Segment[document.apps().size()];
        int i = 0;
        int ageBudget = Math.max(MIN_AGED_PER_BUILD, document.apps().size() / AGED_SHARE_PER_BUILD);
        long maxAge = reencodeAfterMillis(document.instances());
        for (AppsDocument.App app : document.apps()) {
            Segment s = kept.get(app.name());
            boolean changed = s == null || !app.sameSources(s.sources);
            boolean old = s != null && now - s.encodedAt > maxAge;
            if (changed || old && ageBudget-- > 0) {
                // a change keeps the other instances' lease bytes, and the segment its age: rewriting them gave the
                // segment new last bytes (the next one's compression dictionary) at nearly every change
                boolean keepLeases = s != null && !old;
                s = new Segment(app.sources(), fragments.listForm(format, app.content().get(), detail, app.sources(),
                        keepLeases), keepLeases ? s.encodedAt : now);
            } else if (now - s.keptAt >= FragmentCodec.SWEEP_MILLIS / 2) {
                fragments.keep(s.form);   // its fragments stay shared with the other shapes until it changes
                s.keptAt = now;
            }
            next.put(app.name(), s);
            ordered[i++] = s;
        }
        shapes.set(index, new Shape(next, now));
        dropIdle(now);
        return new SegmentedDocument(Envelope.of(format, document.version(), document.appsHashCode(), detail), ordered);
    }

    /** How old an unchanged application's encoding may grow in a document of this many instances. */
    static long reencodeAfterMillis(long instances) {
        if (instances <= REENCODE_SCALE_INSTANCES) {
            return REENCODE_AFTER_MILLIS;
        }
        long span = MAX_REENCODE_INSTANCES - REENCODE_SCALE_INSTANCES;
        long extra = (MAX_REENCODE_AFTER_MILLIS - REENCODE_AFTER_MILLIS)
                * Math.min(span, instances - REENCODE_SCALE_INSTANCES) / span;
        return REENCODE_AFTER_MILLIS + extra;
    }

    /** Applications held, all shapes together (for tests). */
    int size() {
        int n = 0;
        for (int i = 0; i < shapes.length(); i++) {
            Shape s = shapes.get(i);
            n += s == null ? 0 : s.segments.size();
        }
        return n;
    }

    private void dropIdle(long now) {
        for (int i = 0; i < shapes.length(); i++) {
            Shape s = shapes.get(i);
            if (s != null && now - s.builtAt > IDLE_SHAPE_MILLIS) {
                shapes.compareAndSet(i, s, null);
            }
        }
    }

    private static int shape(WireFormat format, Detail detail, boolean delta) {
        return (delta ? 4 : 0) + format.ordinal() * 2 + detail.ordinal();
    }

    private record Shape(Map<String, Segment> segments, long builtAt) {
    }

    /**
     * One application's list form, what it was encoded from, and its compressed form once asked for. The list form
     * is kept as ranges of the instances' fragments, not as a copy: the fragments are held once for every shape of
     * a wire form, and a copy per shape (full registry and delta) was two more copies of the registry's text.
     */
    static final class Segment {
        final InstanceInfo[] sources;
        final FragmentCodec.ListForm form;
        final long encodedAt;
        /** When its fragments were last marked in use; written by rebuilds of its shape (a race only marks twice). */
        volatile long keptAt;
        private volatile Compressed compressed;

        Segment(InstanceInfo[] sources, FragmentCodec.ListForm form, long encodedAt) {
            this.sources = sources;
            this.form = form;
            this.encodedAt = encodedAt;
            this.keptAt = encodedAt;
        }

        long length() {
            return form.pieces.size();
        }

        GzipParts.Part compressedForm() {
            Compressed c = compressed;
            return c == null ? null : c.part;
        }

        /**
         * Compressed after {@code before} (the segment preceding it, or null) with {@code separator} in front. The
         * compressed form is kept while the bytes it may refer back to are the same ranges of the same fragments,
         * even when the segment before it is another one: a changed application is compressed again, the one after
         * it only when the changed one's last bytes changed.
         */
        GzipParts.Part compressed(Deflater deflater, Segment before, byte[] separator) {
            Assembly dictionary = before == null ? null : before.form.pieces.tailRanges(GzipParts.DICTIONARY);
            Compressed c = compressed;
            if (c != null && c.separator == separator && Assembly.sameRanges(c.dictionary, dictionary)) {
                return c.part;
            }
            GzipParts.Part part = GzipParts.part(deflater, dictionary == null ? null : dictionary.toByteArray(),
                    separator, form.pieces, false);
            compressed = new Compressed(dictionary, separator, part);
            return part;
        }
    }

    /**
     * A compressed form and the context it is valid in: the ranges it was compressed against (which hold on to at
     * most the last fragments of the application before it) and the separator.
     */
    private record Compressed(Assembly dictionary, byte[] separator, GzipParts.Part part) {
    }
}
