package io.muster.api;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;

/** {@code /peerreplication/batch}: writes replicated by peers, in Eureka's batch format, one answer per item. */
@Path("peerreplication/batch")
public final class PeerReplicationResource {
    private final Api api;

    public PeerReplicationResource(Api api) {
        this.api = api;
    }

    @POST
    public Response batch(InputStream body,
                          @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                          @HeaderParam(HttpHeaders.CONTENT_ENCODING) String contentEncoding) {
        return api.batches().apply(body, contentType, contentEncoding).toResponse();
    }
}
