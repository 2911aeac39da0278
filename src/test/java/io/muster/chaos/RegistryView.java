package io.muster.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** One node's registry as a client reads it ({@code GET /apps/} or {@code /apps/delta}, JSON). */
record RegistryView(int httpStatus, String hash, Map<String, String> statusById, java.util.Set<String> deleted,
                    int duplicates, int instances) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static RegistryView fetch(HttpClient http, String nodeUrl, String path) {
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(nodeUrl + path))
                    .header("Accept", "application/json").timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                return new RegistryView(r.statusCode(), null, Map.of(), java.util.Set.of(), 0, 0);
            }
            return parse(JSON.readTree(r.body()));
        } catch (IOException e) {
            return new RegistryView(-1, null, Map.of(), java.util.Set.of(), 0, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RegistryView(-1, null, Map.of(), java.util.Set.of(), 0, 0);
        }
    }

    static RegistryView parse(JsonNode root) {
        JsonNode apps = root.path("applications");
        Map<String, String> byId = new HashMap<>();
        java.util.Set<String> deleted = new java.util.HashSet<>();
        int duplicates = 0;
        int count = 0;
        for (JsonNode app : list(apps.path("application"))) {
            for (JsonNode i : list(app.path("instance"))) {
                count++;
                String id = i.path("instanceId").asText();
                if ("DELETED".equals(i.path("actionType").asText())) {
                    deleted.add(id);
                }
                if (byId.put(id, i.path("status").asText()) != null) {
                    duplicates++;
                }
            }
        }
        return new RegistryView(200, apps.path("apps__hashcode").asText(), byId, deleted, duplicates, count);
    }

    static Iterable<JsonNode> list(JsonNode n) {
        if (n.isArray()) {
            return n;
        }
        return n.isMissingNode() || n.isNull() ? java.util.List.of() : java.util.List.of(n);
    }

    /** Eureka's apps hash of a set of statuses: "DOWN_1_UP_3_" (statuses in name order). */
    static String hashOf(Iterable<String> statuses) {
        Map<String, Integer> counts = new TreeMap<>();
        statuses.forEach(s -> counts.merge(s, 1, Integer::sum));
        StringBuilder b = new StringBuilder();
        counts.forEach((s, n) -> b.append(s).append('_').append(n).append('_'));
        return b.toString();
    }
}
