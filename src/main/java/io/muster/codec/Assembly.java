package io.muster.codec;

import java.util.Arrays;

/**
 * A payload as a list of ranges of ready byte arrays, copied once into an array of exactly the right size: a
 * 10,000-instance registry is ~9 MB, and a growing buffer would allocate and copy it about twice more (large
 * arrays that the collector handles specially). The arrays must not change until {@link #toByteArray}. Not
 * thread-safe: one per assembly.
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

    byte[] toByteArray() {
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("payload of " + size + " bytes is too large for one array");
        }
        byte[] out = new byte[(int) size];
        int at = 0;
        for (int i = 0; i < count; i++) {
            System.arraycopy(arrays[i], offsets[i], out, at, lengths[i]);
            at += lengths[i];
        }
        return out;
    }
}
