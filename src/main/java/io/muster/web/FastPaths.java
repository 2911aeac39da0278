package io.muster.web;

import io.muster.api.Api;
import io.muster.api.Callers;
import io.muster.api.Origins;
import io.muster.api.Reply;
import io.muster.cache.CacheKey;
import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;

/**
 * The requests a registry mostly gets (heartbeats, registrations, cancellations and fetches: every client, every
 * 30 s), answered without Jersey: JAX-RS matching and response building would cost more than the work itself.
 * Each is a thin adapter that reads the request and calls the same rules as the JAX-RS resource; every other
 * endpoint returns null here and goes on to Jersey.
 */
final class FastPaths {
    private final Api api;

    FastPaths(Api api) {
        this.api = api;
    }

    /** The answer, or null when this endpoint is Jersey's. */
    Reply serve(Route route, HttpServletRequest req) throws IOException {
        return switch (route.endpoint()) {
            case RENEW -> api.writes().renew(route.app(), route.id(),
                    QueryString.first(req.getQueryString(), "lastDirtyTimestamp"),
                    QueryString.first(req.getQueryString(), "overriddenstatus"), Origins.of(req.getHeader(Origins.REPLICATION_HEADER)),
                    req.getHeader("Accept"));
            case REGISTER -> api.writes().register(route.app(), req.getInputStream(), req.getContentType(),
                    req.getHeader("Content-Encoding"), Origins.of(req.getHeader(Origins.REPLICATION_HEADER)),
                    req.getRemoteAddr());
            case CANCEL -> api.writes().cancel(route.app(), route.id(),
                    Origins.of(req.getHeader(Origins.REPLICATION_HEADER)), Callers.client(req));
            case FULL_REGISTRY -> fetch(CacheKey.Entity.ALL_APPS, "", QueryString.first(req.getQueryString(), "regions"), req);
            case DELTA -> fetch(CacheKey.Entity.DELTA, "", QueryString.first(req.getQueryString(), "regions"), req);
            case APP -> fetch(CacheKey.Entity.APP, route.app(), null, req);
            case VIP -> fetch(CacheKey.Entity.VIP, route.name(), null, req);
            case SECURE_VIP -> fetch(CacheKey.Entity.SVIP, route.name(), null, req);
            case INSTANCE -> api.reads().instance(route.app(), route.id(), req.getHeader("Accept"));
            case INSTANCE_BY_ID -> api.reads().instanceById(route.id(), req.getHeader("Accept"));
            default -> null;
        };
    }

    private Reply fetch(CacheKey.Entity entity, String name, String regions, HttpServletRequest req) {
        return api.reads().fetch(entity, name, regions, req.getHeader("Accept"), req.getHeader(io.muster.api.EurekaHeaders.EUREKA_ACCEPT),
                req.getHeader("Accept-Encoding"));
    }
}
