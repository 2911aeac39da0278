package io.muster.api;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestBodiesTest {
    private static byte[] body(int size) {
        byte[] b = new byte[size];
        new Random(size).nextBytes(b);
        return b;
    }

    /** Hands out at most {@code chunk} bytes per read, as a socket does. */
    private static InputStream trickling(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    @Test
    void bodiesOfEverySizeAroundTheFirstArrayAndItsDoublingsComeBackWhole() {
        for (int size : new int[] {1, 1500, RequestBodies.FIRST_READ - 1, RequestBodies.FIRST_READ,
                RequestBodies.FIRST_READ + 1, 2 * RequestBodies.FIRST_READ, 100_000}) {
            byte[] b = body(size);
            assertThat(RequestBodies.read(new ByteArrayInputStream(b), null)).as("size " + size).isEqualTo(b);
            assertThat(RequestBodies.read(trickling(b, 7), null)).as("size " + size + " trickled").isEqualTo(b);
        }
    }

    @Test
    void aDeclaredLengthSizesTheArrayAndAWrongOneStillGivesTheBodyAsSent() {
        byte[] b = body(1500);
        byte[] exact = RequestBodies.read(trickling(b, 7), null, RequestBodies.MAX_BYTES, 1500);
        assertThat(exact).isEqualTo(b);
        for (long declared : new long[] {1, 1499, 1501, 4096, RequestBodies.MAX_HINT + 1L, RequestBodies.MAX_BYTES,
                Long.MAX_VALUE}) {
            assertThat(RequestBodies.read(trickling(b, 7), null, RequestBodies.MAX_BYTES, declared))
                    .as("declared " + declared).isEqualTo(b);
        }
        byte[] over = body(RequestBodies.MAX_BYTES + 1);
        assertThatThrownBy(() -> RequestBodies.read(trickling(over, 1000), null, RequestBodies.MAX_BYTES, 1500))
                .as("a body longer than declared and than the bound")
                .isInstanceOfSatisfying(Problem.class, p -> assertThat(p.status()).isEqualTo(413));
    }

    @Test
    void aBodyOfExactlyTheBoundIsReadAndOneByteMoreIsA413() {
        byte[] atBound = body(RequestBodies.MAX_BYTES);
        assertThat(RequestBodies.read(trickling(atBound, 1000), null)).isEqualTo(atBound);

        byte[] over = body(RequestBodies.MAX_BYTES + 1);
        assertThatThrownBy(() -> RequestBodies.read(trickling(over, 1000), null))
                .isInstanceOfSatisfying(Problem.class, p -> assertThat(p.status()).isEqualTo(413));
    }

    @Test
    void aSmallerBoundOfTheCallerHolds() {
        assertThat(RequestBodies.read(new ByteArrayInputStream(body(10)), null, 10)).hasSize(10);
        assertThatThrownBy(() -> RequestBodies.read(new ByteArrayInputStream(body(11)), null, 10))
                .isInstanceOfSatisfying(Problem.class, p -> assertThat(p.status()).isEqualTo(413));
    }

    @Test
    void aGzippedBodyIsInflatedAndTheBoundAppliesToWhatItInflatesTo() throws IOException {
        byte[] plain = new byte[50_000];
        Arrays.fill(plain, (byte) 'a');
        assertThat(RequestBodies.read(new ByteArrayInputStream(gzip(plain)), "gzip")).isEqualTo(plain);

        byte[] bomb = new byte[RequestBodies.MAX_BYTES * 2];
        assertThatThrownBy(() -> RequestBodies.read(new ByteArrayInputStream(gzip(bomb)), "GZIP"))
                .isInstanceOfSatisfying(Problem.class, p -> assertThat(p.status()).isEqualTo(413));
    }

    @Test
    void anEmptyBodyIsA400() {
        assertThatThrownBy(() -> RequestBodies.read(new ByteArrayInputStream(new byte[0]), null))
                .isInstanceOfSatisfying(Problem.class, p -> assertThat(p.status()).isEqualTo(400));
    }

    private static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }
}
