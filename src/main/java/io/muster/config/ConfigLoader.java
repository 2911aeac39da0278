package io.muster.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns layers of raw key/value pairs (lowest priority first) into a validated {@link ServerConfig}. Keys match
 * Eureka's spellings with either prefix ({@code eureka.server.X} or {@code eureka.X}), case-insensitively and
 * ignoring dashes, so {@code eureka.server.enable-self-preservation} and the environment variable
 * {@code EUREKA_SERVER_ENABLESELFPRESERVATION} both work. Every bad value is reported in one exception.
 *
 * <p>Every {@code eureka.*} key is accounted for: used, known to have no effect here (with the reason), or unknown
 * (with the closest known key). Unknown keys are reported, and fail the start when {@code muster.config.strict}
 * is true.
 *
 * <p>Over 400 lines because it is the one place every setting's name, default and range is spelled (the settings
 * view and the unknown-key report are derived from what it reads); most of it is one line per setting.
 */
public final class ConfigLoader {
    private static final List<String> PREFIXES = List.of("eureka.server.", "eureka.");

    private final Map<String, String> values = new HashMap<>();   // normalized setting name -> raw value
    private final Map<String, String> origins = new HashMap<>();  // normalized setting name -> key as written
    private final Map<String, String> sourceOf = new HashMap<>(); // normalized setting name -> its layer's name
    /** Keys whose value a later layer replaced: said at start and on the settings view, never silently. */
    private final List<ServerConfig.KeyNote> shadowed = new ArrayList<>();
    /** Where each setting in effect came from, by the same names as {@link #effective}; absent: its default. */
    private final Map<String, String> effectiveSource = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    /** Display spellings of every setting this loader looked up: the candidates for "did you mean". */
    private final Set<String> consulted = new LinkedHashSet<>();
    /** Typed settings in effect, by their first (documented) name, in the order read. */
    private final Map<String, Object> effective = new LinkedHashMap<>();
    private String springApplicationName;
    private String strict;

    private ConfigLoader() {
    }

    /** @param layers raw settings, lowest priority first (defaults are built in), each named "settings" */
    public static ServerConfig load(List<Map<String, String>> layers) {
        return fromLayers(layers.stream().map(m -> new ConfigLayer("settings", m)).toList());
    }

    /** @param layers the named places settings come from, lowest priority first (defaults are built in) */
    public static ServerConfig fromLayers(List<ConfigLayer> layers) {
        ConfigLoader loader = new ConfigLoader();
        for (ConfigLayer layer : layers) {
            layer.values().forEach((k, v) -> loader.put(layer.source(), k, v));
        }
        return loader.build();
    }

