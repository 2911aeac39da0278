package io.muster.api;

/**
 * The largest request bodies taken, declared once for the handlers that refuse larger ones (413) and for the front
 * door, which stops reading a body one byte past its bound.
 */
public final class BodyLimits {
    /** A registration, or any other body of a client's: an ordinary one is 1-2 KB. */
    public static final int CLIENT_BYTES = 1 << 20;
    /** A peer's replication batch: 250 registrations take well under 1 MiB; the headroom is for large metadata. */
    public static final int PEER_BATCH_BYTES = 16 << 20;

    private BodyLimits() {
    }

    /**
     * A body already read whole into memory (by the front door): handlers take its array as it is instead of
     * copying it once more.
     */
    public interface InMemory {
        /** The body's bytes, exactly as many as were sent (the array is the caller's from then on). */
        byte[] takeBytes();
    }
}
