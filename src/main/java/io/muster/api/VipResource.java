package io.muster.api;

import io.muster.cache.CacheKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** {@code /vips/{vip}} and {@code /svips/{svip}}: instances by (secure) VIP address; 200 even when none match. */
@Path("/")
public final class VipResource {
    private final Api api;

    public VipResource(Api api) {
        this.api = api;
    }

    @GET
    @Path("vips/{vip}")
    public Response vip(@PathParam("vip") String vip,
                        @HeaderParam(HttpHeaders.ACCEPT) String accept,
                        @HeaderParam(ApplicationsResource.EUREKA_ACCEPT) String eurekaAccept,
                        @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding) {
        return api.reads().fetch(CacheKey.Entity.VIP, vip, accept, eurekaAccept, acceptEncoding).toResponse();
    }

    @GET
    @Path("svips/{svip}")
    public Response secureVip(@PathParam("svip") String svip,
                              @HeaderParam(HttpHeaders.ACCEPT) String accept,
                              @HeaderParam(ApplicationsResource.EUREKA_ACCEPT) String eurekaAccept,
                              @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding) {
        return api.reads().fetch(CacheKey.Entity.SVIP, svip, accept, eurekaAccept, acceptEncoding).toResponse();
    }
}
