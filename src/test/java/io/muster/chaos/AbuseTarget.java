package io.muster.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.muster.testing.Http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/** The node a row abuses, the anonymous client it is abused from, and the legitimate instance that keeps renewing. */
final class AbuseTarget {
    private static final ObjectMapper JSON = new ObjectMapper();

    final TomcatNode node;
    final Http http;
    final HeartbeatProbe probe;

    private HeartbeatProbe.Window abuse;

    /** Ends the part of a row whose heartbeat latencies count; what follows (settling) counts only failures. */
    void endAbuse() {
        abuse = probe.drain();
    }

    /** The row's heartbeats: the latencies until {@link #endAbuse} (or now), every beat's answer until now. */
    HeartbeatProbe.Window rowBeats() {
        HeartbeatProbe.Window rest = probe.drain();
        HeartbeatProbe.Window w = abuse == null ? rest : abuse.plusBeatsOf(rest);
        abuse = null;
        return w;
    }

    AbuseTarget(TomcatNode node, Http http, HeartbeatProbe probe) {
        this.node = node;
        this.http = http;
        this.probe = probe;
    }

    String base() {
        return node.url();
    }

    /** The path of a URL under the context, for raw requests. */
    String path(String relative) {
        return "/eureka/" + relative;
    }

    HttpRequest.Builder request(String relative) {
        return HttpRequest.newBuilder(URI.create(base() + relative)).timeout(Duration.ofSeconds(20));
    }

    /** GET /api/status as a tree ({} when the node does not answer). */
    JsonNode status() {
        try {
            return JSON.readTree(http.get("api/status", "Accept", "application/json").body());
        } catch (IOException | RuntimeException e) {
            return JSON.createObjectNode();
        }
    }

    /** GET /health/live answered 200 within 5 s. */
    boolean live() {
        return node.status("health/live") == 200;
    }

    int logCount(String text) {
        return node.logLines(text).size();
    }
}
