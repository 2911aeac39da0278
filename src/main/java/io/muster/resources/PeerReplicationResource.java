package io.muster.resources;

import io.muster.codec.ReplicationBatchCodec;
import io.muster.codec.WireFormat;
import io.muster.codec.WireFormatException;
import io.muster.model.ReplicationItem;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;
import java.util.List;

/** {@code /peerreplication/batch}: writes replicated by peers, in Eureka's batch format, one answer per item. */
public final class PeerReplicationResource {
    /** 250 registrations take well under 1 MiB; the headroom is for large metadata. */
    private static final int MAX_BATCH_BYTES = 16 << 20;

    private final Api api;

    PeerReplicationResource(Api api) {
        this.api = api;
    }

    @POST
    @Path("batch")
    public Response batch(InputStream body,
                          @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                          @HeaderParam(HttpHeaders.CONTENT_ENCODING) String contentEncoding) {
        if (RequestBodies.format(contentType) != WireFormat.JSON) {
            throw Problems.of(Response.Status.UNSUPPORTED_MEDIA_TYPE, "replication batches are JSON");
        }
        byte[] bytes = RequestBodies.read(body, contentEncoding, MAX_BATCH_BYTES);
        List<ReplicationItem> items;
        try {
            items = ReplicationBatchCodec.decodeRequest(bytes, api.clock().millis());
        } catch (WireFormatException e) {
            throw Problems.badRequest(e.getMessage());
        }
        return Response.ok(ReplicationBatchCodec.encodeResponse(api.inbound().apply(items)),
                MediaType.APPLICATION_JSON_TYPE).build();
    }
}
