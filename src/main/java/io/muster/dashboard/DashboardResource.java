package io.muster.dashboard;

import jakarta.servlet.ServletContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;
import java.util.Map;

/**
 * Serves the dashboard's static files from the WAR ({@code /dashboard/*}), and its page at {@code {ctx}/}.
 * Jersey owns the whole context, so the container's default servlet never sees these paths.
 */
@Path("/")
public final class DashboardResource {
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "png", "image/png",
            "svg", "image/svg+xml");

    private final ServletContext servletContext;

    public DashboardResource(ServletContext servletContext) {
        this.servletContext = servletContext;
    }

    @GET
    public Response page() {
        return file("index.html");
    }

    @GET
    @Path("dashboard/{file: [A-Za-z0-9_-]+\\.[a-z]+}")
    public Response file(@PathParam("file") String file) {
        String type = TYPES.get(file.substring(file.lastIndexOf('.') + 1));
        InputStream in = type == null ? null : servletContext.getResourceAsStream("/dashboard/" + file);
        if (in == null) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        CacheControl noCache = new CacheControl();
        noCache.setNoCache(true);
        return Response.ok(in, type).cacheControl(noCache).header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'").build();
    }
}
