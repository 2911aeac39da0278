package io.muster.dashboard;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Anti-CSRF tokens for the dashboard's actions: one per signed-in admin and time window, an HMAC of the user name
 * and the window under a key drawn at start. A token works in its own window and the next one, so it expires after
 * one to two windows and rotates every window; nothing is stored per user, so there is nothing to bound or evict.
 *
 * <p>Thread-safe: the key never changes and each call makes its own {@link Mac}.
 */
final class CsrfTokens {
    private final byte[] key = new byte[32];
    private final Clock clock;
    private final long windowMillis;

    CsrfTokens(Clock clock, Duration window) {
        new SecureRandom().nextBytes(key);
        this.clock = clock;
        this.windowMillis = window.toMillis();
    }

    String issue(String user) {
        return sign(user, clock.millis() / windowMillis);
    }

    boolean isValid(String user, String token) {
        if (user == null || token == null) {
            return false;
        }
        long window = clock.millis() / windowMillis;
        byte[] given = token.getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(given, sign(user, window).getBytes(StandardCharsets.US_ASCII))
                | MessageDigest.isEqual(given, sign(user, window - 1).getBytes(StandardCharsets.US_ASCII));
    }

    private String sign(String user, long window) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((window + "\n").getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(mac.doFinal(user.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
