package io.muster.codec;

/**
 * Well-formed UTF-8 as RFC 3629 defines it. Jackson decodes some ill-formed sequences instead of refusing them:
 * the overlong {@code C0 AF} becomes '/', so a value could pass every check on its characters and still not be
 * what a strict decoder (a peer, a client, a log reader) sees in the same bytes.
 */
final class Utf8 {
    private Utf8() {
    }

    /** The offset of the first byte that starts no well-formed sequence, or -1 when all of {@code b} is. */
    static int firstMalformed(byte[] b) {
        int k = 0;
        while (k < b.length) {
            int c = b[k] & 0xFF;
            if (c < 0x80) {
                k++;
                continue;
            }
            int length;
            int low = 0x80;     // the range of the second byte, narrowed where shorter forms or surrogates lie
            int high = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                length = 2;
            } else if (c >= 0xE0 && c <= 0xEF) {
                length = 3;
                low = c == 0xE0 ? 0xA0 : 0x80;
                high = c == 0xED ? 0x9F : 0xBF;
            } else if (c >= 0xF0 && c <= 0xF4) {
                length = 4;
                low = c == 0xF0 ? 0x90 : 0x80;
                high = c == 0xF4 ? 0x8F : 0xBF;
            } else {
                return k;       // a continuation byte, C0/C1 (always overlong) or F5..FF
            }
            if (k + length > b.length) {
                return k;
            }
            int second = b[k + 1] & 0xFF;
            if (second < low || second > high) {
                return k;
            }
            for (int j = 2; j < length; j++) {
                int next = b[k + j] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return k;
                }
            }
            k += length;
        }
        return -1;
    }
}
