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
