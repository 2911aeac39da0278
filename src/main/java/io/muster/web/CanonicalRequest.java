package io.muster.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * The request as Jersey sees it: its path is the route's canonical path, so Jersey matches exactly the endpoint
 * that access was decided for, whatever spelling (version segment, {@code ;} parameters, escapes, doubled slashes)
 * the client used. Jersey builds its request URI from these four methods.
 */
final class CanonicalRequest extends HttpServletRequestWrapper {
    private final String pathInfo;
    private final String requestUri;

    CanonicalRequest(HttpServletRequest request, Route route) {
        super(request);
        this.pathInfo = route.canonicalPath();
        this.requestUri = request.getContextPath() + pathInfo;
    }

    @Override
    public String getServletPath() {
        return "";
    }

    @Override
    public String getPathInfo() {
        return pathInfo;
    }

    @Override
    public String getRequestURI() {
        return requestUri;
    }

    @Override
    public StringBuffer getRequestURL() {
        StringBuffer url = new StringBuffer(64).append(getScheme()).append("://").append(getServerName());
        int port = getServerPort();
        if (port > 0 && !(port == 80 && "http".equals(getScheme())) && !(port == 443 && "https".equals(getScheme()))) {
            url.append(':').append(port);
        }
        return url.append(requestUri);
    }
}
