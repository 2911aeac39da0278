package io.muster.resources;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.registry.RenewOutcome;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /apps/{app}/{id}}: read, heartbeat, cancel, status override and metadata of one instance. Heartbeat
 * answers carry no body except the 409 a peer gets: clients try to decode any body they receive.
 */
public final class InstanceResource {
    private final Api api;
    private final String app;
    private final String id;

    InstanceResource(Api api, String app, String id) {
        this.api = api;
        this.app = app;
        this.id = id;
    }

    @GET
    public Response get(@HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return api.registry().instance(app, id).map(i -> entity(i, accept)).orElseGet(Problems::notFound);
    }

    static Response entity(InstanceInfo instance, String accept) {
        WireFormat format = WireFormat.fromAccept(accept);
        return Response.ok(EurekaCodec.encode(format, instance), format.mediaType()).build();
    }

    /** Plain heartbeats are answered by {@link HeartbeatFastPath} before Jersey; this serves the rarer shapes. */
    @PUT
    public Response renew(@QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                          @QueryParam("overriddenstatus") String overriddenStatus,
                          @HeaderParam(Origins.REPLICATION_HEADER) String replication,
                          @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        RenewOutcome outcome;
        try {
            outcome = Heartbeat.apply(api.registry(), app, id, lastDirtyTimestamp, overriddenStatus, replication);
        } catch (NumberFormatException e) {
            throw Problems.badRequest(Heartbeat.BAD_TIMESTAMP);
        }
        return switch (outcome.result()) {
            case OK -> Response.ok().build();
            case NOT_FOUND -> Problems.notFound();
            case CONFLICT -> {
                WireFormat format = WireFormat.fromAccept(accept);
                yield Response.status(Response.Status.CONFLICT)
                        .entity(EurekaCodec.encode(format, outcome.newerInstance())).type(format.mediaType()).build();
            }
        };
    }

    @DELETE
    public Response cancel(@HeaderParam(Origins.REPLICATION_HEADER) String replication) {
        return api.registry().cancel(app, id, Origins.of(replication)) ? Response.ok().build() : Problems.notFound();
    }

    @PUT
    @Path("status")
    public Response statusUpdate(@QueryParam("value") String value,
                                 @QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                                 @HeaderParam(Origins.REPLICATION_HEADER) String replication) {
        if (value == null) {
            throw Problems.badRequest("Missing status value (?value=UP|DOWN|STARTING|OUT_OF_SERVICE|UNKNOWN)");
        }
        InstanceStatus status = status(value);
        boolean ok = api.registry().statusUpdate(app, id, status, timestamp(lastDirtyTimestamp),
                Origins.of(replication));
        return ok ? Response.ok().build() : Problems.notFound();
    }

    @DELETE
    @Path("status")
    public Response deleteStatusOverride(@QueryParam("value") String value,
                                         @QueryParam("lastDirtyTimestamp") String lastDirtyTimestamp,
                                         @HeaderParam(Origins.REPLICATION_HEADER) String replication) {
        InstanceStatus status = value == null ? InstanceStatus.UNKNOWN : status(value);
        boolean ok = api.registry().deleteStatusOverride(app, id, status, timestamp(lastDirtyTimestamp),
                Origins.of(replication));
        return ok ? Response.ok().build() : Problems.notFound();
    }

    @PUT
    @Path("metadata")
    public Response updateMetadata(@Context UriInfo uriInfo) {
        MultivaluedMap<String, String> params = uriInfo.getQueryParameters();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            if (!e.getValue().isEmpty()) {
                metadata.put(e.getKey(), e.getValue().get(0));
            }
        }
        return api.registry().updateMetadata(app, id, metadata).isPresent() ? Response.ok().build()
                : Problems.notFound();
    }

    // Departure from Eureka: an unknown status value is a 400 here (Eureka answers 500).
    private static InstanceStatus status(String value) {
        return InstanceStatus.parse(value)
                .orElseThrow(() -> Problems.badRequest("Unknown status value: " + abbreviate(value)
                        + " (expected UP, DOWN, STARTING, OUT_OF_SERVICE or UNKNOWN)"));
    }

    private static Long timestamp(String value) {
        try {
            return Heartbeat.timestamp(value);
        } catch (NumberFormatException e) {
            throw Problems.badRequest(Heartbeat.BAD_TIMESTAMP);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
