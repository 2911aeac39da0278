package io.muster.metrics;

import io.muster.resources.ApiPaths;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** Times every request and files it under the Eureka endpoint it hit. */
public final class RequestTimer implements Filter {
    private final MusterMetrics metrics;

    public RequestTimer(MusterMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long t0 = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            HttpServletRequest req = (HttpServletRequest) request;
            String path = req.getRequestURI().substring(req.getContextPath().length());
            metrics.recordRequest(endpoint(req.getMethod(), path), req.getMethod(),
                    ((HttpServletResponse) response).getStatus(), System.nanoTime() - t0);
        }
    }

    /** E.g. {@code renew} for {@code PUT /v2/apps/APP/id}. */
    static String endpoint(String method, String path) {
        String p = path.substring(ApiPaths.versionEnd(path));
        String[] s = p.split("/");
        int n = s.length;   // s[0] is "" for a leading slash
        if (n >= 2 && "apps".equals(s[1])) {
            if (n == 2) {
                return "apps_full";
            }
            if (n == 3) {
                return "delta".equals(s[2]) && "GET".equals(method) ? "apps_delta"
                        : "POST".equals(method) ? "register" : "app";
            }
            if (n == 4) {
                return switch (method) {
                    case "PUT" -> "renew";
                    case "DELETE" -> "cancel";
                    default -> "instance";
                };
            }
            return "status".equals(s[4]) ? "status_override" : "metadata";
        }
        if (n >= 2) {
            return switch (s[1]) {
                case "instances", "vips", "svips", "status", "peerreplication", "health", "metrics" -> s[1];
                case "api" -> "dashboard_api";
                case "", "dashboard" -> "dashboard";
                default -> "other";
            };
        }
        return "dashboard";
    }
}
