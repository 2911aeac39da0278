package io.muster.web;

import io.muster.api.Api;
import io.muster.api.BodyLimits;
import io.muster.api.Callers;
import io.muster.api.Failures;
import io.muster.api.Origins;
import io.muster.api.Reply;
import io.muster.api.Representation;
import io.muster.cache.CacheKey;
import io.muster.metrics.MusterMetrics;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every request comes through here once: it is classified into a {@link Route} from the container-normalized path,
 * refused (404/405) when it names no endpoint, checked against the role its endpoint needs, answered by a fast path
 * or handed to Jersey with its canonical path (never passed down the chain), and timed under its endpoint's name.
 * Deny by default: nothing reaches a handler without a route, and access is never decided on the raw URI.
 *
 * <p>Stateless apart from its collaborators, so one instance serves all request threads.
 */
public final class FrontDoor implements Filter {
    private static final Set<String> READS = Set.of("GET", "HEAD");
    private static final String WAIT_PARAMETER = "waitForChangeAfter";
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS");
    /** A backstop for clients that read a large answer by the trickle; a stalled one ends at the write timeout. */
    private static final long LARGE_WRITE_TIMEOUT_MILLIS = 300_000;

    private final boolean clientAuthRequired;
    private final Ownership ownership;
    private final FastPaths fastPaths;
    private final MusterMetrics metrics;
    private final DashboardPlacement dashboard;
    private final Servlet jaxRs;
    private final Api api;
    private final ChangeStreams changes;
    private final Framing framing = new Framing();
    private final RefusedReplicationLog refusedReplication = new RefusedReplicationLog(System::nanoTime);
    /** Null when the container or the settings give no sendfile. */
    private final SendfileBodies sendfile;
    private final BodyWriter bodies;
    private final BodyIntake intake = BodyIntake.withDefaults();
    /** Endpoints whose bodies are the response cache's shared payloads, the only ones worth a file. */
    private static final Set<Endpoint> CACHED = EnumSet.of(Endpoint.FULL_REGISTRY, Endpoint.DELTA, Endpoint.APP,
            Endpoint.VIP, Endpoint.SECURE_VIP);

    /**
     * @param fastPaths     false sends every request through Jersey (to compare the two roads)
     * @param dashboardPath where the dashboard's page is ({@code /} by default); null when there is no dashboard
     * @param jaxRs         Jersey, given every request the fast paths do not answer
     * @param bodiesDir     where large cached bodies are written for the container's sendfile, or null for none
     * @param sendfileMin   the smallest body sent that way
     * @param largeWrites   which answers are written without blocking a thread, and how many at once
     */
    public FrontDoor(Api api, boolean clientAuthRequired, boolean appOwnership, boolean fastPaths,
                     String dashboardPath,
                     MusterMetrics metrics, ChangeStreams changes, Servlet jaxRs, Path bodiesDir, int sendfileMin,
                     LargeWrites largeWrites) {
        this.bodies = new BodyWriter(largeWrites.minBytes(), largeWrites.maxOpen(), largeWrites.maxOpenPerClient(),
                Runtime.getRuntime().maxMemory() / 100 * largeWrites.maxHeapPercent(), LARGE_WRITE_TIMEOUT_MILLIS);
        this.sendfile = bodiesDir == null || !fastPaths ? null
                : new SendfileBodies(bodiesDir, sendfileMin, System::currentTimeMillis);
        this.jaxRs = jaxRs;
        this.api = api;
        this.changes = changes;
        this.clientAuthRequired = clientAuthRequired;
        this.ownership = new Ownership(appOwnership);
        this.fastPaths = fastPaths ? new FastPaths(api) : null;
        this.metrics = metrics;
        metrics.watchArrivingBodies(intake::pending, intake::waited);
        this.dashboard = new DashboardPlacement(dashboardPath != null, dashboardPath);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long t0 = System.nanoTime();
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse rsp = (HttpServletResponse) response;
        if (framing.refused(req, rsp)) {
            return;
        }
        String method = req.getMethod();
        String path = normalizedPath(req);
        Route route = dashboard.classify(method, path);
        if (route.endpoint() == null) {   // Tomcat works the context path out of the URI anew on every call
            route = Route.withRootHint(route, req.getContextPath(), path);
        }
        if (BodyIntake.hasBody(req)) {
            take(route, method, req, rsp, t0);
        } else {
            handle(route, method, req, rsp, t0);
        }
    }

