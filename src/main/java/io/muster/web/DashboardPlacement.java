package io.muster.web;

import java.util.List;

/**
 * Spring Cloud's {@code eureka.dashboard.enabled} and {@code eureka.dashboard.path}: the dashboard's page moves from
 * {@code {ctx}/} to {@code {ctx}{path}} (its files and its status document stay where they are, so the page works
 * at any path), or the page and its files are not there at all. An API endpoint always wins over the page.
 */
final class DashboardPlacement {
    private final boolean enabled;
    private final List<String> page;   // the page's path segments; empty for the root

    DashboardPlacement(boolean enabled, String path) {
        this.enabled = enabled;
        List<String> segments = Router.segments(path == null ? "" : path);
        this.page = segments == null ? List.of() : segments;
    }

    Route classify(String method, String path) {
        Route route = Router.classify(method, path);
        if (route.endpoint() == Endpoint.DASHBOARD) {
            boolean isPage = route.name() == null;
            return !enabled || (isPage && !page.isEmpty()) ? Route.NOT_FOUND : route;
        }
        if (enabled && !page.isEmpty() && route.endpoint() == null && page.equals(Router.segments(path))) {
            return Router.classify(method, "/");
        }
        return route;
    }
}
