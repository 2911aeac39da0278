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
}
