package io.muster.codec;

import io.muster.model.InstanceInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import java.util.zip.Deflater;

/**
 * Full-registry and delta payloads kept as segments, each a run of one application's instances ({@link #runEnd}),
 * so a rebuild costs in proportion to what changed rather than to the size of the registry or of an application: a
 * run whose instances are the very objects it was encoded from keeps its bytes and its compressed form; only changed
 * runs are decorated, assembled again from their instances' fragments ({@link FragmentCodec}, which encodes only
 * instances it has not seen) and compressed again (and, for gzip, the segment after one whose last fragments
 * changed, since its compression refers back into them).
 * Under steady churn of 10,000 instances this turns a rebuild from a re-encode and a re-compression of 9 MB into a
 * few dozen runs' worth (docs/benchmark.md).
 *
 * <p>Lease timestamps are written when a run is first encoded and then each time it is re-encoded for age; a
 * change writes the changed instances' leases and keeps the others' bytes. So a run's lease
 * timestamps are at most {@value #REENCODE_AFTER_MILLIS} ms old or a little more (at most a tenth of the
 * segments is re-encoded for age in one build; an instance moved into another run by its neighbours coming or going
 * keeps its bytes until that run's age is due), like Eureka's cached payloads (whose renewal times are as old as
 * the cache entry). Renewals never trigger a rebuild here or there. Above {@value #REENCODE_SCALE_INSTANCES}
 * instances the age grows with the registry, up to {@value #MAX_REENCODE_AFTER_MILLIS} ms at
 * {@value #MAX_REENCODE_INSTANCES} (see {@link #reencodeAfterMillis}).
 *
 * <p>Memory: per shape in use (format, detail, full or delta) the ranges of every run's fragments (about
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
     * Unchanged segments re-encoded for their lease timestamps' age alone, at most a tenth of the last build's
     * segments (and at least this many) per build: a registry registered in one burst turns old all at once, and at a million
     * instances re-encoding and compressing all of it took one build 7 s, during which no change could be served.
     */
    static final int MIN_AGED_PER_BUILD = 64;
    static final int AGED_SHARE_PER_BUILD = 10;
    static final long IDLE_SHAPE_MILLIS = 300_000;
    /**
     * An application is kept as runs of its instances, one segment each, so that a change re-encodes and compresses
     * one run (about 24 KB of JSON), not the whole application: a change in an application of 1,000 instances
     * compressed 1 MB again. Runs are cut where the instances' ids say ({@link #runEnd}), {@value #MIN_RUN} to
     * {@value #MAX_RUN} instances long, about {@value #MIN_RUN} + {@value #RUN_SPREAD} on average. That costs the
     * gzip form little (10,000 instances: 1.7 % more bytes in 500 applications of 20, 0.2 % in ten of 1,000;
     * RebuildCostBench), since deflate ends a block every 16 K symbols or so anyway.
     */
    static final int MIN_RUN = 8;
    static final int RUN_SPREAD = 16;
    static final int MAX_RUN = 64;
    /** How many runs a lookup for a run's predecessor skips at most: more runs gone at once cost a re-encode. */
    private static final int MATCH_AHEAD = 4;
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
        fragments.keepAtEachSweep(this::eachForm);
    }

    /** Every list form of every shape held. */
    private void eachForm(java.util.function.Consumer<FragmentCodec.ListForm> each) {
        for (int i = 0; i < shapes.length(); i++) {
            Shape s = shapes.get(i);
            if (s != null) {
                for (Segment[] runs : s.segments.values()) {
                    for (Segment run : runs) {
                        each.accept(run.form);
                    }
                }
            }
        }
    }

    /**
     * The payload for this document: the bytes {@link EurekaCodec#encode(WireFormat, io.muster.model.Applications,
     * Detail)} gives for all of its applications built now, apart from lease timestamps as described above.
     */
    public SegmentedDocument encode(WireFormat format, Detail detail, boolean delta, AppsDocument document) {
        long now = millis.getAsLong();
        int index = shape(format, detail, delta);
        Shape previous = shapes.get(index);
        Map<String, Segment[]> kept = previous == null ? Map.of() : previous.segments;
        Map<String, Segment[]> next = new HashMap<>(Math.max(16, document.apps().size() * 2));
        List<Segment> ordered = new ArrayList<>(previous == null ? document.apps().size() : previous.count + 16);
        int ageBudget = Math.max(MIN_AGED_PER_BUILD, (previous == null ? 0 : previous.count) / AGED_SHARE_PER_BUILD);
        long maxAge = reencodeAfterMillis(document.instances());
        List<Segment> runs = new ArrayList<>();
        int scale = detail == Detail.COMPACT ? 2 : 1;   // compact instances are about half as long
        for (AppsDocument.App app : document.apps()) {
            Segment[] before = kept.get(app.name());
            InstanceInfo[] all = app.sources();
            runs.clear();
            int matched = 0;   // runs of before passed: an application's instances keep their relative order
            for (int from = 0, to; from < all.length || runs.isEmpty(); from = to) {
                to = runEnd(all, from, scale);
                boolean first = from == 0;
                boolean last = to == all.length;
                int at = match(before, matched, all, from);
                Segment s = at < 0 ? null : before[at];
                matched = at < 0 ? matched : at + 1;
                boolean changed = s == null || s.first != first || s.last != last || !app.sameSources(from, to,
                        s.sources);
                boolean old = s != null && now - s.encodedAt > maxAge;
                if (changed || old && ageBudget-- > 0) {
                    // a change keeps the other instances' lease bytes, and the segment its age: rewriting them gave
                    // the segment new last bytes (the next one's compression dictionary) at nearly every change
                    boolean keepLeases = s != null && !old;
                    InstanceInfo[] sources = Arrays.copyOfRange(all, from, to);
                    int offset = from;
                    s = new Segment(sources, fragments.listForm(format, app.name(), detail, sources,
                            k -> app.leases().apply(offset + k), keepLeases, first, last),
                            keepLeases ? s.encodedAt : now, first, last);
                }
                runs.add(s);
            }
            next.put(app.name(), runs.toArray(new Segment[0]));
            ordered.addAll(runs);
        }
        shapes.set(index, new Shape(next, now, ordered.size()));
        dropIdle(now);
        return new SegmentedDocument(Envelope.of(format, document.version(), document.appsHashCode(), detail),
                ordered.toArray(new Segment[0]));
    }

    /**
     * Where the run starting at {@code from} ends. Runs end after an instance whose id hashes to a boundary (one in
     * {@value #RUN_SPREAD}), once {@value #MIN_RUN} long and at most {@value #MAX_RUN}: so an instance that comes or
     * goes (a deploy, a departure, an entry leaving the delta window) changes the run it is in and not every run
     * after it, as cutting at fixed counts would. Compact runs are {@code scale} times as long.
     */
    static int runEnd(InstanceInfo[] sources, int from, int scale) {
        int to = Math.min(sources.length, from + MAX_RUN * scale);
        for (int i = from + MIN_RUN * scale - 1; i < to; i++) {
            int h = sources[i].id().hashCode() * 0x9E3779B9;
            if (((h ^ h >>> 16) & (RUN_SPREAD * scale - 1)) == 0) {
                return i + 1;
            }
        }
        return to;
    }

    /**
     * The run of {@code before}, from {@code matched} on and a few runs ahead at most, that started with the
     * instance {@code all[from]} starts this one with (by id), or -1. An empty application is its one empty run.
     */
    private static int match(Segment[] before, int matched, InstanceInfo[] all, int from) {
        if (before == null) {
            return -1;
        }
        int end = Math.min(before.length, matched + MATCH_AHEAD);
        for (int k = matched; k < end; k++) {
            InstanceInfo[] sources = before[k].sources;
            if (from == all.length ? sources.length == 0
                    : sources.length > 0 && sources[0].id().equals(all[from].id())) {
                return k;
            }
        }
        return -1;
    }

    /** How old an unchanged run's encoding may grow in a document of this many instances. */
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
            n += s == null ? 0 : s.segments.values().stream().mapToInt(runs -> runs.length).sum();
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

    /** @param count segments in all (the age budget's base) */
    private record Shape(Map<String, Segment[]> segments, long builtAt, int count) {
    }

    /**
     * One run's list form, what it was encoded from, and its compressed form once asked for. The list form is kept
     * as ranges of the instances' fragments, not as a copy: the fragments are held once for every shape of a wire
     * form, and a copy per shape (full registry and delta) was two more copies of the registry's text.
     */
    static final class Segment {
        final InstanceInfo[] sources;
        final FragmentCodec.ListForm form;
        final long encodedAt;
        /** Whether it opens its application (the document's separator goes before it) and closes it. */
        final boolean first;
        final boolean last;
        private volatile Compressed compressed;

        Segment(InstanceInfo[] sources, FragmentCodec.ListForm form, long encodedAt, boolean first, boolean last) {
            this.sources = sources;
            this.form = form;
            this.encodedAt = encodedAt;
            this.first = first;
            this.last = last;
        }

        long length() {
            return form.pieces().size();
        }

        GzipParts.Part compressedForm() {
            Compressed c = compressed;
            return c == null ? null : c.part;
        }

        /**
         * Compressed after {@code before} (the segment preceding it, or null) with {@code separator} in front. The
         * compressed form is kept while the bytes it may refer back to are the same ranges of the same fragments,
         * even when the segment before it is another one: a changed run is compressed again, the one after
         * it only when the changed one's last bytes changed.
         */
        GzipParts.Part compressed(Deflater deflater, Segment before, byte[] separator) {
            FragmentCodec.ListForm after = before == null ? null : before.form;
            Compressed c = compressed;
            if (c != null && c.separator == separator) {
                if (c.after == after) {
                    return c.part;
                }
                if (c.after != null && after != null && Assembly.sameRanges(dictionary(c.after), dictionary(after))) {
                    compressed = new Compressed(after, separator, c.part);   // and the old one's fragments may go
                    return c.part;
                }
            }
            GzipParts.Part part = GzipParts.part(deflater, after == null ? null : dictionary(after).toByteArray(),
                    separator, form.pieces(), false);
            compressed = new Compressed(after, separator, part);
            return part;
        }

        private static Assembly dictionary(FragmentCodec.ListForm form) {
            return form.pieces().tailRanges(GzipParts.DICTIONARY);
        }
    }

    /**
     * A compressed form and the context it is valid in: the list form of the segment it follows (it refers back
     * into that one's last {@link GzipParts#DICTIONARY} bytes), or null, and the separator. Keeping the list form
     * rather than the ranges of its tail costs a reference instead of twelve bytes a range (a dozen ranges an
     * instance); a changed segment before it whose tail is the same ranges is found the same at the next build.
     */
    private record Compressed(FragmentCodec.ListForm after, byte[] separator, GzipParts.Part part) {
    }
}
