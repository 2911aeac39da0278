package io.muster.api;

import io.muster.cache.CacheKey;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;

/**
 * {@code /apps}: the full registry, the delta, one app, and registration. The front door hands Jersey the
 * canonical path (no version segment, no trailing slash, no matrix parameters), so each route is written once.
 * {@code regions} on the full and delta fetches names remote regions to merge in, as in Eureka.
 */
@Path("apps")
public final class ApplicationsResource {
    private final Api api;

    public ApplicationsResource(Api api) {
        this.api = api;
    }

    @GET
    public Response all(@QueryParam("regions") String regions,
                        @Context HttpHeaders headers) {
        return api.reads().fetch(CacheKey.Entity.ALL_APPS, "", regions, Representation.of(headers))
                .toResponse();
    }

    @GET
    @Path("delta")
    public Response delta(@QueryParam("regions") String regions,
                          @Context HttpHeaders headers) {
        return api.reads().fetch(CacheKey.Entity.DELTA, "", regions, Representation.of(headers))
                .toResponse();
    }

    @GET
    @Path("{app}")
    public Response app(@PathParam("app") String app,
                        @Context HttpHeaders headers) {
        return api.reads().fetch(CacheKey.Entity.APP, app, Representation.of(headers)).toResponse();
    }

    @POST
    @Path("{app}")
    public Response register(@PathParam("app") String app, InputStream body,
                             @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                             @HeaderParam(HttpHeaders.CONTENT_ENCODING) String contentEncoding,
                             @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                             @Context HttpServletRequest request) {
        return api.writes().register(app, body, request.getContentLengthLong(), contentType, contentEncoding,
                Origins.of(replication),
                request.getRemoteAddr()).toResponse();
    }
}
