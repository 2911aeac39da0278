package io.muster.resources;

import io.muster.cache.CacheKey;
import io.muster.cache.Payload;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * The full registry and the delta served at the servlet level, straight from the response cache: every client
 * fetches one of them every 30 s, and the bytes are ready, so JAX-RS matching and response building would be most
 * of the work. Sits after {@link AccessControl}; answers {@code GET {ctx}[/vN]/apps[/]} and
 * {@code GET {ctx}[/vN]/apps/delta[/]} exactly as {@link ApplicationsResource} does and passes everything else on.
 */
public final class RegistryFetchFastPath implements Filter {
    private final Api api;

    public RegistryFetchFastPath(Api api) {
        this.api = api;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        CacheKey.Entity entity = "GET".equals(req.getMethod())
                ? entity(req.getRequestURI().substring(req.getContextPath().length())) : null;
        if (entity == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse rsp = (HttpServletResponse) response;
        if (!api.gate().allowsReads() || (entity == CacheKey.Entity.DELTA && api.deltaDisabled())) {
            empty(rsp, HttpServletResponse.SC_FORBIDDEN);   // clients fall back to a full fetch, or another node
            return;
        }
        CacheKey key = CachedResponses.key(entity, "", req.getHeader("Accept"), req.getHeader("X-Eureka-Accept"));
        Payload payload = api.cache().get(key);
        if (payload.isEmpty()) {
            empty(rsp, HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        boolean gzip = CachedResponses.wantsGzip(req.getHeader("Accept-Encoding"));
        byte[] body = gzip ? api.cache().gzipped(key, payload) : payload.bytes();
        rsp.setStatus(HttpServletResponse.SC_OK);
        rsp.setContentType(key.format().mediaType());
        rsp.setHeader("Vary", CachedResponses.VARY);
        if (gzip) {
            rsp.setHeader("Content-Encoding", "gzip");
        }
        rsp.setContentLength(body.length);
        rsp.getOutputStream().write(body);
    }

    private static void empty(HttpServletResponse rsp, int status) {
        rsp.setStatus(status);
        rsp.setContentLength(0);
    }

    /** ALL_APPS or DELTA when the path (after the context) asks for one of them, else null. */
    static CacheKey.Entity entity(String path) {
        String[] segments = ApiPaths.appsSegments(path);
        if (segments == null || segments.length > 1) {
            return null;
        }
        if (segments.length == 0) {
            return CacheKey.Entity.ALL_APPS;
        }
        return "delta".equals(segments[0]) ? CacheKey.Entity.DELTA : null;
    }
}
