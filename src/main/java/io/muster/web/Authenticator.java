package io.muster.web;

import io.muster.api.Callers;
import io.muster.api.Reply;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.List;

/**
 * Checks a caller against the roles an endpoint needs, with the container's own authentication (BASIC, users and
 * roles from the server's realm: Tomcat's tomcat-users.xml, Payara's file realm). Anonymous callers get 401 with a
 * BASIC challenge, callers without the role 403.
 */
final class Authenticator {
    static final String DASHBOARD_HEADER = "X-Muster-Dashboard";

    private Authenticator() {
    }

    /** True when the caller has one of the roles; otherwise the refusal has been written. */
    static boolean authorize(HttpServletRequest req, HttpServletResponse rsp, List<String> roles) throws IOException {
        if (req.getUserPrincipal() == null && !authenticated(req, rsp)) {
            return false;   // 401 written
        }
        for (String role : roles) {
            if (req.isUserInRole(role)) {
                return true;
            }
        }
        FrontDoor.write(rsp, Reply.text(HttpServletResponse.SC_FORBIDDEN,
                "forbidden: this needs the role " + String.join(" or ", roles)));
        return false;
    }

    /** Authenticates a caller whatever its roles (the ownership rule decides next); false when refused (written). */
    static boolean signIn(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        return authenticated(req, rsp);
    }

    /** Set on a request whose credentials were refused once: they are not tried again (the realm counts failures). */
    private static final String REFUSED = Authenticator.class.getName() + ".refused";

    /**
     * Signs the caller in with the credentials it sent, if any, writing nothing: true when it is signed in now. Its
     * refusal, if any, is written later by {@link #authorize}, which does not try the same credentials again.
     */
    static boolean signedInQuietly(HttpServletRequest req) {
        if (req.getUserPrincipal() != null) {
            return true;
        }
        String decoded = Callers.basicCredentials(req);
        int colon = decoded == null ? -1 : decoded.indexOf(':');
        if (colon <= 0 || req.getAttribute(REFUSED) != null) {
            return false;
        }
        try {
            req.login(decoded.substring(0, colon), decoded.substring(colon + 1));
            return true;
        } catch (ServletException wrongCredentials) {
            req.setAttribute(REFUSED, Boolean.TRUE);
            return false;
        }
    }

    /**
     * Credentials sent with the request are checked against the container's realm with {@code login()}; without
     * any, the container's BASIC challenge is sent. The dashboard (header {@code X-Muster-Dashboard}) gets a 401
     * without a challenge, so the browser shows the page's own sign-in form instead of its password dialog.
     */
    private static boolean authenticated(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        boolean dashboard = req.getHeader(DASHBOARD_HEADER) != null;
        if (Callers.basicCredentials(req) != null) {
            if (signedInQuietly(req)) {
                return true;
            }
            unauthorized(rsp, !dashboard);
            return false;
        }
        if (dashboard) {
            unauthorized(rsp, false);
            return false;
        }
        if (req.isAsyncStarted()) {
            // answered after its body arrived, on a read callback's thread: the container's own challenge is an
            // error page, which Payara does not write once the request is async
            unauthorized(rsp, true);
            return false;
        }
        try {
            return req.authenticate(rsp);
        } catch (ServletException e) {
            unauthorized(rsp, true);
            return false;
        }
    }

    private static void unauthorized(HttpServletResponse rsp, boolean challenge) throws IOException {
        if (rsp.isCommitted()) {
            return;
        }
        if (challenge) {
            rsp.setHeader("WWW-Authenticate", "Basic realm=\"muster\"");
        }
        FrontDoor.write(rsp, Reply.text(HttpServletResponse.SC_UNAUTHORIZED, "unauthorized"));
    }
}
