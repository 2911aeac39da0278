package io.muster.resources;

import io.muster.cache.CacheKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * {@code /apps}: the full registry and the delta, both from the response cache. The {@code regions} parameter is
 * accepted; only the local region exists.
 */
public final class ApplicationsResource {
    private final Api api;

    ApplicationsResource(Api api) {
        this.api = api;
    }

    @GET
    public Response all(@HeaderParam(HttpHeaders.ACCEPT) String accept,
                        @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding,
                        @HeaderParam("X-Eureka-Accept") String eurekaAccept,
                        @QueryParam("regions") String regions) {
        if (!api.gate().allowsReads()) {
            return Problems.forbidden();
        }
        CacheKey key = CachedResponses.key(CacheKey.Entity.ALL_APPS, "", accept, eurekaAccept);
        return CachedResponses.of(api.cache(), api.cache().get(key), key, acceptEncoding);
    }

    @GET
    @Path("delta")
    public Response delta(@HeaderParam(HttpHeaders.ACCEPT) String accept,
                          @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding,
                          @HeaderParam("X-Eureka-Accept") String eurekaAccept,
                          @QueryParam("regions") String regions) {
        if (api.deltaDisabled() || !api.gate().allowsReads()) {
            return Problems.forbidden();   // clients fall back to a full fetch
        }
        CacheKey key = CachedResponses.key(CacheKey.Entity.DELTA, "", accept, eurekaAccept);
        return CachedResponses.of(api.cache(), api.cache().get(key), key, acceptEncoding);
    }

    @Path("{app}")
    public ApplicationResource app(@PathParam("app") String app) {
        return new ApplicationResource(api, app);
    }
}
