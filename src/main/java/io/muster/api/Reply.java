package io.muster.api;

import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP answer, decided once by an endpoint's rules and written by whichever road the request took: the servlet
 * fast path writes it to the servlet response, the JAX-RS resource turns it into a {@link Response}. Bodies are
 * ready bytes (cached payloads are not copied).
 *
 * @param contentType null when there is no body
 * @param headers     extra headers (Vary, Content-Encoding, Retry-After, Allow), usually none
 */
public record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {
    private static final byte[] NONE = new byte[0];
    public static final String TEXT = "text/plain;charset=UTF-8";

    public Reply {
        body = body == null ? NONE : body;
        headers = Map.copyOf(headers);
    }

    /** No body at all: Eureka clients try to decode any body on a heartbeat's or a 404's answer. */
    public static Reply empty(int status) {
        return new Reply(status, null, NONE, Map.of());
    }

    /** A one-line plain-text message, for errors a person will read. */
    public static Reply text(int status, String message) {
        return new Reply(status, TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8), Map.of());
    }

    public static Reply ok(String contentType, byte[] body) {
        return new Reply(200, contentType, body, Map.of());
    }

    public Reply withHeaders(Map<String, String> extra) {
        return new Reply(status, contentType, body, extra);
    }

    /** The same answer without its body, for HEAD (not every container drops a HEAD response's body itself). */
    public Reply withoutBody() {
        return new Reply(status, contentType, NONE, headers);
    }

    public Response toResponse() {
        Response.ResponseBuilder b = Response.status(status);
        if (body.length > 0) {
            b.entity(body).type(contentType);
        }
        headers.forEach(b::header);
        return b.build();
    }
}
