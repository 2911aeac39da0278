package io.muster.codec;

import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member made of parts compressed separately, so a payload whose parts mostly did not change is
 * compressed again only where it did. Each part is raw deflate ending in a sync flush (a byte boundary, no final
 * block), so parts can follow one another in one deflate stream; the last part is finished instead. A part may
 * be compressed with a dictionary, which lets it refer back into the bytes that precede it in the payload
 * (deflate's window is 32 KB): the caller must put exactly those bytes in front of it. The member's CRC comes from
 * the parts' CRCs ({@link Crc32Combine}). Any gzip reader sees one ordinary member.
 *
 * <p>Thread safety: stateless; a {@link Deflater} passed in belongs to the calling thread.
 */
public final class GzipParts {
    /**
     * zlib's level 3, not its default 6: under churn every changed application is compressed twice (itself and the
     * one after it, whose dictionary it is) on every rebuild, about once a second, while a full registry is fetched
     * rarely (deltas are what clients poll). On a 10,000-instance registry (9.5 MB of JSON, 20 KB segments) level
     * 3 took 33 ms for 4.9 % of the JSON, level 6 71 ms for 4.2 %, level 1 30 ms for 5.4 %: half the CPU of every
     * rebuild for 16 % more bytes per full fetch.
     */
    static final int LEVEL = 3;
    static final byte[] NO_BYTES = {};
    /**
     * How much of what precedes a part it is compressed against: 2 KB, not deflate's whole 32 KB window. A part
     * is an application's instances, which repeat one another; what it gains from the application before it is
     * that one's last instance or two. Setting a 32 KB dictionary hashed 32 KB for every part compressed, about 40 %
     * of the time; 10,000 instances in 20 KB segments took 12.9 ms instead of 21.6 ms, 5.35 % of the JSON instead
     * of 5.25 % (and the full registry's JSON and XML gzip came out 1 % smaller, RebuildCostBench).
     */
    static final int DICTIONARY = 2 * 1024;
    /** What short ranges are gathered in before the deflater takes them ({@link Assembly#deflate}). */
    private static final int CHUNK = 4096;
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, 0};

    private GzipParts() {
    }

    /**
     * A compressed part with the CRC and length of what it inflates to. Its bytes are held once: at first in an
     * array of their own, then, once a member is joined from it, as a range of that member ({@link #member}), which
     * the payload holds anyway. Holding both was about 100 bytes per instance at a million (the full registry's and
     * the delta's compressed segments, and again their joined answers). The part keeps its identity through the
     * move: a kept compressed form is recognised by it.
     *
     * <p>Thread safety: its place is one immutable pair published through a volatile; two members joined from it
     * at once both hold its bytes, and either may be where it points.
     */
    public static final class Part {
        private volatile Place place;
        private final int size;
        private final int crc;
        private final long length;

        Part(byte[] deflated, int crc, long length) {
            this.place = new Place(deflated, 0);
            this.size = deflated.length;
            this.crc = crc;
            this.length = length;
        }

        /** Whether its bytes are a range of {@code member} (for tests). */
        boolean heldIn(byte[] member) {
            return place.array == member;
        }

        /** Copies its bytes into {@code out} at {@code at}, then takes them from there on. */
        private void moveInto(byte[] out, int at) {
            Place p = place;
            System.arraycopy(p.array, p.offset, out, at, size);
            place = new Place(out, at);
        }
    }

    private record Place(byte[] array, int offset) {
    }

    /**
     * Compresses {@code prefix} then {@code body} as one part.
     *
     * @param dictionary the bytes that will precede this part in the payload (only the last {@link #DICTIONARY}
     *                   bytes are used), or null
     * @param last       whether this part ends the payload (its final block is marked as such)
     */
    static Part part(Deflater deflater, byte[] dictionary, byte[] prefix, byte[] body, boolean last) {
        return part(deflater, dictionary, prefix, new Assembly(1).add(body), last);
    }

    /** {@link #part(Deflater, byte[], byte[], byte[], boolean)} of a body kept as ranges, without joining them. */
    static Part part(Deflater deflater, byte[] dictionary, byte[] prefix, Assembly body, boolean last) {
        deflater.reset();
        deflater.setLevel(LEVEL);
        if (dictionary != null && dictionary.length > 0) {
            int len = Math.min(DICTIONARY, dictionary.length);
            deflater.setDictionary(dictionary, dictionary.length - len, len);
        }
        Out out = new Out((int) Math.max(64, (prefix.length + body.size()) / 8));
        CRC32 crc = new CRC32();
        crc.update(prefix);
        if (prefix.length > 0) {
            deflater.setInput(prefix);
            out.consume(deflater);
        }
        body.deflate(deflater, crc, new byte[(int) Math.min(CHUNK, body.size())], () -> out.consume(deflater));
        if (last) {
            out.finish(deflater);
        } else {
            out.syncFlush(deflater);
        }
        return new Part(out.toByteArray(), (int) crc.getValue(), prefix.length + body.size());
    }

    /**
     * The gzip member of these parts, in order; the last must have been made with {@code last}. The parts hold
     * their bytes in it from then on (see {@link Part}).
     */
    static byte[] member(Part[] parts) {
        long size = HEADER.length + 8;
        int crc = 0;
        long length = 0;
        for (Part p : parts) {
            size += p.size;
            crc = Crc32Combine.combine(crc, p.crc, p.length);
            length += p.length;
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("gzip payload of " + size + " bytes is too large for one array");
        }
        byte[] out = Arrays.copyOf(HEADER, (int) size);
        int at = HEADER.length;
        for (Part p : parts) {
            p.moveInto(out, at);
            at += p.size;
        }
        at = littleEndian(out, at, crc);
        littleEndian(out, at, (int) length);   // ISIZE is the length modulo 2^32
        return out;
    }

    private static int littleEndian(byte[] out, int at, int v) {
        for (int i = 0; i < 4; i++) {
            out[at++] = (byte) (v >>> (8 * i));
        }
        return at;
    }

    /** A growing output buffer for one part. */
    private static final class Out {
        private byte[] buf;
        private int size;

        Out(int initial) {
            buf = new byte[initial];
        }

        /** Takes all input into the deflater, writing whatever it emits meanwhile. */
        void consume(Deflater deflater) {
            while (!deflater.needsInput()) {
                int room = room();   // before reading buf: it may grow
                size += deflater.deflate(buf, size, room, Deflater.NO_FLUSH);
            }
        }

        /** Ends the part on a byte boundary without a final block; a full buffer means there may be more. */
        void syncFlush(Deflater deflater) {
            while (true) {
                int room = room();
                int n = deflater.deflate(buf, size, room, Deflater.SYNC_FLUSH);
                size += n;
                if (n < room) {
                    return;
                }
            }
        }

        void finish(Deflater deflater) {
            deflater.finish();
            while (!deflater.finished()) {
                int room = room();
                size += deflater.deflate(buf, size, room);
            }
        }

        private int room() {
            if (size == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            return buf.length - size;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, size);
        }
    }
}