    /**
     * A request with a body is answered once the body is in memory, refusals included: before that, Tomcat would
     * read the rest on a request thread (up to its connection timeout), for a slow client of any endpoint.
     */
    private void take(Route route, String method, HttpServletRequest req, HttpServletResponse rsp, long t0)
            throws IOException {
        BodyIntake.Next next = (withBody, r) -> {
            if (withBody == null) {
                record(route, method, r, t0);   // the intake answered
            } else {
                handle(route, method, withBody, r, t0);
            }
        };
        if (READS.contains(method)) {
            BodyIntake.refuseUnread(req, rsp, Reply.text(400, method + " requests carry no body"), next);
        } else {
            intake.take(req, rsp, bodyLimit(route, req), next);
        }
    }

    /** 16 MiB for a peer's batch only from a caller signed in as a peer; anyone else gets a client's bound. */
    private static int bodyLimit(Route route, HttpServletRequest req) {
        return route.endpoint() == Endpoint.REPLICATION_BATCH && Authenticator.signedInQuietly(req)
                && req.isUserInRole(Access.PEER_ROLE)
                ? BodyLimits.PEER_BATCH_BYTES : BodyLimits.CLIENT_BYTES;
    }

    private void handle(Route route, String method, HttpServletRequest req, HttpServletResponse rsp, long t0)
            throws IOException {
        try {
            serve(route, method, req, rsp);
        } catch (RuntimeException | ServletException e) {
            answerFailure(rsp, e);
        } finally {
            record(route, method, rsp, t0);
        }
    }

    private static void answerFailure(HttpServletResponse rsp, Exception e) throws IOException {
        Throwable cause = e instanceof ServletException && e.getCause() != null ? e.getCause() : e;
        if (!rsp.isCommitted()) {
            // a connection told to close (a chunked request, a body past its bound left unread) stays told
            String connection = rsp.getHeader("Connection");
            rsp.reset();
            if (connection != null) {
                rsp.setHeader("Connection", connection);
            }
            write(rsp, Failures.toReply(cause));
        }
    }

    private void record(Route route, String method, HttpServletResponse rsp, long t0) {
        metrics.recordRequest(route.metricName(), KNOWN_METHODS.contains(method) ? method : "OTHER",
                rsp.getStatus(), System.nanoTime() - t0);
    }

    private void serve(Route route, String method, HttpServletRequest req, HttpServletResponse rsp)
            throws IOException, ServletException {
        if (route.endpoint() == null) {
            write(rsp, route.refusal());
            return;
        }
        Access access = access(route, method, req);
        List<String> roles = access.roles(clientAuthRequired);
        if (!roles.isEmpty() && !Authenticator.authorize(req, rsp, roles)) {
            if (access == Access.PEER) {
                refusedReplication.refused(req.getRemoteAddr(), Callers.claimedUser(req), rsp.getStatus(),
                        method + " " + route.metricName());
            }
            return;
        }
        if (ownership.applies(access) && !owns(route, req, rsp)) {
            return;
        }
        if (access == Access.PEER || SERVER_IDENTITY.equals(req.getHeader(IDENTITY_HEADER))) {
            api.peerHeard().run();
        }
        if (route.endpoint().road() == Endpoint.Road.STREAM) {
            changes.openStream(req, rsp);
            return;
        }
        String after = QueryString.first(req.getQueryString(), WAIT_PARAMETER);
        if (after != null && (route.endpoint() == Endpoint.FULL_REGISTRY || route.endpoint() == Endpoint.DELTA)) {
            waitForChange(route, method, req, rsp, after);
            return;
        }
        dispatch(route, method, req, rsp);
    }

