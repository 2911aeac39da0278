package io.muster.api;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * The form a fetcher asked for, read once from its request headers on either road of the front door: JSON or XML
 * ({@code Accept}), full or compact instances ({@value EurekaHeaders#EUREKA_ACCEPT}) and whether it takes gzip
 * ({@code Accept-Encoding}).
 */
public record Representation(WireFormat format, Detail detail, boolean gzip) {
    static final String ACCEPT = "Accept";
    static final String ACCEPT_ENCODING = "Accept-Encoding";

    public static Representation of(String accept, String eurekaAccept, String acceptEncoding) {
        return new Representation(WireFormat.fromAccept(accept), Detail.fromHeader(eurekaAccept),
                acceptEncoding != null && acceptEncoding.contains("gzip"));
    }

    /** From a request the front door answers itself. */
    public static Representation of(HttpServletRequest req) {
        return of(req.getHeader(ACCEPT), req.getHeader(EurekaHeaders.EUREKA_ACCEPT), req.getHeader(ACCEPT_ENCODING));
    }

    /** From a request Jersey answers. */
    static Representation of(HttpHeaders headers) {
        return of(headers.getHeaderString(ACCEPT), headers.getHeaderString(EurekaHeaders.EUREKA_ACCEPT),
                headers.getHeaderString(ACCEPT_ENCODING));
    }
}
