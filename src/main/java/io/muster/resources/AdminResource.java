package io.muster.resources;

import io.muster.model.InstanceStatus;
import io.muster.registry.Origin;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The dashboard's actions, for {@code eureka-admin} users (see {@link AccessControl}): take an instance out of
 * service, remove its override, deregister it. Actions are made as a client would make them, so peers get them.
 *
 * <p>CSRF: browsers resend BASIC credentials to any page's requests, so every action must carry the header
 * {@code X-Muster-CSRF} with the token from {@code GET /api/admin/csrf}. A forged cross-site request can neither
 * read that token nor set a custom header without a CORS preflight, which this server never approves.
 */
@Path("api/admin")
@Produces(MediaType.APPLICATION_JSON)
public final class AdminResource {
    static final String CSRF_HEADER = "X-Muster-CSRF";
    private final Api api;
    private final byte[] csrfToken;

    public AdminResource(Api api) {
        this.api = api;
        byte[] token = new byte[24];
        new SecureRandom().nextBytes(token);
        this.csrfToken = HexFormat.of().formatHex(token).getBytes(StandardCharsets.US_ASCII);
    }

    /** Reaching this proves the caller is an admin; the dashboard shows its action buttons only then. */
    @GET
    @Path("csrf")
    public Map<String, String> csrf() {
        return Map.of("header", CSRF_HEADER, "token", new String(csrfToken, StandardCharsets.US_ASCII));
    }

    @POST
    @Path("instances/{app}/{id}/out-of-service")
    public Response outOfService(@PathParam("app") String app, @PathParam("id") String id,
                                 @HeaderParam(CSRF_HEADER) String token) {
        checkCsrf(token);
        return done(api.registry().statusUpdate(app, id, InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT));
    }

    @POST
    @Path("instances/{app}/{id}/remove-override")
    public Response removeOverride(@PathParam("app") String app, @PathParam("id") String id,
                                   @HeaderParam(CSRF_HEADER) String token) {
        checkCsrf(token);
        // UNKNOWN makes the instance's next heartbeat answer 404, so it registers again with its own status
        return done(api.registry().deleteStatusOverride(app, id, InstanceStatus.UNKNOWN, null, Origin.CLIENT));
    }

    @POST
    @Path("instances/{app}/{id}/deregister")
    public Response deregister(@PathParam("app") String app, @PathParam("id") String id,
                               @HeaderParam(CSRF_HEADER) String token) {
        checkCsrf(token);
        return done(api.registry().cancel(app, id, Origin.CLIENT));
    }

    private void checkCsrf(String token) {
        if (token == null || !MessageDigest.isEqual(csrfToken, token.getBytes(StandardCharsets.US_ASCII))) {
            throw Problems.of(Response.Status.FORBIDDEN, "missing or wrong " + CSRF_HEADER + " header");
        }
    }

    private static Response done(boolean found) {
        return found ? Response.ok(Map.of("ok", true)).build() : Problems.notFound();
    }
}
