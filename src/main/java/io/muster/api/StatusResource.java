package io.muster.api;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /status}: Eureka's status document in JSON or XML. */
@Path("status")
public final class StatusResource {
    private final Api api;

    public StatusResource(Api api) {
        this.api = api;
    }

    @GET
    public Response get(@HeaderParam(HttpHeaders.ACCEPT) String accept) {
        WireFormat format = WireFormat.fromAccept(accept);
        var replicas = api.status().replicas();
        byte[] body = EurekaCodec.encodeStatus(format, api.status().eurekaStatus(), replicas.healthy(),
                replicas.self());
        return Response.ok(body, format == WireFormat.JSON ? MediaType.APPLICATION_JSON_TYPE
                : MediaType.APPLICATION_XML_TYPE).build();
    }
}
