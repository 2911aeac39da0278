package io.muster.codec;

/**
 * The CRC-32 of a concatenation from the CRCs of its parts, so a gzip member assembled from separately compressed
 * parts gets its trailer without reading the uncompressed bytes again. Appending {@code n} bytes multiplies the
 * first part's register by x^(8n) modulo the CRC polynomial (the pre- and post-conditioning of CRC-32 cancel out),
 * so crc(A·B) = crc(A)·x^(8|B|) + crc(B) in GF(2). Polynomials are in CRC-32's reflected bit order: bit 31 is x^0.
 * Stateless and thread-safe.
 */
final class Crc32Combine {
    private static final int POLY = 0xEDB88320;
    /** {@code X_POW_2K[k]} is x^(2^k) modulo the polynomial. */
    private static final int[] X_POW_2K = new int[64];

    static {
        X_POW_2K[0] = 0x40000000;   // x^1
        for (int k = 1; k < X_POW_2K.length; k++) {
            X_POW_2K[k] = multiply(X_POW_2K[k - 1], X_POW_2K[k - 1]);
        }
    }

    private Crc32Combine() {
    }

    /** The CRC-32 of A followed by B, given crc(A), crc(B) and B's length in bytes. */
    static int combine(int crcA, int crcB, long lengthB) {
        return multiply(xPow(8 * lengthB), crcA) ^ crcB;
    }

    /** x^n modulo the polynomial. */
    private static int xPow(long n) {
        int p = 0x80000000;   // x^0
        for (int k = 0; n != 0; k++, n >>>= 1) {
            if ((n & 1) != 0) {
                p = multiply(X_POW_2K[k], p);
            }
        }
        return p;
    }

    /** a·b modulo the polynomial. */
    private static int multiply(int a, int b) {
        int product = 0;
        for (int bit = 0x80000000; bit != 0; bit >>>= 1) {
            if ((a & bit) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;   // b·x
        }
        return product;
    }
}
