package io.muster.api;

import io.muster.replication.PeerDigest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET api/cluster/digest}: what a peer's cluster check compares its registry with, and
 * {@code GET api/cluster/registry}: what a peer's start-up sync copies (Muster-only; peers' credentials, see the front
 * door's access table). Stock Eureka servers have neither; Muster's checker then falls back to their full registry,
 * and its sync to their {@code apps/}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public final class ClusterResource {
    private final Api api;

    public ClusterResource(Api api) {
        this.api = api;
    }

    @GET
    @Path("api/cluster/digest")
    public Map<String, Object> digest() {
        PeerDigest d = api.digest().get();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apps", d.apps());
        body.put("cancelled", d.cancelled());
        body.put("readsHeld", d.readsHeld());
        return body;
    }

    /** {@code GET api/cluster/registry}: the full registry as JSON, whether or not reads are held. */
    @GET
    @Path("api/cluster/registry")
    public Response registry(@HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding) {
        return api.reads().fullForPeer(acceptEncoding).toResponse();
    }
}