    /** Answers by the fast path or Jersey, the request's body (if any) already in memory. */
    private void dispatch(Route route, String method, HttpServletRequest req, HttpServletResponse rsp)
            throws IOException, ServletException {
        if (fastPaths != null && route.endpoint().road() == Endpoint.Road.FAST) {
            Reply reply = fastPaths.serve(route, req);
            Reply r = "HEAD".equals(method) ? reply.withoutBody() : reply;
            if (sendfile != null && CACHED.contains(route.endpoint()) && sendfile.offer(req, r.body())) {
                writeHeaders(rsp, r);   // the connector sends the body from the file
            } else {
                bodies.write(req, rsp, r);
            }
        } else {
            // not chain.doFilter: the container may have mapped the request to another servlet (Tomcat sends
            // *.jsp to its JSP servlet), but the route says it is Jersey's
            jaxRs.service(new CanonicalRequest(req, route), rsp);
        }
    }

    /**
     * The blocking fetch, on either road (it is Muster's own, not Eureka's, so Jersey has no part in it): the same
     * answer as the plain fetch, held back until the registry has moved past the index or the timeout ends.
     */
    private void waitForChange(Route route, String method, HttpServletRequest req, HttpServletResponse rsp,
                               String after) throws IOException {
        long index = ChangeStreams.parseId(after);
        java.time.Duration timeout = ChangeStreams.parseTimeout(QueryString.first(req.getQueryString(), "timeout"));
        if (index < 0 || timeout == null) {
            write(rsp, Reply.text(400, "waitForChangeAfter takes an X-Muster-Index value and timeout a duration "
                    + "such as 30s or 500ms (at most 5m)"));
            return;
        }
        CacheKey.Entity entity = route.endpoint() == Endpoint.DELTA ? CacheKey.Entity.DELTA
                : CacheKey.Entity.ALL_APPS;
        Representation form = Representation.of(req);
        String regions = QueryString.first(req.getQueryString(), "regions");
        boolean head = "HEAD".equals(method);
        changes.waitForChange(req, rsp, bodies, index, timeout, () -> {
            Reply r = api.reads().fetchAfter(entity, "", regions, form, index);
            return head ? r.withoutBody() : r;
        });
    }

    /** With ownership on: true when the (now authenticated) caller may write the route's app, else refused. */
    private boolean owns(Route route, HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        if (req.getUserPrincipal() == null && !Authenticator.signIn(req, rsp)) {
            return false;   // 401 written
        }
        String refusal = Ownership.refusal(req, route);
        if (refusal == null) {
            return true;
        }
        api.registry().refused(io.muster.registry.Refusal.NOT_OWNER);
        api.audit().refused(Callers.client(req),
                route.app() == null ? "(an auto-scaling group)" : route.app().toUpperCase(java.util.Locale.ROOT),
                refusal);
        write(rsp, Reply.text(HttpServletResponse.SC_FORBIDDEN, refusal));
        return false;
    }

    /** Eureka servers (and Muster) name themselves so when they fetch from a peer, as at the start-up sync. */
    private static final String IDENTITY_HEADER = "DiscoveryIdentity-Name";
    private static final String SERVER_IDENTITY = "DefaultServer";

    /** A write flagged as replicated claims to come from a peer, whatever its endpoint. */
    private static Access access(Route route, String method, HttpServletRequest req) {
        return !READS.contains(method) && "true".equals(req.getHeader(Origins.REPLICATION_HEADER))
                ? Access.PEER : route.endpoint().access();
    }

    /** What the container matched servlets on: {@code ;} parameters gone, escapes decoded, dot segments resolved. */
    private static String normalizedPath(HttpServletRequest req) {
        String servletPath = req.getServletPath();
        String pathInfo = req.getPathInfo();
        return pathInfo == null ? servletPath : servletPath + pathInfo;
    }

    static void write(HttpServletResponse rsp, Reply reply) throws IOException {
        writeHeaders(rsp, reply);
        if (reply.body().length > 0) {
            rsp.getOutputStream().write(reply.body());
        }
    }

    static void writeHeaders(HttpServletResponse rsp, Reply reply) {
        rsp.setStatus(reply.status());
        reply.headers().forEach(rsp::setHeader);
        if (reply.contentType() != null) {
            rsp.setContentType(reply.contentType());
        }
        rsp.setContentLength(reply.body().length);
    }

    /** Which answers are written without blocking a container thread, and how many at once (see BodyWriter). */
    public record LargeWrites(int minBytes, int maxOpen, int maxOpenPerClient, int maxHeapPercent) {
    }

    @Override
    public void destroy() {
        if (sendfile != null) {
            sendfile.close();
        }
    }
}
