package io.muster.replication;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * A peer's base URL as operators write it ({@code http://user:secret@host:8761/eureka/}), split into the URL
 * without credentials and the HTTP Basic header they become. {@link #toString()} never shows the secret.
 */
public record PeerUrl(URI base, String authorization) {
    public PeerUrl {
        Objects.requireNonNull(base, "base");
    }

    public static PeerUrl parse(String url) {
        String withSlash = url.trim().endsWith("/") ? url.trim() : url.trim() + "/";
        URI uri = URI.create(withSlash);
        if (uri.getHost() == null || uri.getScheme() == null
                || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))) {
            throw new IllegalArgumentException("not an http(s) URL with a host: " + redact(url));
        }
        String auth = null;
        if (uri.getRawUserInfo() != null) {
            String userInfo = java.net.URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8);
            auth = "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        }
        URI clean = URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost().toLowerCase(Locale.ROOT)
                + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + uri.getRawPath());
        return new PeerUrl(clean, auth);
    }

    /** The user name sent to this peer, or null when its URL carries no credentials. */
    public String user() {
        if (authorization == null) {
            return null;
        }
        String decoded = new String(Base64.getDecoder().decode(authorization.substring("Basic ".length())),
                StandardCharsets.UTF_8);
        int colon = decoded.indexOf(':');
        return colon < 0 ? decoded : decoded.substring(0, colon);
    }

    public int port() {
        if (base.getPort() >= 0) {
            return base.getPort();
        }
        return "https".equals(base.getScheme()) ? 443 : 80;
    }

    /** The same peer at another address (a DNS name expanded into its addresses). */
    PeerUrl withHost(String host) {
        return new PeerUrl(URI.create(base.getScheme() + "://" + host + ":" + port() + base.getRawPath()),
                authorization);
    }

    URI resolve(String relative) {
        return base.resolve(relative);
    }

    @Override
    public String toString() {
        return base.toString();
    }

    /** One path segment, percent-encoded except for the characters that mean nothing in a path. */
    static String segment(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~:@".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    static String redact(String url) {
        return url.replaceAll("//[^/@]*@", "//***@");
    }
}
