package io.muster.dashboard;

import io.muster.api.Api;
import io.muster.api.Probes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Endpoints for operators and the dashboard: health in MicroProfile Health's JSON shape (200 UP, 503 DOWN; the
 * meaning of each probe is in {@link Probes}) and the dashboard's status document.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public final class OperationsResource {
    private final Api api;

    public OperationsResource(Api api) {
        this.api = api;
    }

    @GET
    @Path("health/started")
    public Response started() {
        return health(List.of(api.status().probes().started()));
    }

    @GET
    @Path("health/live")
    public Response live() {
        return health(List.of(api.status().probes().live()));
    }

    @GET
    @Path("health/ready")
    public Response ready() {
        return health(List.of(api.status().probes().ready()));
    }

    @GET
    @Path("health")
    public Response health() {
        return health(api.status().probes().all());
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

    private static Response health(List<Probes.Check> checks) {
        boolean up = checks.stream().allMatch(Probes.Check::up);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", up ? "UP" : "DOWN");
        body.put("checks", checks.stream().map(Probes.Check::json).toList());
        return Response.status(up ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE).entity(body).build();
    }
}
