package io.muster.resources;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

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
}
