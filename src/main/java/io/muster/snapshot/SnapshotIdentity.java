package io.muster.snapshot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.OptionalInt;

/**
 * Which deployment a snapshot belongs to: the server kind, the server's own root (Tomcat's {@code catalina.base},
 * a Payara domain's or instance's root, or the configured snapshot directory), the context path and the port known
 * at start-up. It is written into the snapshot's signed header, and a snapshot whose identity is not exactly this
 * one is refused: a brand-new Payara domain on a host where another domain had run once restored that domain's
 * registry, because both were "/eureka/ on an unknown port" in one shared directory.
 *
 * <p>The port is part of it when known. On Payara it is not (the listeners start after the applications), and the
 * root alone keeps two domains apart; it is recorded as {@code port=unknown}, so a node that later starts with its
 * port known (or the other way round) does not take the other's file for its own. With neither a root nor a port
 * the identity is {@linkplain #isKnown unknown}: two such nodes cannot be told apart, so no snapshot is written or
 * read for it.
 *
 * <p>On disk: {@code server=<kind> root=<path|none> context=<path> port=<n|unknown>}, each value with {@code %},
 * spaces and control characters percent-encoded, so that the text is one line and two identities never read
 * alike. Immutable.
 */
public record SnapshotIdentity(String server, String root, String contextPath, OptionalInt port) {
    /** How every identity's text starts; a header without it is from before identities (context@port only). */
    static final String PREFIX = "server=";

    public SnapshotIdentity {
        if (server == null || server.isBlank() || contextPath == null || port == null) {
            throw new IllegalArgumentException("a server kind, a context path and a port (maybe empty) are needed");
        }
    }

    /** Whether this node can be told apart from another server on the machine: by its root or its port. */
    public boolean isKnown() {
        return root != null || port.isPresent();
    }

    /** The identity as the snapshot header carries it. */
    public String text() {
        return PREFIX + encode(server) + " root=" + (root == null ? "none" : encode(root)) + " context="
                + encode(contextPath) + " port=" + (port.isPresent() ? String.valueOf(port.getAsInt()) : "unknown");
    }

    /**
     * The snapshot's file name: the context path and the port, as before identities (one server's files stay
     * where they were), and with {@code tagByRoot} a short hash of the root as well, for a directory that several
     * servers may share (a configured one): each then has its own file instead of refusing the other's.
     */
    public String fileName(boolean tagByRoot) {
        String name = RegistryFile.fileName(contextPath + "@" + (port.isPresent() ? port.getAsInt() : ""));
        if (!tagByRoot || root == null) {
            return name;
        }
        return name.substring(0, name.length() - ".snapshot".length()) + "-" + shortHash(server + "\n" + root)
                + ".snapshot";
    }

    /** Whether a header's node field is from before identities or from a node whose identity was unknown. */
    static boolean isUnknownIdentity(String node) {
        return !node.startsWith(PREFIX) || node.contains(" root=none ") && node.endsWith(" port=unknown");
    }

    private static String encode(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%' || c == ' ' || c < 0x20 || c == 0x7f) {
                out.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String shortHash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return text();
    }
}
