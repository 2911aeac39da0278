package io.muster.web;

import io.muster.api.Api;
import io.muster.api.Callers;
import io.muster.api.Representation;
import io.muster.api.Origins;
import io.muster.api.Reply;
import io.muster.cache.CacheKey;
import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The requests a registry mostly gets (heartbeats, registrations, cancellations, fetches and, in a cluster, the
 * peers' replication batches), answered without Jersey: JAX-RS matching and response building would cost more
 * than the work itself. Each is a thin adapter that reads the request and calls the same rules as the JAX-RS
 * resource. It answers exactly the endpoints the table puts on {@link Endpoint.Road#FAST}: it refuses to be built
 * otherwise, so a deployment never starts with an endpoint that has no handler.
 *
 * <p>Immutable once built; one instance serves all request threads.
 */
final class FastPaths {
    /** What answers one endpoint. */
    @FunctionalInterface
    private interface Handler {
        Reply serve(Route route, HttpServletRequest req) throws IOException;
    }

    private final Api api;
    private final Map<Endpoint, Handler> handlers = new EnumMap<>(Endpoint.class);

    FastPaths(Api api) {
        this.api = api;
        handlers.put(Endpoint.RENEW, (route, req) -> api.writes().renew(route.app(), route.id(),
                QueryString.first(req.getQueryString(), "lastDirtyTimestamp"),
                QueryString.first(req.getQueryString(), "overriddenstatus"), origin(req), req.getHeader("Accept")));
        handlers.put(Endpoint.REGISTER, (route, req) -> api.writes().register(route.app(), req.getInputStream(),
                req.getContentLengthLong(), req.getContentType(), req.getHeader("Content-Encoding"), origin(req), req.getRemoteAddr()));
        handlers.put(Endpoint.CANCEL, (route, req) -> api.writes().cancel(route.app(), route.id(), origin(req),
                Callers.client(req)));
        handlers.put(Endpoint.REPLICATION_BATCH, (route, req) -> api.batches().apply(req.getInputStream(),
                req.getContentType(), req.getHeader("Content-Encoding")));
        handlers.put(Endpoint.FULL_REGISTRY, (route, req) -> fetch(CacheKey.Entity.ALL_APPS, "", regions(req), req));
        handlers.put(Endpoint.DELTA, (route, req) -> fetch(CacheKey.Entity.DELTA, "", regions(req), req));
        handlers.put(Endpoint.APP, (route, req) -> fetch(CacheKey.Entity.APP, route.app(), null, req));
        handlers.put(Endpoint.VIP, (route, req) -> fetch(CacheKey.Entity.VIP, route.name(), null, req));
        handlers.put(Endpoint.SECURE_VIP, (route, req) -> fetch(CacheKey.Entity.SVIP, route.name(), null, req));
        handlers.put(Endpoint.INSTANCE, (route, req) -> api.reads().instance(route.app(), route.id(),
                req.getHeader("Accept")));
        handlers.put(Endpoint.INSTANCE_BY_ID, (route, req) -> api.reads().instanceById(route.id(),
                req.getHeader("Accept")));
        Set<Endpoint> fast = onTheFastRoad();
        if (!handlers.keySet().equals(fast)) {
            throw new IllegalStateException("the fast paths answer " + handlers.keySet() + " but the endpoint table "
                    + "puts " + fast + " on them");
        }
    }

    /** The endpoints the table gives this class. */
    static Set<Endpoint> onTheFastRoad() {
        Set<Endpoint> fast = EnumSet.noneOf(Endpoint.class);
        for (Endpoint e : Endpoint.values()) {
            if (e.road() == Endpoint.Road.FAST) {
                fast.add(e);
            }
        }
        return fast;
    }

    /** The answer to a request for one of {@link #onTheFastRoad()}. */
    Reply serve(Route route, HttpServletRequest req) throws IOException {
        return handlers.get(route.endpoint()).serve(route, req);
    }

    private static io.muster.registry.Origin origin(HttpServletRequest req) {
        return Origins.of(req.getHeader(Origins.REPLICATION_HEADER));
    }

    private static String regions(HttpServletRequest req) {
        return QueryString.first(req.getQueryString(), "regions");
    }

    private Reply fetch(CacheKey.Entity entity, String name, String regions, HttpServletRequest req) {
        return api.reads().fetch(entity, name, regions, Representation.of(req));
    }
}
