package io.muster.resources;

import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.WebApplicationException;

import java.io.IOException;
import java.util.Locale;

/**
 * Registrations answered at the servlet level: the body is decoded by our own codec anyway, so JAX-RS would only
 * add matching and response building. Sits after {@link AccessControl}; answers {@code POST {ctx}[/vN]/apps/{app}[/]}
 * exactly as {@link ApplicationResource#register} does (same checks, same 4xx messages) and passes everything else
 * on, including percent-encoded or matrix segments.
 */
public final class RegistrationFastPath implements Filter {
    private final Api api;

    public RegistrationFastPath(Api api) {
        this.api = api;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String app = "POST".equals(req.getMethod())
                ? app(req.getRequestURI().substring(req.getContextPath().length())) : null;
        if (app == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse rsp = (HttpServletResponse) response;
        try {
            Registration.apply(api, app.toUpperCase(Locale.ROOT), req.getInputStream(), req.getContentType(),
                    req.getHeader("Content-Encoding"), req.getHeader(Origins.REPLICATION_HEADER));
        } catch (WebApplicationException problem) {
            Problems.write(rsp, problem);
            return;
        } catch (InvalidInstanceException | RegistryFullException refused) {
            if (refused instanceof RegistryFullException) {
                rsp.setHeader("Retry-After", UnexpectedErrorMapper.RETRY_AFTER_SECONDS);
            }
            Problems.write(rsp, new WebApplicationException(refused.getMessage(),
                    UnexpectedErrorMapper.registryRefusal(refused)));
            return;
        }
        rsp.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }

    /** The application segment when the path (after the context) is a registration's, else null. */
    static String app(String path) {
        String[] segments = ApiPaths.appsSegments(path);
        return segments != null && segments.length == 1 ? segments[0] : null;
    }
}
