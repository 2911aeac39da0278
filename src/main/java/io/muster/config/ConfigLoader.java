package io.muster.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns layers of raw key/value pairs (lowest priority first) into a validated {@link ServerConfig}. Keys match
 * Eureka's spellings with either prefix ({@code eureka.server.X} or {@code eureka.X}), case-insensitively and
 * ignoring dashes, so {@code eureka.server.enable-self-preservation} and the environment variable
 * {@code EUREKA_SERVER_ENABLESELFPRESERVATION} both work. Every bad value is reported in one exception.
 */
public final class ConfigLoader {
    private static final List<String> PREFIXES = List.of("eureka.server.", "eureka.");

    private final Map<String, String> values = new HashMap<>();   // normalized setting name -> raw value
    private final Map<String, String> origins = new HashMap<>();  // normalized setting name -> key as written
    private final List<String> problems = new ArrayList<>();

    private ConfigLoader() {
    }

    /** @param layers raw settings, lowest priority first (defaults are built in) */
    public static ServerConfig load(List<Map<String, String>> layers) {
        ConfigLoader loader = new ConfigLoader();
        for (Map<String, String> layer : layers) {
            layer.forEach(loader::put);
        }
        return loader.build();
    }

    /** Normalizes an environment variable name ({@code EUREKA_SERVER_X}) to a property key. */
    public static String keyOfEnvironmentVariable(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private void put(String key, String value) {
        if (key == null || value == null) {
            return;
        }
        String k = key.toLowerCase(Locale.ROOT).replace("-", "");
        for (String prefix : PREFIXES) {
            if (k.startsWith(prefix)) {
                String name = k.substring(prefix.length());
                values.put(name, value.trim());
                origins.put(name, key);
                return;
            }
        }
    }

    private ServerConfig build() {
        ServerConfig.EvictionConfig eviction = new ServerConfig.EvictionConfig(
                millis(60_000, 1, "evictionIntervalTimerInMs"));
        ServerConfig.SelfPreservationConfig selfPreservation = new ServerConfig.SelfPreservationConfig(
                bool(true, "enableSelfPreservation"),
                number(0.85, 0.0, 1.0, "renewalPercentThreshold"),
                Duration.ofSeconds(integer(30, 1, "expectedClientRenewalIntervalSeconds")),
                millis(900_000, 1, "renewalThresholdUpdateIntervalMs"));
        ServerConfig.ResponseCacheConfig cache = new ServerConfig.ResponseCacheConfig(
                bool(true, "useReadOnlyResponseCache", "shouldUseReadOnlyResponseCache"),
                millis(500, 10, "responseCacheUpdateIntervalMs"),
                Duration.ofSeconds(integer(180, 1, "responseCacheAutoExpirationInSeconds")),
                integer(1000, 1, "initialCapacityOfResponseCache"));
        ServerConfig.DeltaConfig delta = new ServerConfig.DeltaConfig(
                millis(180_000, 1, "retentionTimeInMSInDeltaQueue"),
                millis(30_000, 1, "deltaRetentionTimerIntervalInMs"),
                bool(false, "disableDelta"));
        ServerConfig.StartupConfig startup = new ServerConfig.StartupConfig(
                millis(300_000, 0, "waitTimeInMsWhenSyncEmpty"),
                integer(5, 0, "numberRegistrySyncRetries", "registrySyncRetries"),
                millis(30_000, 0, "registrySyncRetryWaitMs"));
        ServerConfig.PeerConfig peers = new ServerConfig.PeerConfig(serviceUrls(),
                blankToNull(values.get("server.peerdnsurl"), values.get("peerdnsurl")),
                blankToNull(values.get("myurl")),
                millis(600_000, 1, "peerEurekaNodesUpdateIntervalMs"),
                millis(1_000, 1, "peerNodeConnectTimeoutMs"),
                millis(5_000, 1, "peerNodeReadTimeoutMs"),
                integer(250, 1, "peerReplicationBatchSize"),
                millis(25, 0, "peerReplicationBatchDelayMs"),
                integer(10_000, 1, "maxElementsInPeerReplicationPool"),
                millis(30_000, 1, "maxTimeForReplication"));
        peers.serviceUrls().forEach(u -> checkUrl("eureka.client.serviceUrl", u));
        if (peers.dnsUrl() != null) {
            checkUrl("eureka.server.peerDnsUrl", peers.dnsUrl());
        }
        if (peers.myUrl() != null) {
            checkUrl("eureka.server.myUrl", peers.myUrl());
        }
        ServerConfig.SecurityConfig security = new ServerConfig.SecurityConfig(bool(false, "clientAuthRequired"));
        ServerConfig.LimitsConfig limits = limits();
        ServerConfig.MetricsConfig metrics = new ServerConfig.MetricsConfig(
                integer(ServerConfig.MetricsConfig.DEFAULT.maxAppLabels(), 0, "metricsMaxAppLabels"));
        String environment = values.getOrDefault("environment", "test");
        String dataCenter = values.getOrDefault("datacenter", "default");
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(problems);
        }
        return new ServerConfig(eviction, selfPreservation, cache, delta, startup, peers, security, limits, metrics,
                environment, dataCenter);
    }

