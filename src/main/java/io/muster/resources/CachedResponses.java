package io.muster.resources;

import io.muster.cache.CacheKey;
import io.muster.cache.ResponseCache;
import io.muster.cache.Payload;
import io.muster.codec.Detail;
import io.muster.codec.WireFormat;
import jakarta.ws.rs.core.Response;

/** Turns a cached payload into a response: 404 when empty, gzip bytes when the client accepts them. */
final class CachedResponses {
    static final String VARY = "Accept, Accept-Encoding, X-Eureka-Accept";

    private CachedResponses() {
    }

    static boolean wantsGzip(String acceptEncoding) {
        return acceptEncoding != null && acceptEncoding.contains("gzip");
    }

    static CacheKey key(CacheKey.Entity entity, String name, String accept, String eurekaAccept) {
        return new CacheKey(entity, name, WireFormat.fromAccept(accept), Detail.fromHeader(eurekaAccept));
    }

    static Response of(ResponseCache cache, Payload payload, CacheKey key, String acceptEncoding) {
        if (payload.isEmpty()) {
            return Problems.notFound();
        }
        boolean gzip = wantsGzip(acceptEncoding);
        Response.ResponseBuilder b = Response.ok(gzip ? cache.gzipped(key, payload) : payload.bytes(),
                        key.format().mediaType())
                .header("Vary", VARY);
        if (gzip) {
            b.header("Content-Encoding", "gzip");
        }
        return b.build();
    }
}
