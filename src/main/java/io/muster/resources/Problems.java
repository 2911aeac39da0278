package io.muster.resources;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Client errors as a status and a one-line plain-text message, never a stack trace. */
final class Problems {
    private Problems() {
    }

    static WebApplicationException of(Response.Status status, String message) {
        return new WebApplicationException(message, Response.status(status)
                .type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8")).entity(message + "\n").build());
    }

    static WebApplicationException badRequest(String message) {
        return of(Response.Status.BAD_REQUEST, message);
    }

    /** An empty 404: Eureka clients try to decode any body on a heartbeat answer, so there must be none. */
    static Response notFound() {
        return Response.status(Response.Status.NOT_FOUND).build();
    }

    static Response forbidden() {
        return Response.status(Response.Status.FORBIDDEN).build();
    }

    /** The same answer written by a servlet fast path, which has no JAX-RS response to return. */
    static void write(HttpServletResponse rsp, WebApplicationException problem) throws IOException {
        Response r = problem.getResponse();
        byte[] body = r.getEntity() instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : new byte[0];
        rsp.setStatus(r.getStatus());
        if (body.length > 0) {
            rsp.setContentType("text/plain;charset=UTF-8");
        }
        rsp.setContentLength(body.length);
        rsp.getOutputStream().write(body);
    }
}
