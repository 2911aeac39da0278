package io.muster.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /apps/{app}/{id}}: read, heartbeat, cancel, status override and metadata of one instance. Heartbeat
 * answers carry no body except the 409 a peer gets: clients try to decode any body they receive.
 */
@Path("apps/{app}/{id}")
public final class InstanceResource {
    private final Api api;

    public InstanceResource(Api api) {
        this.api = api;
    }

    @GET
    public Response get(@PathParam("app") String app, @PathParam("id") String id,
                        @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return api.reads().instance(app, id, accept).toResponse();
    }

    @PUT
    public Response renew(@PathParam("app") String app, @PathParam("id") String id,
                          @QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                          @QueryParam("overriddenstatus") String overriddenStatus,
                          @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                          @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return api.writes().renew(app, id, lastDirtyTimestamp, overriddenStatus, Origins.of(replication), accept)
                .toResponse();
    }

    @DELETE
    public Response cancel(@PathParam("app") String app, @PathParam("id") String id,
                           @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                           @Context HttpServletRequest caller) {
        return api.writes().cancel(app, id, Origins.of(replication), Callers.client(caller)).toResponse();
    }

    @PUT
    @Path("status")
    public Response statusUpdate(@PathParam("app") String app, @PathParam("id") String id,
                                 @QueryParam("value") String value,
                                 @QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                                 @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                                 @Context HttpServletRequest caller) {
        return api.writes().statusUpdate(app, id, value, lastDirtyTimestamp, Origins.of(replication),
                Callers.client(caller)).toResponse();
    }

    @DELETE
    @Path("status")
    public Response deleteStatusOverride(@PathParam("app") String app, @PathParam("id") String id,
                                         @QueryParam("value") String value,
                                         @QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                                         @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                                         @Context HttpServletRequest caller) {
        return api.writes().deleteStatusOverride(app, id, value, lastDirtyTimestamp, Origins.of(replication),
                Callers.client(caller)).toResponse();
    }

    /** Each query parameter is a metadata entry (the first value of a repeated one). */
    @PUT
    @Path("metadata")
    public Response updateMetadata(@PathParam("app") String app, @PathParam("id") String id,
                                   @Context UriInfo uriInfo) {
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : uriInfo.getQueryParameters().entrySet()) {
            if (!e.getValue().isEmpty()) {
                metadata.put(e.getKey(), e.getValue().get(0));
            }
        }
        return api.writes().updateMetadata(app, id, metadata).toResponse();
    }
}
