package io.muster.resources;

import io.muster.cache.CacheKey;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.codec.WireFormatException;
import io.muster.model.InstanceInfo;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;
import java.util.Locale;

/** {@code /apps/{app}}: one app (cached) and registration. App names are case-insensitive (upper-cased). */
public final class ApplicationResource {
    private final Api api;
    private final String appName;

    ApplicationResource(Api api, String appName) {
        this.api = api;
        this.appName = appName.toUpperCase(Locale.ROOT);
    }

    @GET
    public Response get(@HeaderParam(HttpHeaders.ACCEPT) String accept,
                        @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding,
                        @HeaderParam("X-Eureka-Accept") String eurekaAccept) {
        if (!api.gate().allowsReads()) {
            return Problems.forbidden();
        }
        CacheKey key = CachedResponses.key(CacheKey.Entity.APP, appName, accept, eurekaAccept);
        return CachedResponses.of(api.cache(), api.cache().get(key), key, acceptEncoding);
    }

    /** Registers an instance: 204 as Eureka answers (Java clients count nothing else as success). */
    @POST
    public Response register(InputStream body,
                             @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                             @HeaderParam(HttpHeaders.CONTENT_ENCODING) String contentEncoding,
                             @HeaderParam(Origins.REPLICATION_HEADER) String replication) {
        WireFormat format = RequestBodies.format(contentType);
        byte[] bytes = RequestBodies.read(body, contentEncoding);
        InstanceInfo info;
        try {
            info = EurekaCodec.decodeInstance(format, bytes, api.clock().millis());
        } catch (WireFormatException e) {
            throw Problems.badRequest(e.getMessage());
        }
        validate(info);
        api.registry().register(info, Origins.of(replication));
        return Response.noContent().build();
    }

    /** Eureka's checks, in its order and with its messages. */
    private void validate(InstanceInfo info) {
        if (isBlank(info.id())) {
            throw Problems.badRequest("Missing instanceId");
        }
        if (isBlank(info.hostName())) {
            throw Problems.badRequest("Missing hostname");
        }
        if (isBlank(info.ipAddr())) {
            throw Problems.badRequest("Missing ip address");
        }
        if (isBlank(info.app())) {
            throw Problems.badRequest("Missing appName");
        }
        if (!appName.equals(info.app())) {
            throw Problems.badRequest("Mismatched appName, expecting " + appName + " but was " + info.app());
        }
        if (info.dataCenterInfo() == null) {
            throw Problems.badRequest("Missing dataCenterInfo");
        }
        if (isBlank(info.dataCenterInfo().name())) {
            throw Problems.badRequest("Missing dataCenterInfo Name");
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    @Path("{id}")
    public InstanceResource instance(@PathParam("id") String id) {
        return new InstanceResource(api, appName, id);
    }
}
