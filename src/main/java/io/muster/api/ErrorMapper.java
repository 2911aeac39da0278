package io.muster.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Failures on the JAX-RS road get the answers {@link Failures} gives on every road. Jersey's own client errors
 * (405, 406, 415 and the like) keep their status, with a one-line reason instead of an HTML page.
 */
public final class ErrorMapper implements ExceptionMapper<Throwable> {
    @Override
    public Response toResponse(Throwable t) {
        if (t instanceof WebApplicationException w) {
            Response r = w.getResponse();
            if (r.hasEntity() || r.getStatus() < 400 || r.getStatus() == 404 || r.getStatus() == 403) {
                return r;
            }
            return Reply.text(r.getStatus(), r.getStatusInfo().getReasonPhrase()).withHeaders(
                    r.getHeaderString("Allow") == null ? java.util.Map.of()
                            : java.util.Map.of("Allow", r.getHeaderString("Allow"))).toResponse();
        }
        return Failures.toReply(t).toResponse();
    }
}
