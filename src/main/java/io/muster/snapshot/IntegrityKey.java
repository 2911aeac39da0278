package io.muster.snapshot;

import io.muster.files.PrivateDirectory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.logging.Logger;

/**
 * The HMAC-SHA256 key that ties the snapshot and the cancellation journal to the directory they were written in:
 * 32 random bytes in an owner-only file beside them, created on first use. A file planted from outside, or copied
 * from another node's directory, does not verify under this key and is ignored; a copy of the key is as good as
 * the directory itself, so it never leaves it.
 *
 * <p>Thread safety: immutable; {@link #mac} returns a new {@link Mac} per use.
 */
public final class IntegrityKey {
    static final String FILE = "integrity.key";
    private static final String ALGORITHM = "HmacSHA256";
    static final int BYTES = 32;
    private static final Logger LOG = Logger.getLogger(IntegrityKey.class.getName());
    private final SecretKeySpec key;

    private IntegrityKey(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, ALGORITHM);
    }

    /** A key from given bytes (a test's, or two nodes that are meant to read each other's files). */
    static IntegrityKey of(byte[] bytes) {
        return new IntegrityKey(bytes.clone());
    }

    /**
     * The directory's key, created if missing. One of the wrong length (damaged, or a torn first write) is
     * replaced with a new one: what it signed cannot be verified any more, so it is ignored either way.
     */
    public static IntegrityKey in(PrivateDirectory dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            byte[] stored = dir.read(FILE);
            if (stored != null && stored.length == BYTES) {
                return new IntegrityKey(stored);
            }
            byte[] fresh = new byte[BYTES];
            new SecureRandom().nextBytes(fresh);
            dir.write(FILE + ".new", fresh);
            if (stored == null) {
                try {
                    dir.publish(FILE + ".new", FILE);
                } catch (FileAlreadyExistsException e) {
                    if (attempt < 3) {
                        continue;   // another server in this directory created it first: use that one
                    }
                    throw e;
                }
            } else {
                LOG.warning("Muster: the integrity key " + dir.path().resolve(FILE) + " is damaged (" + stored.length
                        + " bytes); writing a new one, so the files it signed will be ignored");
                dir.commit(FILE + ".new", FILE);
            }
            return new IntegrityKey(fresh);
        }
    }

    /**
     * A key of its own for one label (a node's identity), derived from this one: what it signs verifies only for
     * that label, so a file signed for one server fails for another that shares the directory or a copy of it.
     */
    IntegrityKey derived(String label) {
        return new IntegrityKey(mac().doFinal(("muster-derived-key 1\n" + label)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** A new MAC under this key. */
    Mac mac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has " + ALGORITHM, e);
        }
    }

    /** The MAC of {@code bytes}, in hex. */
    String sign(byte[] bytes) {
        return HexFormat.of().formatHex(mac().doFinal(bytes));
    }

    /** Whether {@code hex} is the MAC of {@code bytes}, compared in constant time. */
    boolean verifies(byte[] bytes, String hex) {
        return MessageDigest.isEqual(sign(bytes).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                hex.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
}
