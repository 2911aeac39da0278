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
        if (WireFormat.fromAccept(accept) == WireFormat.JSON) {
            return Response.ok(api.status().eurekaStatus(), MediaType.APPLICATION_JSON_TYPE).build();
        }
        return Response.ok(EurekaCodec.encodeSections("status", api.status().eurekaStatus()),
                MediaType.APPLICATION_XML_TYPE).build();
    }
}
