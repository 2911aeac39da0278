package io.muster.web;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Arrays;

/**
 * One body as it arrives: one array, grown by doubling up to its bound (or its declared length), never more
 * than one byte past the bound. Owned by one thread at a time (the request thread, then the read callbacks).
 */
final class ArrivingBody {
    /** The first array of a body that declares no length (chunked). */
    private static final int FIRST_BYTES = 4096;
    /** The largest array made for a declared length before its bytes arrive. */
    private static final int MAX_HINT = 16 * 1024;

    private final long declared;
    private final int limit;
    private byte[] bytes;
    private int size;
    private boolean ended;

    ArrivingBody(long declared, int limit) {
        this.declared = declared;
        this.limit = limit;
        this.bytes = new byte[(int) Math.min(declared > 0 ? declared : FIRST_BYTES,
                Math.min(limit + 1L, declared > 0 ? MAX_HINT : FIRST_BYTES))];
    }

    /**
     * Reads what the container holds already, never waiting; true when that is the whole body. Only a body of a
     * declared length: there {@code available()} counts body bytes, which a read returns at once. A chunked body's
     * count includes framing (a chunk's size line), and a read past it waits for the chunk's data, so a chunked body
     * is left to the non-blocking callbacks from its first byte.
     */
    boolean readArrived(ServletInputStream in) throws IOException {
        if (declared < 0) {
            return false;
        }
        while (!isWhole() && in.available() > 0) {
            if (!readOnce(in)) {
                break;
            }
        }
        return isWhole();
    }

    /** Reads on until the body is whole, blocking. */
    void readRest(ServletInputStream in) throws IOException {
        while (!isWhole()) {
            readOnce(in);
        }
    }

    /**
     * Reads once into the room left, growing the array first when it is full.
     *
     * @return false when the array is full and may not grow further (the caller decides: budget or bound)
     */
    boolean readOnce(ServletInputStream in) throws IOException {
        if (size == bytes.length && !growTo(nextCapacity())) {
            return false;
        }
        int n = in.read(bytes, size, bytes.length - size);
        if (n < 0) {
            ended = true;
        } else {
            size += n;
        }
        return true;
    }

    /** The next array's length when this one is full. */
    int nextCapacity() {
        long cap = declared > 0 ? Math.min(declared, limit + 1L) : limit + 1L;
        return (int) Math.min(cap, bytes.length * 2L);
    }

    boolean growTo(int capacity) {
        if (capacity <= bytes.length) {
            return false;
        }
        bytes = Arrays.copyOf(bytes, capacity);
        return true;
    }

    /** Sent in full, or one byte past the bound (the handler refuses it; the rest is never read). */
    boolean isWhole() {
        return ended || size > limit || declared >= 0 && size >= declared;
    }

    boolean isFull() {
        return size == bytes.length;
    }

    boolean isOverBound() {
        return size > limit;
    }

    int capacity() {
        return bytes.length;
    }

    /** The request as handlers see it; an over-bound one's connection is closed after its answer. */
    HttpServletRequest request(HttpServletRequest req, HttpServletResponse rsp) {
        if (isOverBound()) {
            rsp.setHeader("Connection", "close");
        }
        return new BufferedBodyRequest(req, bytes, size);
    }
}