    private ServerConfig.LimitsConfig limits() {
        ServerConfig.LimitsConfig d = ServerConfig.LimitsConfig.DEFAULT;
        int minLease = integer(d.minLeaseDurationSeconds(), 1, "minLeaseDurationSeconds");
        int maxLease = integer(d.maxLeaseDurationSeconds(), 1, "maxLeaseDurationSeconds");
        if (maxLease < minLease) {
            problems.add("eureka.server.maxLeaseDurationSeconds=" + maxLease
                    + " is below eureka.server.minLeaseDurationSeconds=" + minLease);
        }
        return new ServerConfig.LimitsConfig(
                integer(d.maxFieldLength(), 1, "maxFieldLength"),
                integer(d.maxUrlLength(), 1, "maxUrlLength"),
                integer(d.maxMetadataEntries(), 0, "maxMetadataEntries"),
                integer(d.maxMetadataBytes(), 0, "maxMetadataBytes"),
                minLease, maxLease,
                integer(d.maxInstances(), 1, "maxInstances"),
                integer(d.maxInstancesPerApp(), 1, "maxInstancesPerApp"));
    }

    /**
     * Every zone's service URLs, the client's own zone first as Eureka does: Spring's
     * {@code eureka.client.serviceUrl.<zone>} and Netflix's {@code eureka.serviceUrl.<zone>}.
     */
    private List<String> serviceUrls() {
        List<String> urls = new ArrayList<>();
        for (String first : List.of("client.serviceurl.defaultzone", "serviceurl.default")) {
            urls.addAll(list(values.getOrDefault(first, "")));
        }
        values.keySet().stream().sorted()
                .filter(k -> (k.startsWith("client.serviceurl.") || k.startsWith("serviceurl."))
                        && !k.equals("client.serviceurl.defaultzone") && !k.equals("serviceurl.default"))
                .forEach(k -> urls.addAll(list(values.get(k))));
        return urls.stream().distinct().toList();
    }

    private void checkUrl(String key, String url) {
        try {
            java.net.URI uri = java.net.URI.create(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            // credentials may be in the URL: name the key, not the value
            problems.add(key + " has a value that is not an http(s) URL with a host");
        }
    }

    private static String blankToNull(String... candidates) {
        for (String c : candidates) {
            if (c != null && !c.isBlank()) {
                return c.trim();
            }
        }
        return null;
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private <T> T get(T fallback, Function<String, T> parse, String[] names, String expected) {
        for (String name : names) {
            String key = name.toLowerCase(Locale.ROOT);
            String raw = values.get(key);
            if (raw != null) {
                try {
                    return parse.apply(raw);
                } catch (RuntimeException e) {
                    problems.add(origins.get(key) + "=" + raw + " (expected " + expected + ")");
                    return fallback;
                }
            }
        }
        return fallback;
    }

    private boolean bool(boolean fallback, String... names) {
        return get(fallback, raw -> switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException();
        }, names, "true or false");
    }

    private int integer(int fallback, int min, String... names) {
        return get(fallback, raw -> {
            int v = Integer.parseInt(raw);
            if (v < min) {
                throw new IllegalArgumentException();
            }
            return v;
        }, names, "an integer >= " + min);
    }

    private Duration millis(long fallback, long min, String... names) {
        return Duration.ofMillis(get(fallback, raw -> {
            long v = Long.parseLong(raw);
            if (v < min) {
                throw new IllegalArgumentException();
            }
            return v;
        }, names, "milliseconds >= " + min));
    }

    private double number(double fallback, double min, double max, String... names) {
        return get(fallback, raw -> {
            double v = Double.parseDouble(raw);
            if (!(v >= min && v <= max)) {
                throw new IllegalArgumentException();
            }
            return v;
        }, names, "a number from " + min + " to " + max);
    }
}
