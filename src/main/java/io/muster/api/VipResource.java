package io.muster.api;

import io.muster.cache.CacheKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
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
                        @Context HttpHeaders headers) {
        return api.reads().fetch(CacheKey.Entity.VIP, vip, Representation.of(headers)).toResponse();
    }

    @GET
    @Path("svips/{svip}")
    public Response secureVip(@PathParam("svip") String svip,
                              @Context HttpHeaders headers) {
        return api.reads().fetch(CacheKey.Entity.SVIP, svip, Representation.of(headers)).toResponse();
    }
}
