package io.muster.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

/** A tiny HTTP client for tests that talk to a deployed server. */
public final class Http {
    private final HttpClient client;
    private final String base;
    private final String authorization;

    public Http(String base) {
        this(base, null, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    private Http(String base, String authorization, HttpClient client) {
        this.base = base.endsWith("/") ? base : base + "/";
        this.authorization = authorization;
        this.client = client;
    }

    public String baseUrl() {
        return base;
    }

    /** The same server, with HTTP Basic credentials on every request. */
    public Http as(String user, String password) {
        return new Http(base, "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)), client);
    }

    public record Reply(int status, String body, java.net.http.HttpHeaders headers, byte[] raw) {
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** The body, inflated when it came gzipped. */
        public String text() {
            if (!"gzip".equals(header("Content-Encoding"))) {
                return body;
            }
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public Reply send(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    public Reply getJson(String path) {
        return get(path, "Accept", "application/json");
    }

    public Reply put(String path) {
        return send("PUT", path, null);
    }

    public Reply delete(String path) {
        return send("DELETE", path, null);
    }

    public Reply postJson(String path, String body) {
        return send("POST", path, body, "Content-Type", "application/json");
    }

    /** A registration body as a Netflix client sends it. */
    public static String instanceJson(String app, String id, String status, long lastDirty) {
        return """
                {"instance":{"instanceId":"%2$s","hostName":"host-%2$s","app":"%1$s","ipAddr":"127.0.0.1",
                "status":"%3$s","overriddenStatus":"UNKNOWN","port":{"$":8080,"@enabled":"true"},
                "securePort":{"$":443,"@enabled":"false"},"countryId":1,
                "dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"},
                "leaseInfo":{"renewalIntervalInSecs":30,"durationInSecs":90},
                "metadata":{"management.port":"8080"},"vipAddress":"%4$s","secureVipAddress":"%4$s-secure",
                "isCoordinatingDiscoveryServer":"false","lastUpdatedTimestamp":"%5$d","lastDirtyTimestamp":"%5$d"}}"""
                .formatted(app, id, status, app.toLowerCase(), lastDirty);
    }
}
