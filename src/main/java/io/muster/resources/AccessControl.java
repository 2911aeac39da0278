package io.muster.resources;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Which role each endpoint needs, enforced with the container's own authentication (BASIC, users and roles from
 * the server's realm: Tomcat's tomcat-users.xml, Payara's file realm). Peers need {@code eureka-peer} for the
 * replication batch and for any write flagged as replicated; status overrides and the dashboard's actions need
 * {@code eureka-admin}; with client authentication switched on, the Eureka API needs {@code eureka-client} (or one
 * of the other two). Health stays open for orchestrators.
 *
 * <p>Servlet URL patterns cannot say "{@code /apps/*}{@code /*}{@code /status}" or "any version segment", so the
 * rules live here rather than in web.xml's security constraints; web.xml declares the roles and the login method.
 */
public final class AccessControl implements Filter {
    public static final String PEER = "eureka-peer";
    public static final String ADMIN = "eureka-admin";
    public static final String CLIENT = "eureka-client";
    static final String DASHBOARD_HEADER = "X-Muster-Dashboard";
    private static final List<String> PEER_ONLY = List.of(PEER);
    private static final List<String> ADMIN_ONLY = List.of(ADMIN);
    private static final List<String> ADMIN_OR_PEER = List.of(ADMIN, PEER);
    private static final List<String> ANY_ROLE = List.of(CLIENT, ADMIN, PEER);

    private final boolean clientAuthRequired;

    public AccessControl(boolean clientAuthRequired) {
        this.clientAuthRequired = clientAuthRequired;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse rsp = (HttpServletResponse) response;
        List<String> roles = requiredRoles(req.getMethod(), req.getRequestURI().substring(req.getContextPath().length()),
                "true".equals(req.getHeader(Origins.REPLICATION_HEADER)), clientAuthRequired);
        if (roles.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        if (req.getUserPrincipal() == null && !authenticated(req, rsp)) {
            return;   // the container answered 401 with its BASIC challenge
        }
        for (String role : roles) {
            if (req.isUserInRole(role)) {
                chain.doFilter(request, response);
                return;
            }
        }
        rsp.setStatus(HttpServletResponse.SC_FORBIDDEN);
        rsp.setContentType("text/plain;charset=UTF-8");
        rsp.getOutputStream().write(("forbidden: this needs the role " + String.join(" or ", roles) + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Credentials sent with the request are checked against the container's realm with {@code login()}; without
     * any, the container's BASIC challenge is sent. The dashboard (header {@code X-Muster-Dashboard}) gets a 401
     * without a challenge, so the browser shows the page's own sign-in form instead of its password dialog.
     */
    private static boolean authenticated(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        boolean dashboard = req.getHeader(DASHBOARD_HEADER) != null;
        String header = req.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                decoded = "";
            }
            int colon = decoded.indexOf(':');
            try {
                if (colon > 0) {
                    req.login(decoded.substring(0, colon), decoded.substring(colon + 1));
                    return true;
                }
            } catch (ServletException wrongCredentials) {
                // answered below
            }
            unauthorized(rsp, !dashboard);
            return false;
        }
        if (dashboard) {
            unauthorized(rsp, false);
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
        rsp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        rsp.setContentType("text/plain;charset=UTF-8");
        rsp.getOutputStream().write("unauthorized\n".getBytes(StandardCharsets.UTF_8));
    }

    /** The roles of which the caller needs one; empty when the endpoint is open. */
    static List<String> requiredRoles(String method, String path, boolean replicated, boolean clientAuthRequired) {
        String p = path.substring(ApiPaths.versionEnd(path));
        String[] s = p.split("/");
        String first = s.length > 1 ? s[1] : "";
        if (first.equals("peerreplication") || replicated) {
            return PEER_ONLY;
        }
        if (first.equals("apps") && s.length == 5 && s[4].equals("status")
                && (method.equals("PUT") || method.equals("DELETE"))) {
            return ADMIN_OR_PEER;
        }
        if (first.equals("api") && s.length > 2 && s[2].equals("admin")) {
            return ADMIN_ONLY;
        }
        if (first.equals("health") || first.equals("metrics") || first.isEmpty() || first.equals("dashboard")) {
            return List.of();
        }
        return switch (first) {
            case "apps", "instances", "vips", "svips", "status", "api" -> clientAuthRequired ? ANY_ROLE : List.of();
            default -> List.of();
        };
    }
}
