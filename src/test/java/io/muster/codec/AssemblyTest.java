package io.muster.codec;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A payload's tail, what the part after it is compressed against, and when two tails are known to be alike. */
class AssemblyTest {
    private static final byte[] A = bytes("0123456789");
    private static final byte[] B = bytes("abcdef");
    private static final byte[] C = bytes("XYZ");

    @Test
    void theTailIsTheLastBytesAcrossRangesTheFirstOneCut() {
        Assembly whole = new Assembly(3).add(A).add(B, 1, 4).add(C);

        assertThat(text(whole.tailRanges(5))).isEqualTo("deXYZ");
        assertThat(text(whole.tailRanges(3))).isEqualTo("XYZ");
        assertThat(text(whole.tailRanges(9))).isEqualTo("89bcdeXYZ");
        assertThat(text(whole.tailRanges(100))).as("all of it when shorter").isEqualTo("0123456789bcdeXYZ");
        assertThat(new Assembly(1).tailRanges(8).size()).isZero();
    }

    @Test
    void tailsAreAlikeOnlyWhenTheyAreTheSameRangesOfTheSameArrays() {
        Assembly one = new Assembly(2).add(A).add(C);
        Assembly sameArrays = new Assembly(2).add(B).add(A).add(C);
        Assembly equalBytesOtherArray = new Assembly(2).add(A).add(bytes("XYZ"));

        assertThat(Assembly.sameRanges(one.tailRanges(6), sameArrays.tailRanges(6))).isTrue();
        assertThat(Assembly.sameRanges(one.tailRanges(6), sameArrays.tailRanges(5))).as("another cut").isFalse();
        assertThat(Assembly.sameRanges(one.tailRanges(6), equalBytesOtherArray.tailRanges(6)))
                .as("equal bytes in another array are not compared, only told apart").isFalse();
        assertThat(Assembly.sameRanges(null, null)).isTrue();
        assertThat(Assembly.sameRanges(one.tailRanges(6), null)).isFalse();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(Assembly a) {
        return new String(a.toByteArray(), StandardCharsets.US_ASCII);
    }

    /**
     * Short ranges gathered into the chunk and long ones given as they are reach the deflater, and the CRC, in
     * their order: a long range right after short ones waits for them.
     */
    @Test
    void rangesReachTheDeflaterAndTheCrcInOrderWhetherGatheredOrNot() throws Exception {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 200; round++) {
            Assembly a = new Assembly(4);
            for (int k = random.nextInt(30); k >= 0; k--) {
                byte[] b = new byte[1 + random.nextInt(random.nextBoolean() ? 40 : 300)];
                random.nextBytes(b);
                int from = random.nextInt(b.length);
                a.add(b, from, b.length - from);
            }
            java.util.zip.Deflater deflater = new java.util.zip.Deflater(3, true);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[512];
            a.deflate(deflater, crc, new byte[64], () -> {
                while (!deflater.needsInput()) {
                    out.write(buf, 0, deflater.deflate(buf));
                }
            });
            deflater.finish();
            while (!deflater.finished()) {
                out.write(buf, 0, deflater.deflate(buf));
            }
            deflater.end();
            java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
            inflater.setInput(out.toByteArray());
            byte[] back = new byte[(int) a.size()];
            int n = 0;
            while (n < back.length && !inflater.finished()) {
                n += inflater.inflate(back, n, back.length - n);
            }
            inflater.end();
            java.util.zip.CRC32 expected = new java.util.zip.CRC32();
            expected.update(a.toByteArray());
            assertThat(back).isEqualTo(a.toByteArray());
            assertThat(crc.getValue()).isEqualTo(expected.getValue());
        }
    }
}