    /** Normalizes an environment variable name ({@code EUREKA_SERVER_X}) to a property key. */
    public static String keyOfEnvironmentVariable(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private void put(String source, String key, String value) {
        if (key == null || value == null) {
            return;
        }
        String k = key.toLowerCase(Locale.ROOT).replace("-", "");
        if (k.equals("spring.application.name")) {
            springApplicationName = value.trim();
            return;
        }
        if (k.equals("muster.config.strict")) {
            strict = value.trim();
            return;
        }
        for (String prefix : PREFIXES) {
            if (k.startsWith(prefix)) {
                String name = k.substring(prefix.length());
                String before = values.put(name, value.trim());
                String beforeSource = sourceOf.put(name, source);
                if (before != null && !before.equals(value.trim()) && !source.equals(beforeSource)) {
                    // no values here: a shadowed key may be a URL with credentials
                    shadowed.add(new ServerConfig.KeyNote(key, "set in " + source + ", which overrides what "
                            + beforeSource + " gives for " + origins.get(name)));
                }
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
        // Departure from Eureka: the retry wait is 2 s, not 30 s. Retries run in the background and cost one
        // request per peer, and a cluster whose nodes start together must open within seconds.
        ServerConfig.StartupConfig startup = new ServerConfig.StartupConfig(
                millis(300_000, 0, "waitTimeInMsWhenSyncEmpty"),
                millis(2_000, 100, "registrySyncRetryWaitMs"),
                integer(0, 0, "instance.registry.expectedNumberOfClientsSendingRenews",
                        "instance.registry.expectedNumberOfRenewsPerMin", "expectedNumberOfRenewsPerMin"),
                integer(0, 0, "instance.registry.defaultOpenForTrafficCount", "defaultOpenForTrafficCount"));
        ServerConfig.PeerConfig peers = new ServerConfig.PeerConfig(serviceUrls(),
                blankToNull(raw("peerDnsUrl")),
                blankToNull(raw("myUrl")),
                millis(600_000, 1, "peerEurekaNodesUpdateIntervalMs"),
                millis(1_000, 1, "peerNodeConnectTimeoutMs"),
                millis(5_000, 1, "peerNodeReadTimeoutMs"),
                integer(250, 1, "peerReplicationBatchSize"),
                millis(25, 0, "peerReplicationBatchDelayMs"),
                integer(10_000, 1, "maxElementsInPeerReplicationPool"),
                millis(30_000, 1, "maxTimeForReplication"),
                integer(-1, -1, "minAvailableInstancesForPeerReplication"),
                bool(true, "syncWhenTimestampDiffers"));
        peers.serviceUrls().forEach(u -> checkUrl("eureka.client.serviceUrl", u));
        if (peers.dnsUrl() != null) {
            checkUrl("eureka.server.peerDnsUrl", peers.dnsUrl());
        }
        if (peers.myUrl() != null) {
            checkUrl("eureka.server.myUrl", peers.myUrl());
        }
        ServerConfig.SecurityConfig security = new ServerConfig.SecurityConfig(bool(false, "clientAuthRequired"),
                bool(false, "appOwnership"), bool(true, "fastPaths"),
                integer(ServerConfig.SecurityConfig.DEFAULT_SENDFILE_MIN_BYTES, 0, "sendfileMinBytes"),
                new ServerConfig.LargeWritesConfig(integer(32 * 1024, 0, "largeWrites.minBytes"),
                        integer(1_000, 1, "largeWrites.maxOpen"), integer(32, 1, "largeWrites.maxOpenPerClient"),
                        integer(10, 1, "largeWrites.maxHeapPercent")));
        ServerConfig.LimitsConfig limits = limits();
        ServerConfig.MetricsConfig metrics = new ServerConfig.MetricsConfig(
                integer(ServerConfig.MetricsConfig.DEFAULT.maxAppLabels(), 0, "metricsMaxAppLabels"));
        String environment = orDefault(raw("environment"), "test");
        String dataCenter = orDefault(raw("datacenter"), "default");
        ServerConfig.InstanceConfig instance = instance();
        ServerConfig.DashboardConfig dashboard = new ServerConfig.DashboardConfig(bool(true, "dashboard.enabled"),
                dashboardPath());
        ServerConfig.SnapshotConfig snapshot = new ServerConfig.SnapshotConfig(bool(true, "snapshot.enabled"),
                blankToNull(raw("snapshot.directory")), millis(30_000, 1_000, "snapshot.intervalMs"));
        ServerConfig.ChangeStreamConfig changes = new ServerConfig.ChangeStreamConfig(
                integer(2_000, 0, "changes.maxOpen"), integer(100, 1, "changes.maxOpenPerClient"),
                millis(15_000, 100, "changes.heartbeatMs"),
                integer(10_000, 1, "changes.window"), integer(1_000, 1, "changes.queue"));
        ServerConfig.RemoteRegionConfig remoteRegions = remoteRegions();
        ServerConfig.ClusterCheckConfig clusterCheck = new ServerConfig.ClusterCheckConfig(
                bool(true, "clusterCheck.enabled"), millis(30_000, 100, "clusterCheck.intervalMs"),
                millis(60_000, 0, "clusterCheck.repairGraceMs"));
        ServerConfig.AuditConfig audit = new ServerConfig.AuditConfig(integer(10_000, 0, "audit.maxEntries"));
        ServerConfig.KeyReport keys = keyReport();
        if ("true".equalsIgnoreCase(strict)) {
            keys.unknown().forEach(n -> problems.add("unknown setting " + n.key() + " (" + n.note()
                    + "; muster.config.strict=true makes unknown settings fatal)"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(problems);
        }
        return new ServerConfig(eviction, selfPreservation, cache, delta, startup, peers, security, limits, metrics,
                environment, dataCenter, instance, dashboard, snapshot, changes, remoteRegions, clusterCheck, audit,
                keys);
    }

    private ServerConfig.LimitsConfig limits() {
        ServerConfig.LimitsConfig d = ServerConfig.LimitsConfig.DEFAULT;
        int minLease = integer(d.minLeaseDurationSeconds(), 1, "minLeaseDurationSeconds");
        int maxLease = integer(d.maxLeaseDurationSeconds(), 1, "maxLeaseDurationSeconds");
        int heapPercent = integer(ServerConfig.LimitsConfig.DEFAULT_REGISTRY_HEAP_PERCENT, 1,
                "maxRegistryHeapPercent");
        if (heapPercent > 90) {
            problems.add("eureka.server.maxRegistryHeapPercent=" + heapPercent
                    + " leaves too little heap for requests and payloads (at most 90)");
        }
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
                integer(d.maxInstancesPerApp(), 1, "maxInstancesPerApp"),
                ServerConfig.LimitsConfig.heapShare(heapPercent),
                percent(ServerConfig.LimitsConfig.DEFAULT_APP_HEAP_PERCENT, "maxAppHeapPercent"),
                percent(ServerConfig.LimitsConfig.DEFAULT_CLIENT_HEAP_PERCENT, "maxClientHeapPercent"));
    }

    private int percent(int fallback, String key) {
        int p = integer(fallback, 1, key);
        if (p > 100) {
            problems.add("eureka.server." + key + "=" + p + " is a share of maxRegistryHeapPercent (at most 100)");
        }
        return p;
    }

    /**
     * How this node registers itself with its peers. The app name follows Spring Cloud: {@code
     * eureka.instance.appname}, else {@code spring.application.name}, else Spring's default "UNKNOWN", so a node
     * configured like the Spring servers of its cluster joins their application and they count it as a replica.
     */
    private ServerConfig.InstanceConfig instance() {
        String appNameKey = "instance.appname";
        String app = blankToNull(raw(appNameKey), springApplicationName);
        app = app == null ? "UNKNOWN" : app.toUpperCase(Locale.ROOT);
        effective.put(appNameKey, app);
        noteSource(appNameKey);
        return new ServerConfig.InstanceConfig(app,
                blankToNull(raw("instance.instanceId")), blankToNull(raw("instance.hostname")),
                blankToNull(raw("instance.ipAddress")), bool(false, "instance.preferIpAddress"),
                bool(true, "client.registerWithEureka"));
    }

    /**
     * Remote regions under both spellings: Netflix's ({@code eureka.remoteRegionUrlsWithName=us-west;http://…,eu;…},
     * {@code eureka.remoteRegion.<region>.appWhiteList}, {@code eureka.remoteRegion.global.appWhiteList}) and
     * Spring's maps ({@code eureka.server.remoteRegionUrlsWithName.<region>=http://…},
     * {@code eureka.server.remoteRegionAppWhitelist.<region>}). {@code region=url} pairs are accepted beside
     * Netflix's {@code region;url}. URLs may carry credentials, so they are not shown among the settings in effect.
     */
    private ServerConfig.RemoteRegionConfig remoteRegions() {
        Map<String, String> urls = new LinkedHashMap<>();
        String urlsKey = "remoteRegionUrlsWithName";
        for (String pair : list(orDefault(raw(urlsKey), ""))) {
            int split = firstOf(pair, ';', '=');
            if (split <= 0 || split == pair.length() - 1) {
                problems.add(origins.get(urlsKey.toLowerCase(Locale.ROOT))
                        + " has an entry that is not region;url (or region=url)");
                continue;
            }
            urls.put(pair.substring(0, split).trim().toLowerCase(Locale.ROOT), pair.substring(split + 1).trim());
        }
        Map<String, java.util.Set<String>> whitelists = new HashMap<>();
        String global = raw("remoteRegionAppWhitelist");   // a plain list: the global whitelist
        if (global != null) {
            whitelists.put(ServerConfig.RemoteRegionConfig.GLOBAL, appNames(global));
            effectiveSource.put("remoteRegionAppWhitelist." + ServerConfig.RemoteRegionConfig.GLOBAL,
                    sourceOf.get("remoteregionappwhitelist"));
        }
        for (String name : values.keySet().stream().sorted().toList()) {
            String value = values.get(name);
            if (name.startsWith("remoteregionurlswithname.")) {
                consulted.add(name);
                urls.put(name.substring("remoteregionurlswithname.".length()), value.trim());
            } else if (name.startsWith("remoteregionappwhitelist.")) {
                consulted.add(name);
                String region = name.substring("remoteregionappwhitelist.".length());
                whitelists.put(region, appNames(value));
                effectiveSource.put("remoteRegionAppWhitelist." + region, sourceOf.get(name));
            } else if (name.matches("remoteregion\\.[^.]+\\.appwhitelist")) {
                consulted.add(name);
                String region = name.split("\\.")[1];
                whitelists.put(region, appNames(value));
                effectiveSource.put("remoteRegionAppWhitelist." + region, sourceOf.get(name));
            }
        }
        urls.forEach((region, url) -> checkUrl("remote region " + region + " URL", url));
        whitelists.forEach((region, apps) -> effective.put("remoteRegionAppWhitelist." + region,
                String.join(",", new java.util.TreeSet<>(apps))));
        return new ServerConfig.RemoteRegionConfig(urls,
                Duration.ofSeconds(integer(30, 1, "remoteRegionRegistryFetchInterval",
                        "remoteRegion.registryFetchIntervalInSeconds")),
                millis(2_000, 1, "remoteRegionConnectTimeoutMs"),
                millis(5_000, 1, "remoteRegionReadTimeoutMs"),
                whitelists,
                bool(false, "disableDeltaForRemoteRegions"),
                bool(false, "disableTransparentFallbackToOtherRegion", "remoteRegion.disable.transparent.fallback"));
    }

    private static int firstOf(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    private static java.util.Set<String> appNames(String csv) {
        java.util.Set<String> names = new java.util.HashSet<>();
        list(csv).forEach(n -> names.add(n.toUpperCase(Locale.ROOT)));
        return names;
    }

    private String dashboardPath() {
        String key = "dashboard.path";
        String path = orDefault(raw(key), "/");
        if (!path.matches("/[A-Za-z0-9._~/-]*")) {
            problems.add(origins.get(key) + "=" + path + " (expected a path starting with /)");
            path = "/";
        }
        effective.put(key, path);
        noteSource(key);
        return path;
    }

    /** Accounts for every key given: used, without effect here, or unknown with the closest known key. */
    private ServerConfig.KeyReport keyReport() {
        List<ServerConfig.KeyNote> unknown = new ArrayList<>();
        List<ServerConfig.KeyNote> noEffect = new ArrayList<>();
        Set<String> used = new java.util.HashSet<>();
        consulted.forEach(c -> used.add(KnownKeys.normalize(c)));
        List<String> candidates = new ArrayList<>(consulted);
        values.keySet().stream().sorted().forEach(name -> {
            if (used.contains(name) || KnownKeys.MAP_PREFIXES.stream().anyMatch(name::startsWith)) {
                return;
            }
            String key = origins.get(name);
            String reason = KnownKeys.NO_EFFECT.get(name);
            if (reason != null) {
                noEffect.add(new ServerConfig.KeyNote(key, "no effect in Muster: " + reason));
                return;
            }
            String closest = KnownKeys.closest(name, candidates);
            unknown.add(new ServerConfig.KeyNote(key, closest == null ? "not a setting Muster knows"
                    : "did you mean " + spelledLike(key, closest) + "?"));
        });
        return new ServerConfig.KeyReport(unknown, noEffect, effective, effectiveSource, shadowed);
    }

    /** The suggestion written with the prefix the operator used ({@code eureka.server.} or {@code eureka.}). */
    private static String spelledLike(String key, String name) {
        boolean clientOrInstance = name.startsWith("client.") || name.startsWith("instance.")
                || name.startsWith("dashboard.");
        String lower = key.toLowerCase(Locale.ROOT);
        String prefix = !clientOrInstance && lower.startsWith("eureka.server.") ? "eureka.server." : "eureka.";
        return prefix + name;
    }

    /** The source of the first of {@code names} that is set, recorded under the first (documented) name. */
    private void noteSource(String... names) {
        for (String name : names) {
            String source = sourceOf.get(name.toLowerCase(Locale.ROOT));
            if (source != null) {
                effectiveSource.put(names[0], source);
                return;
            }
        }
    }

    private String raw(String name) {
        consulted.add(name);
        return values.get(name.toLowerCase(Locale.ROOT));
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * Every zone's service URLs, the client's own zone first as Eureka does: Spring's
     * {@code eureka.client.serviceUrl.<zone>} and Netflix's {@code eureka.serviceUrl.<zone>}.
     */
    private List<String> serviceUrls() {
        List<String> urls = new ArrayList<>();
        consulted.add("client.serviceUrl.defaultZone");
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

    /** The value of the first name given, else the fallback; recorded as in effect under the first name. */
    private <T> T get(T fallback, Function<String, T> parse, String[] names, String expected) {
        T value = parsed(fallback, parse, names, expected);
        effective.put(names[0], value instanceof Duration d ? d.toMillis() : value);
        noteSource(names);
        return value;
    }

    private <T> T parsed(T fallback, Function<String, T> parse, String[] names, String expected) {
        consulted.addAll(List.of(names));
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
        return get(Duration.ofMillis(fallback), raw -> {
            long v = Long.parseLong(raw);
            if (v < min) {
                throw new IllegalArgumentException();
            }
            return Duration.ofMillis(v);
        }, names, "milliseconds >= " + min);
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
