package io.muster.api;

import io.muster.audit.Actor;
import jakarta.servlet.http.HttpServletRequest;

import java.security.Principal;

/** How the audit log and the dashboard name who asked for a write. */
public final class Callers {
    private Callers() {
    }

    /** {@code client orders-svc}, or {@code anonymous client 10.0.0.7} without credentials. */
    public static String client(Principal principal, String remoteAddr) {
        return principal == null ? "anonymous client " + remoteAddr : "client " + principal.getName();
    }

    /** {@code operator alice}: an admin's action from the dashboard. */
    public static String operator(Principal principal) {
        return "operator " + (principal == null ? "?" : principal.getName());
    }

    /** The client that sent this request, for the audit trail: its name, address and Eureka identity headers. */
    public static Actor client(HttpServletRequest req) {
        return actor(req, client(req.getUserPrincipal(), req.getRemoteAddr()));
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
