package io.muster.audit;

/**
 * Who asked, and from where: the name the dashboard and the log use ({@code operator admin}, {@code client orders},
 * {@code anonymous client 10.0.0.7}), the remote address, and the {@code DiscoveryIdentity-*} headers Eureka
 * clients and servers send. Every field may be null (an MBean operation has no address); each is cut to
 * {@value #MAX_LENGTH} characters, since headers are whatever the caller sent.
 */
public record Actor(String who, String address, String identityName, String identityVersion, String identityId) {
    public static final int MAX_LENGTH = 200;

    public Actor {
        who = bounded(who == null ? "anonymous" : who);
        address = bounded(address);
        identityName = bounded(identityName);
        identityVersion = bounded(identityVersion);
        identityId = bounded(identityId);
    }

    /** Someone known by name only: an operator at the JMX console, or a caller that gave nothing more. */
    public static Actor named(String who) {
        return new Actor(who, null, null, null, null);
    }

    static String bounded(String s) {
        return s == null || s.length() <= MAX_LENGTH ? s : s.substring(0, MAX_LENGTH) + "...";
    }

    /** {@code from 10.0.0.7 (DefaultClient 1.10.17, id i-1)}, or empty when nothing is known. */
    String from() {
        StringBuilder b = new StringBuilder();
        if (address != null) {
            b.append(" from ").append(address);
        }
        if (identityName != null || identityVersion != null || identityId != null) {
            b.append(" (").append(identityName == null ? "?" : identityName);
            if (identityVersion != null) {
                b.append(' ').append(identityVersion);
            }
            if (identityId != null) {
                b.append(", id ").append(identityId);
            }
            b.append(')');
        }
        return b.toString();
    }
}
