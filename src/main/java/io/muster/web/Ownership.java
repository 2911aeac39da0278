package io.muster.web;

import jakarta.servlet.http.HttpServletRequest;

import java.security.Principal;
import java.util.Locale;

/**
 * Per-application write rights ({@code eureka.server.appOwnership=true}): a client principal writes only the
 * applications its realm binds it to, with the role {@code eureka-app-<APP>} (the name as Eureka spells it, upper
 * case) or {@code eureka-app-all}; operators ({@code eureka-admin}) write every application. Reads are not
 * concerned, nor replicated writes (the peer that took the client's write checked it).
 *
 * <p>The roles are not declared in {@code web.xml}: their names depend on the applications. Tomcat answers
 * {@code isUserInRole} from the realm's roles whatever the declarations. Payara's file realm gives groups, which
 * it maps to undeclared roles only with the default principal-to-role mapping; so the caller's groups are also
 * read from the container's JAAS subject ({@link RealmGroups}), which Payara exposes through JACC.
 */
final class Ownership {
    static final String ALL_APPS_ROLE = "eureka-app-all";
    static final String APP_ROLE_PREFIX = "eureka-app-";

    private final boolean enabled;

    Ownership(boolean enabled) {
        this.enabled = enabled;
    }

    boolean enabled() {
        return enabled;
    }

    /**
     * Whether this request must come from a principal bound to the route's application: the endpoints the table
     * gives {@link Access#OWNER}, unless the write is replicated (then its access is {@link Access#PEER}).
     */
    boolean applies(Access access) {
        return enabled && access == Access.OWNER;
    }

    /**
     * Null when the authenticated caller may write the route's application, else the one-line reason. An ASG
     * status names no application, so it needs every application's right.
     */
    static String refusal(HttpServletRequest req, Route route) {
        Principal who = req.getUserPrincipal();
        String app = route.endpoint() == Endpoint.ASG_STATUS ? null : route.app().toUpperCase(Locale.ROOT);
        if (hasRole(req, Access.ADMIN_ROLE) || hasRole(req, ALL_APPS_ROLE)
                || (app != null && hasRole(req, APP_ROLE_PREFIX + app))) {
            return null;
        }
        String name = who == null ? "anonymous" : who.getName();
        return app == null
                ? "forbidden: " + name + " may not set the status of an auto-scaling group (needs " + ALL_APPS_ROLE
                        + ")"
                : "forbidden: " + name + " may not write application " + app + " (needs the role "
                        + APP_ROLE_PREFIX + app + " or " + ALL_APPS_ROLE + ")";
    }

    private static boolean hasRole(HttpServletRequest req, String role) {
        return req.isUserInRole(role) || RealmGroups.contains(role);
    }
}
