package io.muster.resources;

import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Last line of defence: client errors pass through with their status and one-line message; anything unexpected
 * becomes a 500 whose body is an id that points at the single log entry with the stack trace.
 */
public final class UnexpectedErrorMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = Logger.getLogger(UnexpectedErrorMapper.class.getName());
    /** Seconds a client should wait after a registry-wide cap was hit: about one heartbeat interval. */
    static final String RETRY_AFTER_SECONDS = "30";

    /** The registry's refusals: 400 for what the write carries, 503 + Retry-After for a full registry; else null. */
    static Response registryRefusal(Throwable t) {
        if (t instanceof InvalidInstanceException) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                    .entity(t.getMessage() + "\n").build();
        }
        if (t instanceof RegistryFullException) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).header("Retry-After", RETRY_AFTER_SECONDS)
                    .type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8")).entity(t.getMessage() + "\n").build();
        }
        return null;
    }

    @Override
    public Response toResponse(Throwable t) {
        Response refusal = registryRefusal(t);
        if (refusal != null) {
            return refusal;
        }
        if (t instanceof WebApplicationException w) {
            Response r = w.getResponse();
            if (r.hasEntity() || r.getStatus() < 400 || r.getStatus() == 404 || r.getStatus() == 403) {
                return r;
            }
            String message = r.getStatusInfo().getReasonPhrase();
            return Response.status(r.getStatus()).type(MediaType.TEXT_PLAIN_TYPE).entity(message + "\n").build();
        }
        String id = UUID.randomUUID().toString();
        LOG.log(Level.SEVERE, "Unexpected error " + id, t);
        return Response.serverError().type(MediaType.TEXT_PLAIN_TYPE).entity("internal error " + id + "\n").build();
    }
}
