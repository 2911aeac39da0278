package io.muster.dashboard;

import io.muster.api.Api;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.Map;

/**
 * Endpoints for operators and the dashboard: health in MicroProfile Health's JSON shape (200 UP, 503 DOWN;
 * ready means open for traffic) and the dashboard's status document.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public final class OperationsResource {
    private final Api api;

    public OperationsResource(Api api) {
        this.api = api;
    }

    @GET
    @Path("health/live")
    public Response live() {
        return health(true, "registry");
    }

    @GET
    @Path("health/ready")
    public Response ready() {
        return health(api.status().isReady(), "open-for-traffic");
    }

    @GET
    @Path("health")
    public Response health() {
        return health(api.status().isReady(), "open-for-traffic");
    }

    @GET
    @Path("api/status")
    public Map<String, Object> dashboardStatus() {
        return api.status().dashboard();
    }

    @GET
    @Path("metrics")
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public String metrics() {
        return api.metrics().get();
    }

    private static Response health(boolean up, String check) {
        String status = up ? "UP" : "DOWN";
        Map<String, Object> body = Map.of("status", status,
                "checks", List.of(Map.of("name", check, "status", status)));
        return Response.status(up ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE).entity(body).build();
    }
}
