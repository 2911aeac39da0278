package io.muster.web;

import static io.muster.web.Access.ADMIN;
import static io.muster.web.Access.CLIENT;
import static io.muster.web.Access.OPEN;
import static io.muster.web.Access.PEER;

/**
 * Every endpoint the server has, with the access it needs and the name its requests are timed under. This is the
 * access table: a request that does not classify as one of these is answered 404 before any handler runs, and a
 * write flagged as replicated needs {@link Access#PEER} whatever its endpoint.
 */
public enum Endpoint {
    FULL_REGISTRY(CLIENT, "apps_full"),
    DELTA(CLIENT, "apps_delta"),
    APP(CLIENT, "app"),
    REGISTER(CLIENT, "register"),
    INSTANCE(CLIENT, "instance"),
    RENEW(CLIENT, "renew"),
    CANCEL(CLIENT, "cancel"),
    // Eureka's rule: clients set and clear their own status (Netflix statusUpdate, Spring's service-registry)
    STATUS_OVERRIDE(CLIENT, "status_override"),
    DELETE_STATUS_OVERRIDE(CLIENT, "status_override"),
    METADATA(CLIENT, "metadata"),
    INSTANCE_BY_ID(CLIENT, "instances"),
    VIP(CLIENT, "vips"),
    SECURE_VIP(CLIENT, "svips"),
    EUREKA_STATUS(CLIENT, "status"),
    STATUS_OVERRIDES(CLIENT, "serverinfo"),
    ASG_STATUS(CLIENT, "asg"),
    REPLICATION_BATCH(PEER, "peerreplication"),
    HEALTH(OPEN, "health"),
    METRICS(OPEN, "metrics"),
    DASHBOARD(OPEN, "dashboard"),
    DASHBOARD_STATUS(CLIENT, "dashboard_api"),
    /** Server-sent events, one per registry change: read access, like the fetches it replaces. */
    CHANGES(CLIENT, "changes"),
    /** Muster-only: per-app hashes peers compare their registries with (the cluster check). */
    CLUSTER_DIGEST(PEER, "cluster_digest"),
    /**
     * Muster-only: the full registry for a peer's start-up sync, answered while reads are held too (the digest says
     * whether they are): nodes restarted together copy what each other holds instead of waiting for each other.
     */
    CLUSTER_REGISTRY(PEER, "cluster_registry"),
    ADMIN_CSRF(ADMIN, "admin"),
    ADMIN_ACTION(ADMIN, "admin"),
    /** Muster-only: who did what (the audit trail), for operators. */
    AUDIT(ADMIN, "audit");

    private final Access access;
    private final String metricName;

    Endpoint(Access access, String metricName) {
        this.access = access;
        this.metricName = metricName;
    }

    public Access access() {
        return access;
    }

    public String metricName() {
        return metricName;
    }
}
