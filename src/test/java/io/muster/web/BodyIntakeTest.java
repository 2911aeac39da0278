package io.muster.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** How a body is gathered: what already arrived is read without waiting, and no more than one byte past its bound. */
class BodyIntakeTest {
    /** Hands out the bytes that have "arrived" so far; reading past them would block, so it fails the test. */
    private static final class Arriving extends ServletInputStream {
        private final byte[] all;
        private int arrived;
        private int position;

        Arriving(byte[] all, int arrived) {
            this.all = all;
            this.arrived = arrived;
        }

        void arrive(int n) {
            arrived = Math.min(all.length, arrived + n);
        }

        @Override
        public int read() {
            throw new AssertionError("single-byte reads are not used");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position == all.length) {
                return -1;
            }
            if (position == arrived) {
                throw new AssertionError("a read that would have waited for the client");
            }
            int n = Math.min(len, arrived - position);
            System.arraycopy(all, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return arrived - position;
        }

        @Override
        public boolean isFinished() {
            return position == all.length;
        }

        @Override
        public boolean isReady() {
            return position < arrived || position == all.length;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'a');
        return b;
    }

    @Test
    void aBodyThatArrivedWithItsHeadersIsWholeAtOnceInAnArrayOfItsLength() throws IOException {
        Arriving in = new Arriving(bytes(1500), 1500);
        ArrivingBody body = new ArrivingBody(1500, 1 << 20);
        assertThat(body.readArrived(in)).isTrue();
        assertThat(body.capacity()).isEqualTo(1500);
        assertThat(body.isOverBound()).isFalse();
    }

    @Test
    void aBodyThatHasNotAllArrivedIsReadOnlyAsFarAsItCame() throws IOException {
        Arriving in = new Arriving(bytes(40_000), 700);
        ArrivingBody body = new ArrivingBody(40_000, 1 << 20);
        assertThat(body.readArrived(in)).isFalse();
        assertThat(body.capacity()).as("a declared length alone reserves at most 16 KB").isEqualTo(16 * 1024);
        for (int i = 0; i < 100 && !body.isWhole(); i++) {
            in.arrive(3_000);
            while (in.isReady() && !body.isWhole()) {
                body.readOnce(in);
            }
        }
        assertThat(body.isWhole()).isTrue();
        assertThat(body.capacity()).as("grown to the declared length, not past it").isEqualTo(40_000);
    }

    @Test
    void aBodyPastItsBoundStopsOneBytePastIt() throws IOException {
        Arriving in = new Arriving(bytes(10_000), 10_000);
        ArrivingBody body = new ArrivingBody(10_000, 5_000);
        assertThat(body.readArrived(in)).isTrue();
        assertThat(body.isOverBound()).isTrue();
        assertThat(body.capacity()).isEqualTo(5_001);
        assertThat(in.available()).as("the rest is left unread").isEqualTo(10_000 - 5_001);
    }

    /** What a chunked body's stream says is available includes framing: a read could wait, so none is made. */
    @Test
    void aChunkedBodyIsLeftToTheCallbacksAndEndsWhenTheStreamDoes() throws IOException {
        Arriving in = new Arriving(bytes(9_000), 9_000);
        ArrivingBody body = new ArrivingBody(-1, 1 << 20);
        assertThat(body.readArrived(in)).isFalse();
        assertThat(in.available()).as("nothing read on the request thread").isEqualTo(9_000);
        body.readRest(in);
        assertThat(body.isWhole()).isTrue();
        assertThat(body.isOverBound()).isFalse();
        assertThat(body.capacity()).as("doubled from 4 KB").isEqualTo(16_384);
    }
}
