package io.muster.web;

import io.muster.api.Reply;

import java.util.List;
import java.util.Map;

/**
 * What a request asks for, read once from the container-normalized path: the endpoint and its path values
 * (decoded), and the canonical path Jersey is given (no version segment, no trailing or doubled slash, no matrix
 * parameters, each segment percent-encoded), so Jersey routes exactly what access was decided on. A request that
 * names no endpoint has no {@link #endpoint()} and carries its refusal (404, or 405 with the methods allowed).
 *
 * @param app  the {@code {app}} segment, when the endpoint has one
 * @param id   the {@code {id}} segment (instance id), when the endpoint has one
 * @param name     the VIP, the dashboard file or the admin action, when the endpoint has one
 * @param segments the path's segments after the version, decoded
 */
public record Route(Endpoint endpoint, String app, String id, String name, List<String> segments, Reply refusal) {
    static final Route NOT_FOUND = new Route(null, null, null, null, null, Reply.text(404, "not found"));

    /**
     * Deployed as ROOT, the {@code /eureka/} of every Eureka client's default service URL names nothing here: the
     * 404 says where the API is, so the operator need not guess from an empty answer.
     */
    static final Route NOT_FOUND_UNDER_ROOT = new Route(null, null, null, null, null, Reply.text(404,
            "not found: this server is deployed as the root context, so the Eureka API is at /apps/, not"
                    + " /eureka/apps/; point clients at http://host:port/ or deploy the WAR as eureka.war"));

    /** The route, or for {@code /eureka/...} under the root context a 404 that says where the API is. */
    static Route withRootHint(Route route, String contextPath, String path) {
        boolean eurekaUnderRoot = contextPath.isEmpty() && (path.equals("/eureka") || path.startsWith("/eureka/"));
        return eurekaUnderRoot && route.endpoint() == null && route.refusal().status() == 404
                ? NOT_FOUND_UNDER_ROOT : route;
    }

    static Route methodNotAllowed(String allow) {
        return new Route(null, null, null, null, null,
                Reply.text(405, "method not allowed").withHeaders(Map.of("Allow", allow)));
    }

    /** Built only for requests that go on to Jersey: the fast paths never need it. */
    public String canonicalPath() {
        return Router.canonical(segments);
    }

    public String metricName() {
        return endpoint == null ? "unrouted" : endpoint.metricName();
    }
}
