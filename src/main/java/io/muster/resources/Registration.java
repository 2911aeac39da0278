package io.muster.resources;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormatException;
import io.muster.model.InstanceInfo;

import java.io.InputStream;

/**
 * One registration as the wire carries it, shared by the JAX-RS method and the servlet fast path. Problems of the
 * request are thrown as {@link Problems} exceptions (400, 413, 415) before the registry is touched; the registry's
 * own refusals propagate (mapped by {@link UnexpectedErrorMapper}).
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
        checkAppMatchesUrl(appName, info);
        api.registry().register(info, Origins.of(replicationHeader));
    }

    /**
     * The one check that needs the URL; everything else (required fields, values clients can decode, limits) is
     * the registry's, which throws InvalidInstanceException or RegistryFullException before anything changes.
     */
    private static void checkAppMatchesUrl(String appName, InstanceInfo info) {
        if (!isBlank(info.app()) && !appName.equals(info.app())) {
            throw Problems.badRequest("Mismatched appName, expecting " + appName + " but was " + info.app());
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
