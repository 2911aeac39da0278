package io.muster.codec;

import java.util.Arrays;

/**
 * A growable byte buffer that payloads are assembled in: ready fragments copied in whole, numbers written as ASCII
 * decimals without an intermediate String. Not thread-safe: one per assembly.
 */
final class Bytes {
    private byte[] buf;
    private int size;

    Bytes(int capacity) {
        buf = new byte[Math.max(64, capacity)];
    }

    Bytes raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    Bytes raw(byte[] b, int from, int length) {
        ensure(length);
        System.arraycopy(b, from, buf, size, length);
        size += length;
        return this;
    }

    Bytes raw(char asciiChar) {
        ensure(1);
        buf[size++] = (byte) asciiChar;
        return this;
    }

    /** Characters below 128 only (element names and digits); others would need UTF-8. */
    Bytes ascii(CharSequence s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[size++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** What {@link Long#toString(long)} gives, as ASCII. */
    Bytes decimal(long v) {
        if (v == Long.MIN_VALUE) {
            return ascii(Long.toString(v));
        }
        ensure(20);
        if (v < 0) {
            buf[size++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = size + digits - 1; i >= size; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        size += digits;
        return this;
    }

    int size() {
        return size;
    }

    void reset() {
        size = 0;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** Whether these are exactly the bytes of {@code other}. */
    boolean sameAs(byte[] other) {
        return Arrays.equals(buf, 0, size, other, 0, other.length);
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
