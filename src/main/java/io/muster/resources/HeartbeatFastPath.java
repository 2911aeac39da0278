package io.muster.resources;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.RenewOutcome;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Heartbeats answered at the servlet level. They are most of a registry's traffic (every instance, every 30 s) and
 * carry no body, yet going through JAX-RS matching and response building costs more than the renewal itself. This
 * filter sits after {@link AccessControl}, so the same roles apply, and answers {@code PUT {ctx}[/vN]/apps/{app}/{id}[/]}
 * with exactly what {@link InstanceResource#renew} would; anything else, including percent-encoded or matrix
 * segments, goes on to Jersey unchanged.
 */
public final class HeartbeatFastPath implements Filter {
    private final InstanceRegistry registry;

    public HeartbeatFastPath(InstanceRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String[] target = "PUT".equals(req.getMethod())
                ? target(req.getRequestURI().substring(req.getContextPath().length())) : null;
        if (target == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse rsp = (HttpServletResponse) response;
        RenewOutcome outcome;
        try {
            outcome = Heartbeat.apply(registry, target[0], target[1], req.getParameter("lastDirtyTimestamp"),
                    req.getParameter("overriddenstatus"), req.getHeader(Origins.REPLICATION_HEADER));
        } catch (NumberFormatException e) {
            Problems.write(rsp, Problems.badRequest(Heartbeat.BAD_TIMESTAMP));
            return;
        }
        switch (outcome.result()) {
            case OK -> empty(rsp, HttpServletResponse.SC_OK);
            case NOT_FOUND -> empty(rsp, HttpServletResponse.SC_NOT_FOUND);
            case CONFLICT -> {
                WireFormat format = WireFormat.fromAccept(req.getHeader("Accept"));
                byte[] body = EurekaCodec.encode(format, outcome.newerInstance());
                rsp.setStatus(HttpServletResponse.SC_CONFLICT);
                rsp.setContentType(format.mediaType());
                rsp.setContentLength(body.length);
                rsp.getOutputStream().write(body);
            }
        }
    }

    private static void empty(HttpServletResponse rsp, int status) {
        rsp.setStatus(status);
        rsp.setContentLength(0);
    }

    /** {app, id} when the path (after the context) is a heartbeat's, else null. */
    static String[] target(String path) {
        String[] segments = ApiPaths.appsSegments(path);
        return segments != null && segments.length == 2 ? segments : null;
    }
}
