package io.muster.codec;

import java.util.Arrays;

/**
 * A payload as a list of ranges of ready byte arrays, copied once into an array of exactly the right size: a
 * 10,000-instance registry is ~9 MB, and a growing buffer would allocate and copy it about twice more (large
 * arrays that the collector handles specially). The arrays must not change while the assembly is in use.
 *
 * <p>An assembly can also be kept instead of its bytes ({@link #trimmed}): an application's segment is its
 * instances' fragments, so keeping the ranges (12 bytes each, four per instance) instead of a copy (about 1 KB
 * per instance in JSON) is what lets a registry's payloads cost one copy of its text rather than one per shape.
 *
 * <p>Thread safety: not thread-safe while being added to (one per assembly); a trimmed assembly is never added to
 * again and may be read by any thread once published through a final field.
 */
final class Assembly {
    private static final byte[] COMMA = {','};
    private byte[][] arrays;
    private int[] offsets;
    private int[] lengths;
    private int count;
    private long size;

    Assembly(int expectedPieces) {
        arrays = new byte[Math.max(16, expectedPieces)][];
        offsets = new int[arrays.length];
        lengths = new int[arrays.length];
    }

    private Assembly(byte[][] arrays, int[] offsets, int[] lengths) {
        this.arrays = arrays;
        this.offsets = offsets;
        this.lengths = lengths;
    }

    Assembly add(byte[] b) {
        return add(b, 0, b.length);
    }

    Assembly add(byte[] b, int from, int length) {
        if (length == 0) {
            return this;
        }
        if (count == arrays.length) {
            arrays = Arrays.copyOf(arrays, count * 2);
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        arrays[count] = b;
        offsets[count] = from;
        lengths[count++] = length;
        size += length;
        return this;
    }

    Assembly comma() {
        return add(COMMA, 0, 1);
    }

    /** Adds every range of {@code other}, in order (the ranges, not copies of their bytes). */
    Assembly addAll(Assembly other) {
        for (int i = 0; i < other.count; i++) {
            add(other.arrays[i], other.offset(i), other.length(i));
        }
        return this;
    }

    /**
     * This assembly without spare capacity, to be kept and never added to again; when every range is a whole array
     * (as an application's list form is) only the arrays are kept.
     */
    Assembly trimmed() {
        arrays = Arrays.copyOf(arrays, count);
        boolean whole = true;
        for (int i = 0; i < count && whole; i++) {
            whole = offsets[i] == 0 && lengths[i] == arrays[i].length;
        }
        offsets = whole ? null : Arrays.copyOf(offsets, count);
        lengths = whole ? null : Arrays.copyOf(lengths, count);
        return this;
    }

    private int offset(int i) {
        return offsets == null ? 0 : offsets[i];
    }

    private int length(int i) {
        return lengths == null ? arrays[i].length : lengths[i];
    }

    long size() {
        return size;
    }

    /**
     * Gives the deflater the ranges in order, adding each to {@code crc}, and lets {@code consume} take each input
     * before the next one: short ranges are copied together into {@code chunk} first, since an instance is a dozen
     * ranges of a few dozen bytes and each input handed to the deflater costs a native call (given one by one,
     * they made compressing a segment half as slow again).
     */
    void deflate(java.util.zip.Deflater deflater, java.util.zip.CRC32 crc, byte[] chunk, Runnable consume) {
        int filled = 0;
        for (int i = 0; i < count; i++) {
            int length = length(i);
            boolean large = length > chunk.length / 2;
            if (filled > 0 && (large || filled + length > chunk.length)) {
                input(deflater, crc, chunk, 0, filled, consume);
                filled = 0;
            }
            if (large) {
                input(deflater, crc, arrays[i], offset(i), length, consume);
            } else {
                System.arraycopy(arrays[i], offset(i), chunk, filled, length);
                filled += length;
            }
        }
        if (filled > 0) {
            input(deflater, crc, chunk, 0, filled, consume);
        }
    }

    private static void input(java.util.zip.Deflater deflater, java.util.zip.CRC32 crc, byte[] b, int from, int length,
                              Runnable consume) {
        crc.update(b, from, length);
        deflater.setInput(b, from, length);
        consume.run();
    }

    /**
     * The ranges holding the last {@code max} bytes (all of them if fewer), the first one cut to fit: what a part
     * that follows them may be compressed against. Two tails with the same ranges of the same arrays hold the same
     * bytes, since the arrays never change.
     */
    Assembly tailRanges(int max) {
        int first = count;
        long left = Math.min(max, size);
        while (left > 0) {
            left -= length(--first);
        }
        int n = count - first;
        Assembly tail = new Assembly(new byte[n][], new int[n], new int[n]);   // asked for at every gzip build
        for (int i = first; i < count; i++) {
            int cut = i == first ? (int) -left : 0;   // left is minus the first range's bytes beyond max
            tail.add(arrays[i], offset(i) + cut, length(i) - cut);
        }
        return tail;
    }

    /** Whether both are the same ranges of the same arrays (so the same bytes), or both null. */
    static boolean sameRanges(Assembly a, Assembly b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.count != b.count) {
            return false;
        }
        for (int i = 0; i < a.count; i++) {
            if (a.arrays[i] != b.arrays[i] || a.offset(i) != b.offset(i) || a.length(i) != b.length(i)) {
                return false;
            }
        }
        return true;
    }

    byte[] toByteArray() {
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("payload of " + size + " bytes is too large for one array");
        }
        byte[] out = new byte[(int) size];
        int at = 0;
        for (int i = 0; i < count; i++) {
            System.arraycopy(arrays[i], offset(i), out, at, length(i));
            at += length(i);
        }
        return out;
    }
}
