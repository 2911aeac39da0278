package io.muster.chaos;

import io.muster.testing.Http;

/**
 * Registration bodies for the abuse rows, all derived from the Netflix client's shape the ITs use
 * ({@link Http#instanceJson}): with bulky metadata, at every per-instance limit, or with one field replaced.
 */
final class InstanceBodies {
    /** The metadata map of {@link Http#instanceJson}, the place the variants below put theirs. */
    private static final String PLAIN_METADATA = "\"metadata\":{\"management.port\":\"8080\"}";

    private InstanceBodies() {
    }

    static String plain(String app, String id) {
        return Http.instanceJson(app, id, "UP", System.currentTimeMillis());
    }

    /**
     * The longest app name whose VIP addresses ({@link Http#instanceJson}: the name in lower case, and that plus
     * "-secure") stay within maxFieldLength (256).
     */
    static final int LONGEST_APP = 256 - "-secure".length();

    /** An instance carrying {@code entries} metadata values of {@code chars} characters each. */
    static String withMetadata(String app, String id, int entries, int chars) {
        return plain(app, id).replace(PLAIN_METADATA, "\"metadata\":" + metadata(entries, chars));
    }

    /**
     * As large as eureka-server.properties lets one instance be: every named field and URL at its maximum length
     * (maxFieldLength 256, maxUrlLength 1024), metadata at 64 entries and just under 4,096 bytes.
     */
    static String maximum(String app, String id) {
        String host = pad("h" + id, 256);
        String url = "http://" + pad(host, 1024 - "http://".length());
        String secureUrl = "https://" + pad(host, 1024 - "https://".length());
        return plain(app, id)
                .replace("\"hostName\":\"host-" + id + "\"", "\"hostName\":\"" + host + "\",\"homePageUrl\":\"" + url
                        + "\",\"statusPageUrl\":\"" + url + "\",\"healthCheckUrl\":\"" + url
                        + "\",\"secureHealthCheckUrl\":\"" + secureUrl + "\",\"asgName\":\""
                        + pad("asg", 256) + "\",\"appGroupName\":\"" + pad("GROUP", 256) + "\"")
                .replace(PLAIN_METADATA, "\"metadata\":" + metadata(64, 59));
    }

    /** {@link #plain} with one JSON member's value replaced, e.g. ("\"durationInSecs\":90", "...":0). */
    static String with(String app, String id, String member, String replacement) {
        String body = plain(app, id);
        if (!body.contains(member)) {
            throw new IllegalArgumentException("no " + member + " in the body");
        }
        return body.replace(member, replacement);
    }

    static String pad(String prefix, int length) {
        StringBuilder b = new StringBuilder(prefix);
        while (b.length() < length) {
            b.append((char) ('a' + b.length() % 26));
        }
        return b.substring(0, length);
    }

    private static String metadata(int entries, int chars) {
        StringBuilder b = new StringBuilder("{");
        for (int e = 0; e < entries; e++) {
            b.append(e == 0 ? "" : ",").append("\"k").append(e < 10 ? "0" : "").append(e).append("\":\"")
                    .append(pad("v", chars)).append('"');
        }
        return b.append('}').toString();
    }
}
