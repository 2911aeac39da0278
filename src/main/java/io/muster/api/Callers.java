package io.muster.api;

import io.muster.audit.Actor;
import jakarta.servlet.http.HttpServletRequest;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Base64;

/** How the audit log and the dashboard name who asked for a write. */
public final class Callers {
    private Callers() {
    }

    /** A claimed user name longer than this is cut in the trail (the header's own bound is the container's). */
    static final int MAX_CLAIMED = 64;

    /** {@code client orders-svc}, or {@code anonymous client 10.0.0.7} without credentials. */
    public static String client(Principal principal, String remoteAddr) {
        return principal == null ? "anonymous client " + remoteAddr : "client " + principal.getName();
    }

    /**
     * As {@link #client(Principal, String)}; a caller that sent credentials nobody checked (client authentication
     * is off, so writes do not ask for them) is {@code anonymous client 10.0.0.7 (claims orders-svc)}: the trail
     * shows who it says it is without vouching for it.
     */
    static String client(Principal principal, String remoteAddr, String claimed) {
        String who = client(principal, remoteAddr);
        if (principal != null || claimed == null || claimed.isEmpty()) {
            return who;
        }
        String shown = claimed.length() > MAX_CLAIMED ? claimed.substring(0, MAX_CLAIMED) + "..." : claimed;
        return who + " (claims " + shown + ")";
    }

    /** {@code user:password} from a BASIC header ("" when it cannot be decoded), or null without one. */
    public static String basicCredentials(HttpServletRequest req) {
        String header = req.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** Who the caller is or claims to be, or null when it sent no credentials. */
    public static String claimedUser(HttpServletRequest req) {
        if (req.getUserPrincipal() != null) {
            return req.getUserPrincipal().getName();
        }
        String decoded = basicCredentials(req);
        if (decoded == null) {
            return null;
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? decoded : decoded.substring(0, colon);
    }

    /** {@code operator alice}: an admin's action from the dashboard. */
    public static String operator(Principal principal) {
        return "operator " + (principal == null ? "?" : principal.getName());
    }

    /** The client that sent this request, for the audit trail: its name, address and Eureka identity headers. */
    public static Actor client(HttpServletRequest req) {
        return actor(req, client(req.getUserPrincipal(), req.getRemoteAddr(), claimedUser(req)));
    }

    /** The operator who sent this request. */
    public static Actor operator(HttpServletRequest req) {
        return actor(req, operator(req.getUserPrincipal()));
    }

    private static Actor actor(HttpServletRequest req, String who) {
        return new Actor(who, req.getRemoteAddr(), req.getHeader("DiscoveryIdentity-Name"),
                req.getHeader("DiscoveryIdentity-Version"), req.getHeader("DiscoveryIdentity-Id"));
    }
}
