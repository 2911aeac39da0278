package io.muster.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * An instance's encoding cut into pieces around its lease, the lease itself left out: {@code pieces[0, leaseAt)}
 * go before it, the rest after it. A piece marked {@link #isShared} holds only text that other instances are
 * likely to hold too (the application's name, status, ports, data centre, metadata, VIP addresses), so that
 * {@link FragmentCodec} keeps one copy of it for all of them; the other pieces hold the instance's own text (its
 * id, host, address, URLs and timestamps). No piece is empty.
 *
 * @param shared bit {@code k} set when {@code pieces[k]} is shared
 */
record InstancePieces(byte[][] pieces, int leaseAt, long shared) {
    /** At most this many pieces, so that {@code shared} has a bit for each. */
    static final int MAX_PIECES = 64;

    boolean isShared(int k) {
        return (shared >>> k & 1) != 0;
    }

    /** Two pieces of the instance's own text around the lease (the empty ones left out). */
    static InstancePieces around(byte[] before, byte[] after) {
        Builder b = new Builder();
        b.add(before, false);
        b.lease();
        b.add(after, false);
        return b.build();
    }

    /** Collects pieces in order; empty ones are left out. Not thread-safe. */
    static final class Builder {
        private final List<byte[]> pieces = new ArrayList<>(12);
        private long shared;
        private int leaseAt = -1;

        void add(byte[] piece, boolean isShared) {
            if (piece.length == 0) {
                return;
            }
            if (pieces.size() == MAX_PIECES) {   // never with the encoders' marks: they cut an instance in at most 11
                throw new IllegalStateException("an instance cut in more than " + MAX_PIECES + " pieces");
            }
            shared |= isShared ? 1L << pieces.size() : 0;
            pieces.add(piece);
        }

        /** The lease goes here. */
        void lease() {
            leaseAt = pieces.size();
        }

        InstancePieces build() {
            return new InstancePieces(pieces.toArray(new byte[0][]), leaseAt < 0 ? pieces.size() : leaseAt, shared);
        }
    }
}
