package io.muster.bootstrap;

import io.muster.config.ServerConfig.DashboardConfig;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;

/**
 * Spring Cloud's {@code eureka.dashboard.enabled} and {@code eureka.dashboard.path}: moves the dashboard page from
 * {@code {ctx}/} to {@code {ctx}{path}} (its files and its status document stay where they are, so the page works
 * at any path without a trailing slash), or hides the page and its files. Runs before Jersey matches a resource,
 * so the dashboard resource itself stays unaware of it.
 */
@PreMatching
final class DashboardRoute implements ContainerRequestFilter {
    private final boolean enabled;
    private final String path;   // without the leading slash; empty for the root

    DashboardRoute(DashboardConfig config) {
        this.enabled = config.enabled();
        String p = config.path().replaceAll("^/+|/+$", "");
        this.path = p;
    }

    /** Whether the route changes anything (the default configuration needs no filter). */
    boolean isNeeded() {
        return !enabled || !path.isEmpty();
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String requested = request.getUriInfo().getPath().replaceAll("^/+|/+$", "");
        boolean page = requested.equals(path);
        boolean root = requested.isEmpty();
        boolean files = requested.startsWith("dashboard/");
        if (!enabled && (root || files || page)) {
            throw new NotFoundException();
        }
        if (!path.isEmpty()) {
            if (root) {
                throw new NotFoundException();   // as in Spring: the page is only at the configured path
            }
            if (page) {
                request.setRequestUri(request.getUriInfo().getBaseUri(), request.getUriInfo().getBaseUri());
            }
        }
    }
}
