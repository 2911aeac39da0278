package io.muster.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** {@code /instances/{id}}: an instance by id alone, in whichever app it is registered. */
@Path("instances/{id}")
public final class InstancesResource {
    private final Api api;

    public InstancesResource(Api api) {
        this.api = api;
    }

    @GET
    public Response get(@PathParam("id") String id, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return api.reads().instanceById(id, accept).toResponse();
    }
}
