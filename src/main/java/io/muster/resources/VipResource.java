package io.muster.resources;

import io.muster.cache.CacheKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** {@code /vips/{vip}} and {@code /svips/{svip}}: instances by (secure) VIP address; 200 even when none match. */
public final class VipResource {
    private final Api api;
    private final CacheKey.Entity entity;

    VipResource(Api api, boolean secure) {
        this.api = api;
        this.entity = secure ? CacheKey.Entity.SVIP : CacheKey.Entity.VIP;
    }

    @GET
    @Path("{vip}")
    public Response get(@PathParam("vip") String vip,
                        @HeaderParam(HttpHeaders.ACCEPT) String accept,
                        @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding,
                        @HeaderParam("X-Eureka-Accept") String eurekaAccept) {
        if (!api.gate().allowsReads()) {
            return Problems.forbidden();
        }
        CacheKey key = CachedResponses.key(entity, vip, accept, eurekaAccept);
        return CachedResponses.of(api.cache(), api.cache().get(key), key, acceptEncoding);
    }
}
