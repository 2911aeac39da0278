package io.muster.resources;

import io.muster.cache.CacheKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;
import java.util.Locale;

/** {@code /apps/{app}}: one app (cached) and registration. App names are case-insensitive (upper-cased). */
public final class ApplicationResource {
    private final Api api;
    private final String appName;

    ApplicationResource(Api api, String appName) {
        this.api = api;
        this.appName = appName.toUpperCase(Locale.ROOT);
    }

    @GET
    public Response get(@HeaderParam(HttpHeaders.ACCEPT) String accept,
                        @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding,
                        @HeaderParam("X-Eureka-Accept") String eurekaAccept) {
        if (!api.gate().allowsReads()) {
            return Problems.forbidden();
        }
        CacheKey key = CachedResponses.key(CacheKey.Entity.APP, appName, accept, eurekaAccept);
        return CachedResponses.of(api.cache(), api.cache().get(key), key, acceptEncoding);
    }

    /** Registers an instance: 204 as Eureka answers (Java clients count nothing else as success). */
    @POST
    public Response register(InputStream body,
                             @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                             @HeaderParam(HttpHeaders.CONTENT_ENCODING) String contentEncoding,
                             @HeaderParam(Origins.REPLICATION_HEADER) String replication) {
        Registration.apply(api, appName, body, contentType, contentEncoding, replication);
        return Response.noContent().build();
    }

    @Path("{id}")
    public InstanceResource instance(@PathParam("id") String id) {
        return new InstanceResource(api, appName, id);
    }
}
