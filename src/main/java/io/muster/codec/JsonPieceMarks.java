package io.muster.codec;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.Arrays;

/**
 * Where each piece of an instance being encoded starts in the output, and what it holds
 * ({@link InstancePieces}): flushing hands the generator's buffer to the output. Consecutive marks of one kind make
 * one piece. Not thread-safe: one per instance encoded.
 */
final class JsonPieceMarks {
    /** The instance's own text: its id, host, address, URLs, timestamps. */
    static final int OWN = 0;
    /** Text other instances are likely to hold too. */
    static final int SHARED = 1;
    /** The lease, which the fragment leaves out. */
    static final int LEASE = 2;
    private final Scratch.Stream out;
    private final int[] starts = new int[16];
    private final int[] kinds = new int[16];
    private int count;
    private JsonGenerator g;

    JsonPieceMarks(Scratch.Stream out) {
        this.out = out;
        kinds[count++] = OWN;   // the instance's id and host open it
    }

    JsonPieceMarks writingTo(JsonGenerator generator) {
        this.g = generator;
        return this;
    }

    void mark(int kind) throws IOException {
        if (kind == kinds[count - 1] && kind != LEASE) {
            return;
        }
        g.flush();
        starts[count] = out.size();
        kinds[count++] = kind;
    }

    /** The pieces, the output being {@code end} bytes long. */
    InstancePieces cut(int end) {
        InstancePieces.Builder pieces = new InstancePieces.Builder();
        byte[] all = out.array();
        for (int k = 0; k < count; k++) {
            int to = k + 1 < count ? starts[k + 1] : end;
            if (kinds[k] == LEASE) {
                pieces.lease();
            } else {
                pieces.add(Arrays.copyOfRange(all, starts[k], to), kinds[k] == SHARED);
            }
        }
        return pieces.build();
    }
}
