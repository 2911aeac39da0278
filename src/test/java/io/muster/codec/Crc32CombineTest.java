package io.muster.codec;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/** The CRC of a concatenation, from its parts' CRCs, is the CRC of the concatenated bytes. */
class Crc32CombineTest {

    @Test
    void combiningPartsGivesTheCrcOfTheWhole() {
        Random random = new Random(32);
        for (int trial = 0; trial < 500; trial++) {
            byte[] a = new byte[random.nextInt(trial < 20 ? 3 : 70_000)];
            byte[] b = new byte[random.nextInt(trial < 40 ? 3 : 70_000)];
            random.nextBytes(a);
            random.nextBytes(b);
            assertThat(Crc32Combine.combine(crc(a), crc(b), b.length)).as("trial %d", trial)
                    .isEqualTo(crc(a, b));
        }
    }

    @Test
    void anEmptyFirstPartContributesNothing() {
        byte[] b = "applications".getBytes();
        assertThat(Crc32Combine.combine(0, crc(b), b.length)).isEqualTo(crc(b));
        assertThat(Crc32Combine.combine(crc(b), 0, 0)).isEqualTo(crc(b));
    }

    private static int crc(byte[]... parts) {
        CRC32 c = new CRC32();
        for (byte[] p : parts) {
            c.update(p);
        }
        return (int) c.getValue();
    }
}
