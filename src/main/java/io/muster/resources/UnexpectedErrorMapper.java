package io.muster.resources;

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

    @Override
    public Response toResponse(Throwable t) {
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
