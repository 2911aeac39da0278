package io.muster.resources;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormatException;
import io.muster.model.InstanceInfo;

import java.io.InputStream;

/**
 * One registration as the wire carries it, shared by the JAX-RS method and the servlet fast path. Problems are
 * thrown as {@link Problems} exceptions (400, 413, 415) before the registry is touched.
 */
final class Registration {
    private Registration() {
    }

    /** @param appName the application from the URL, upper-cased as Eureka does */
    static void apply(Api api, String appName, InputStream body, String contentType, String contentEncoding,
                      String replicationHeader) {
        var format = RequestBodies.format(contentType);
        byte[] bytes = RequestBodies.read(body, contentEncoding);
        InstanceInfo info;
        try {
            info = EurekaCodec.decodeInstance(format, bytes, api.clock().millis());
        } catch (WireFormatException e) {
            throw Problems.badRequest(e.getMessage());
        }
        validate(appName, info);
        api.registry().register(info, Origins.of(replicationHeader));
    }

    /** Eureka's checks, in its order and with its messages. */
    private static void validate(String appName, InstanceInfo info) {
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
}
