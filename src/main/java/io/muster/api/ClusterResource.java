package io.muster.api;

import io.muster.replication.PeerDigest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET api/cluster/digest}: what a peer's cluster check compares its registry with (Muster-only; peers
 * credentials, see the front door's access table). Stock Eureka servers have no such endpoint; Muster's checker
 * then falls back to their full registry.
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
        return body;
    }
}
