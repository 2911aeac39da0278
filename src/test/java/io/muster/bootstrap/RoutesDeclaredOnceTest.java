package io.muster.bootstrap;

import io.muster.web.Endpoint;
import jakarta.ws.rs.Path;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint table is where routes are declared; the JAX-RS resources the application registers say the same,
 * route for route, as Jersey itself reads their annotations. An endpoint added, removed or moved in one place
 * only fails here.
 */
class RoutesDeclaredOnceTest {
    @Test
    void theResourcesDeclareExactlyTheTablesRoutesForEveryEndpointJerseyAnswers() {
        Set<String> table = new TreeSet<>();
        for (Endpoint e : Endpoint.values()) {
            if (e.road() != Endpoint.Road.STREAM) {
                e.paths().forEach(p -> table.add(e.method() + " " + p));
            }
        }
        Set<String> jaxRs = jaxRsRoutes();
        assertThat(difference(table, jaxRs)).as("in the endpoint table, with no resource method").isEmpty();
        assertThat(difference(jaxRs, table)).as("resource methods the endpoint table lacks").isEmpty();
    }

    @Test
    void whatTheFrontDoorAnswersItselfHasNoResource() {
        Set<String> jaxRs = jaxRsRoutes();
        for (Endpoint e : Endpoint.values()) {
            if (e.road() == Endpoint.Road.STREAM) {
                e.paths().forEach(p -> assertThat(jaxRs).as(e.name()).doesNotContain(e.method() + " " + p));
            }
        }
    }

    /** "METHOD path" for every resource method of the application, paths without leading or trailing slash. */
    private static Set<String> jaxRsRoutes() {
        ResourceConfig application = JaxRsApplication.create(null, null, Clock.systemUTC());
        Set<String> routes = new TreeSet<>();
        for (Class<?> c : application.getClasses()) {
            if (!c.isAnnotationPresent(Path.class)) {
                continue;
            }
            Resource resource = Resource.from(c);
            String base = trim(resource.getPath());
            add(routes, base, resource);
            for (Resource child : resource.getChildResources()) {
                String sub = trim(child.getPath());
                add(routes, base.isEmpty() ? sub : sub.isEmpty() ? base : base + "/" + sub, child);
            }
        }
        return routes;
    }

    private static void add(Set<String> routes, String path, Resource resource) {
        for (ResourceMethod m : resource.getResourceMethods()) {
            assertThat(routes.add(m.getHttpMethod() + " " + path)).as("declared twice: %s %s", m.getHttpMethod(), path)
                    .isTrue();
        }
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private static String trim(String path) {
        String p = path == null ? "" : path;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
