package io.muster.dashboard;

import io.muster.api.Api;
import io.muster.audit.Actor;
import io.muster.api.Callers;
import io.muster.api.Reply;
import io.muster.model.InstanceStatus;
import io.muster.registry.Origin;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The dashboard's actions, for {@code eureka-admin} users (the front door checks the role): take an instance out
 * of service, remove its override, deregister it. Actions are made as a client would make them, so peers get them,
 * and are audited with the operator's name and address.
 *
 * <p>CSRF: browsers resend BASIC credentials to any page's requests, so every action must carry the header
 * {@code X-Muster-CSRF} with a token from {@code GET /api/admin/csrf}, issued to the signed-in admin and valid for
 * 10 to 20 minutes. A forged cross-site request can neither read that token nor set a custom header without a
 * CORS preflight, which this server never approves.
 */
@Path("api/admin")
@Produces(MediaType.APPLICATION_JSON)
public final class AdminResource {
    static final String CSRF_HEADER = "X-Muster-CSRF";
    private final Api api;
    private final CsrfTokens tokens;

    public AdminResource(Api api, Clock clock) {
        this.api = api;
        this.tokens = new CsrfTokens(clock, Duration.ofMinutes(10));
    }

    /** Reaching this proves the caller is an admin; the dashboard shows its action buttons only then. */
    @GET
    @Path("csrf")
    public Map<String, String> csrf(@Context SecurityContext caller) {
        return Map.of("header", CSRF_HEADER, "token", tokens.issue(user(caller)));
    }

    /**
     * {@code out-of-service}, {@code remove-override} or {@code deregister} (the endpoint table lets no other action
     * through). Removing an override sets UNKNOWN: the instance's next heartbeat answers 404, so it registers
     * again with its own status.
     */
    @POST
    @Path("instances/{app}/{id}/{action: out-of-service|remove-override|deregister}")
    public Response act(@PathParam("app") String app, @PathParam("id") String id,
                        @PathParam("action") String action, @HeaderParam(CSRF_HEADER) String token,
                        @Context SecurityContext caller, @Context HttpServletRequest request) {
        checkCsrf(token, caller);
        Actor operator = Callers.operator(request);
        Reply done = switch (action) {
            case "out-of-service" -> api.writes().statusUpdate(app, id, InstanceStatus.OUT_OF_SERVICE.name(), null,
                    Origin.CLIENT, operator);
            case "remove-override" -> api.writes().deleteStatusOverride(app, id, InstanceStatus.UNKNOWN.name(), null,
                    Origin.CLIENT, operator);
            case "deregister" -> api.writes().cancel(app, id, Origin.CLIENT, operator);
            default -> Reply.empty(404);
        };
        return done.status() == 200 ? Response.ok(Map.of("ok", true)).build() : done.toResponse();
    }

    private void checkCsrf(String token, SecurityContext caller) {
        if (!tokens.isValid(user(caller), token)) {
            throw new jakarta.ws.rs.WebApplicationException(Reply.text(403, "missing, expired or wrong "
                    + CSRF_HEADER + " header (get a new one from api/admin/csrf)").toResponse());
        }
    }

    private static String user(SecurityContext caller) {
        return caller.getUserPrincipal() == null ? null : caller.getUserPrincipal().getName();
    }
}
