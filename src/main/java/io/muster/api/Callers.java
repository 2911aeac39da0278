package io.muster.api;

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
}
