package io.muster.api;

import io.muster.model.InstanceStatus;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.Map;
import java.util.TreeMap;

/**
 * Two endpoints Netflix's server has beside the registry API: {@code GET [/vN]/serverinfo/statusoverrides}, the
 * status overrides as a JSON object of instance id to status (Eureka's ServerInfoResource), and
 * {@code PUT [/vN]/asg/{asgName}/status}, which Eureka answers 400 with no body when it does not run on AWS (its
 * ASGResource without an AWS registry) - as Muster never does.
 */
@Path("/")
public final class ServerInfoResource {
    private final Api api;

    public ServerInfoResource(Api api) {
        this.api = api;
    }

    @GET
    @Path("serverinfo/statusoverrides")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> statusOverrides() {
        Map<String, String> overrides = new TreeMap<>();
        for (Map.Entry<String, InstanceStatus> e : api.registry().overrides().byId().entrySet()) {
            overrides.put(e.getKey(), e.getValue().name());
        }
        return overrides;
    }

    @PUT
    @Path("asg/{asgName}/status")
    public Response asgStatus(@PathParam("asgName") String asgName) {
        return Reply.empty(400).toResponse();
    }
}
