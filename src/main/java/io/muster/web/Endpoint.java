package io.muster.web;

import java.util.List;

import static io.muster.web.Access.ADMIN;
import static io.muster.web.Access.CLIENT;
import static io.muster.web.Access.OPEN;
import static io.muster.web.Access.OWNER;
import static io.muster.web.Access.PEER;
import static io.muster.web.Endpoint.Road.FAST;
import static io.muster.web.Endpoint.Road.JERSEY;
import static io.muster.web.Endpoint.Road.STREAM;
import static io.muster.web.Endpoint.Scope.EUREKA;
import static io.muster.web.Endpoint.Scope.MUSTER;

/**
 * Every endpoint the server has, declared once: its method and paths, the access it needs, the name its requests
 * are timed under and what answers it. This is the access table and the routing table: {@link Router} classifies
 * requests from it alone, a request that names none of these is answered 404 (or 405) before any handler runs, and
 * a write flagged as replicated needs {@link Access#PEER} whatever its endpoint. The JAX-RS resources declare the
 * same paths in their annotations, as the readable map of the API; a test fails when the two differ.
 *
 * <p>Paths are written as JAX-RS templates, relative to the context: {@code {app}} and {@code {id}} bind the
 * application and instance, any other variable the route's name; {@code {name: regex}} constrains a variable.
 */
public enum Endpoint {
    FULL_REGISTRY(EUREKA, CLIENT, "apps_full", FAST, "GET", "apps"),
    DELTA(EUREKA, CLIENT, "apps_delta", FAST, "GET", "apps/delta"),
    APP(EUREKA, CLIENT, "app", FAST, "GET", "apps/{app}"),
    REGISTER(EUREKA, OWNER, "register", FAST, "POST", "apps/{app}"),
    INSTANCE(EUREKA, CLIENT, "instance", FAST, "GET", "apps/{app}/{id}"),
    RENEW(EUREKA, OWNER, "renew", FAST, "PUT", "apps/{app}/{id}"),
    CANCEL(EUREKA, OWNER, "cancel", FAST, "DELETE", "apps/{app}/{id}"),
    // Eureka's rule: clients set and clear their own status (Netflix statusUpdate, Spring's service-registry)
    STATUS_OVERRIDE(EUREKA, OWNER, "status_override", JERSEY, "PUT", "apps/{app}/{id}/status"),
    DELETE_STATUS_OVERRIDE(EUREKA, OWNER, "status_override", JERSEY, "DELETE", "apps/{app}/{id}/status"),
    METADATA(EUREKA, OWNER, "metadata", JERSEY, "PUT", "apps/{app}/{id}/metadata"),
    INSTANCE_BY_ID(EUREKA, CLIENT, "instances", FAST, "GET", "instances/{id}"),
    VIP(EUREKA, CLIENT, "vips", FAST, "GET", "vips/{vip}"),
    SECURE_VIP(EUREKA, CLIENT, "svips", FAST, "GET", "svips/{svip}"),
    EUREKA_STATUS(EUREKA, CLIENT, "status", JERSEY, "GET", "status"),
    STATUS_OVERRIDES(EUREKA, CLIENT, "serverinfo", JERSEY, "GET", "serverinfo/statusoverrides"),
    ASG_STATUS(EUREKA, OWNER, "asg", JERSEY, "PUT", "asg/{asgName}/status"),
    REPLICATION_BATCH(EUREKA, PEER, "peerreplication", FAST, "POST", "peerreplication/batch"),
    /** Kubernetes' three probes, in MicroProfile Health's paths, and all three together. */
    HEALTH(MUSTER, OPEN, "health", JERSEY, "GET", "health", "health/started", "health/live", "health/ready"),
    METRICS(MUSTER, OPEN, "metrics", JERSEY, "GET", "metrics"),
    /** The page (moved or removed by {@link DashboardPlacement}) and its files. */
    DASHBOARD(MUSTER, OPEN, "dashboard", JERSEY, "GET", "", "dashboard/{file: [A-Za-z0-9_-]+\\.[a-z]+}"),
    DASHBOARD_STATUS(MUSTER, CLIENT, "dashboard_api", JERSEY, "GET", "api/status"),
    /** Server-sent events, one per registry change: read access, like the fetches it replaces. */
    CHANGES(MUSTER, CLIENT, "changes", STREAM, "GET", "api/changes"),
    /** Muster-only: per-app hashes peers compare their registries with (the cluster check). */
    CLUSTER_DIGEST(MUSTER, PEER, "cluster_digest", JERSEY, "GET", "api/cluster/digest"),
    /**
     * Muster-only: the full registry for a peer's start-up sync, answered while reads are held too (the digest says
     * whether they are): nodes restarted together copy what each other holds instead of waiting for each other.
     */
    CLUSTER_REGISTRY(MUSTER, PEER, "cluster_registry", JERSEY, "GET", "api/cluster/registry"),
    ADMIN_CSRF(MUSTER, ADMIN, "admin", JERSEY, "GET", "api/admin/csrf"),
    ADMIN_ACTION(MUSTER, ADMIN, "admin", JERSEY, "POST",
            "api/admin/instances/{app}/{id}/{action: out-of-service|remove-override|deregister}"),
    /** Muster-only: who did what (the audit trail), for operators. */
    AUDIT(MUSTER, ADMIN, "audit", JERSEY, "GET", "api/audit");

    /** Where an endpoint's paths are served. */
    public enum Scope {
        /** Eureka's API: also under any version segment ({@code /v2/apps}, {@code /V1/apps}, ...). */
        EUREKA,
        /** Muster's operations (health, metrics, the dashboard and its API): only without one. */
        MUSTER
    }

    /** What answers an endpoint's requests once the front door has let them through. */
    public enum Road {
        /**
         * {@link FastPaths}, without Jersey: the requests a registry mostly gets. Its JAX-RS resource answers them
         * when the fast paths are switched off (the two roads must agree).
         */
        FAST,
        /** Its JAX-RS resource method, given the canonical path. */
        JERSEY,
        /** The front door itself holds the connection open ({@link ChangeStreams}); there is no resource. */
        STREAM
    }

    private final Scope scope;
    private final Access access;
    private final String metricName;
    private final Road road;
    private final String method;
    private final List<String> paths;

    Endpoint(Scope scope, Access access, String metricName, Road road, String method, String... paths) {
        this.scope = scope;
        this.access = access;
        this.metricName = metricName;
        this.road = road;
        this.method = method;
        this.paths = List.of(paths);
    }

    public Scope scope() {
        return scope;
    }

    public Access access() {
        return access;
    }

    public String metricName() {
        return metricName;
    }

    public Road road() {
        return road;
    }

    /** The HTTP method; a GET endpoint answers HEAD too, without a body. */
    public String method() {
        return method;
    }

    /** Its path templates, relative to the context, without leading or trailing slash. */
    public List<String> paths() {
        return paths;
    }
}
