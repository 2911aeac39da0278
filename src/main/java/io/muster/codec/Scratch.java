package io.muster.codec;

import java.io.ByteArrayOutputStream;

/**
 * Buffers that a run of instances is encoded in one after another, each instance's parts then copied out at their
 * size: a buffer per instance (grown by doubling, copied whole, then cut in two) allocated four times the JSON of
 * every instance encoded, the largest share of what a node allocates under churn. Not thread-safe: one per caller
 * (a run of instances, a snapshot).
 */
final class Scratch {
    private Stream stream;
    private Bytes bytes;

    /** An empty stream, reused. */
    Stream stream() {
        if (stream == null) {
            stream = new Stream();
        }
        stream.reset();
        return stream;
    }

    /** Empty bytes, reused. */
    Bytes bytes() {
        if (bytes == null) {
            bytes = new Bytes(256);
        }
        bytes.reset();
        return bytes;
    }

    /** A stream whose array is read in place. */
    static final class Stream extends ByteArrayOutputStream {
        Stream() {
            super(2048);
        }

        byte[] array() {
            return buf;
        }
    }
}
