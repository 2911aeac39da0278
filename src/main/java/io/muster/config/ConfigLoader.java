package io.muster.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns layers of raw key/value pairs (lowest priority first) into a validated {@link ServerConfig}: the one place
 * every setting's name, default and range is spelled, one line per setting; the settings view and the unknown-key
 * report are derived from what it reads. Keys match Eureka's spellings (see {@link RawSettings}), so
 * {@code eureka.server.enable-self-preservation} and the environment variable
 * {@code EUREKA_SERVER_ENABLESELFPRESERVATION} both work. Every bad value is reported in one exception.
 *
 * <p>Every {@code eureka.*} key is accounted for ({@link KeyReports}): used, known to have no effect here (with the
 * reason), or unknown (with the closest known key). Unknown keys are reported, and fail the start when
 * {@code muster.config.strict} is true. Remote regions are read by {@link RemoteRegionSettings}.
 */
public final class ConfigLoader {
    private final RawSettings s = new RawSettings();

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
            layer.values().forEach((k, v) -> loader.s.put(layer.source(), k, v));
        }
        return loader.build();
    }

    /** Normalizes an environment variable name ({@code EUREKA_SERVER_X}) to a property key. */
    public static String keyOfEnvironmentVariable(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private ServerConfig build() {
        ServerConfig.EvictionConfig eviction = new ServerConfig.EvictionConfig(
                s.millis(60_000, 1, "evictionIntervalTimerInMs"));
        ServerConfig.SelfPreservationConfig selfPreservation = new ServerConfig.SelfPreservationConfig(
                s.bool(true, "enableSelfPreservation"),
                s.number(0.85, 0.0, 1.0, "renewalPercentThreshold"),
                Duration.ofSeconds(s.integer(30, 1, "expectedClientRenewalIntervalSeconds")),
                s.millis(900_000, 1, "renewalThresholdUpdateIntervalMs"));
        ServerConfig.ResponseCacheConfig cache = new ServerConfig.ResponseCacheConfig(
                s.bool(true, "useReadOnlyResponseCache", "shouldUseReadOnlyResponseCache"),
                s.millis(500, 10, "responseCacheUpdateIntervalMs"),
                Duration.ofSeconds(s.integer(180, 1, "responseCacheAutoExpirationInSeconds")),
                s.integer(1000, 1, "initialCapacityOfResponseCache"));
        ServerConfig.DeltaConfig delta = new ServerConfig.DeltaConfig(
                s.millis(180_000, 1, "retentionTimeInMSInDeltaQueue"),
                s.millis(30_000, 1, "deltaRetentionTimerIntervalInMs"),
                s.bool(false, "disableDelta"));
        // Departure from Eureka: the retry wait is 2 s, not 30 s. Retries run in the background and cost one
        // request per peer, and a cluster whose nodes start together must open within seconds.
        ServerConfig.StartupConfig startup = new ServerConfig.StartupConfig(
                s.millis(300_000, 0, "waitTimeInMsWhenSyncEmpty"),
                s.millis(2_000, 100, "registrySyncRetryWaitMs"),
                s.integer(0, 0, "instance.registry.expectedNumberOfClientsSendingRenews",
                        "instance.registry.expectedNumberOfRenewsPerMin", "expectedNumberOfRenewsPerMin"),
                s.integer(0, 0, "instance.registry.defaultOpenForTrafficCount", "defaultOpenForTrafficCount"));
        ServerConfig.PeerConfig peers = new ServerConfig.PeerConfig(s.serviceUrls(),
                RawSettings.blankToNull(s.raw("peerDnsUrl")),
                RawSettings.blankToNull(s.raw("myUrl")),
                s.millis(600_000, 1, "peerEurekaNodesUpdateIntervalMs"),
                s.millis(1_000, 1, "peerNodeConnectTimeoutMs"),
                s.millis(5_000, 1, "peerNodeReadTimeoutMs"),
                s.integer(250, 1, "peerReplicationBatchSize"),
                s.millis(25, 0, "peerReplicationBatchDelayMs"),
                s.integer(10_000, 1, "maxElementsInPeerReplicationPool"),
                s.millis(30_000, 1, "maxTimeForReplication"),
                s.integer(-1, -1, "minAvailableInstancesForPeerReplication"),
                s.bool(true, "syncWhenTimestampDiffers"));
        peers.serviceUrls().forEach(u -> s.checkUrl("eureka.client.serviceUrl", u));
        if (peers.dnsUrl() != null) {
            s.checkUrl("eureka.server.peerDnsUrl", peers.dnsUrl());
        }
        if (peers.myUrl() != null) {
            s.checkUrl("eureka.server.myUrl", peers.myUrl());
        }
        ServerConfig.SecurityConfig security = new ServerConfig.SecurityConfig(s.bool(false, "clientAuthRequired"),
                s.bool(false, "appOwnership"), s.bool(true, "fastPaths"),
                s.integer(ServerConfig.SecurityConfig.DEFAULT_SENDFILE_MIN_BYTES, 0, "sendfileMinBytes"),
                new ServerConfig.LargeWritesConfig(s.integer(32 * 1024, 0, "largeWrites.minBytes"),
                        s.integer(1_000, 1, "largeWrites.maxOpen"), s.integer(32, 1, "largeWrites.maxOpenPerClient"),
                        s.integer(10, 1, "largeWrites.maxHeapPercent")));
        ServerConfig.LimitsConfig limits = limits();
        ServerConfig.MetricsConfig metrics = new ServerConfig.MetricsConfig(
                s.integer(ServerConfig.MetricsConfig.DEFAULT.maxAppLabels(), 0, "metricsMaxAppLabels"));
        String environment = RawSettings.orDefault(s.raw("environment"), "test");
        String dataCenter = RawSettings.orDefault(s.raw("datacenter"), "default");
        ServerConfig.InstanceConfig instance = instance();
        ServerConfig.DashboardConfig dashboard = new ServerConfig.DashboardConfig(s.bool(true, "dashboard.enabled"),
                dashboardPath());
        ServerConfig.SnapshotConfig snapshot = new ServerConfig.SnapshotConfig(s.bool(true, "snapshot.enabled"),
                RawSettings.blankToNull(s.raw("snapshot.directory")), s.millis(30_000, 1_000, "snapshot.intervalMs"));
        ServerConfig.ChangeStreamConfig changes = new ServerConfig.ChangeStreamConfig(
                s.integer(2_000, 0, "changes.maxOpen"), s.integer(100, 1, "changes.maxOpenPerClient"),
                s.millis(15_000, 100, "changes.heartbeatMs"),
                s.integer(10_000, 1, "changes.window"), s.integer(1_000, 1, "changes.queue"));
        ServerConfig.RemoteRegionConfig remoteRegions = RemoteRegionSettings.read(s);
        ServerConfig.ClusterCheckConfig clusterCheck = new ServerConfig.ClusterCheckConfig(
                s.bool(true, "clusterCheck.enabled"), s.millis(30_000, 100, "clusterCheck.intervalMs"),
                s.millis(60_000, 0, "clusterCheck.repairGraceMs"));
        ServerConfig.AuditConfig audit = new ServerConfig.AuditConfig(s.integer(10_000, 0, "audit.maxEntries"));
        ServerConfig.KeyReport keys = KeyReports.of(s);
        if ("true".equalsIgnoreCase(s.strict)) {
            keys.unknown().forEach(n -> s.problems.add("unknown setting " + n.key() + " (" + n.note()
                    + "; muster.config.strict=true makes unknown settings fatal)"));
        }
        if (!s.problems.isEmpty()) {
            throw new InvalidConfigException(s.problems);
        }
        return new ServerConfig(eviction, selfPreservation, cache, delta, startup, peers, security, limits, metrics,
                environment, dataCenter, instance, dashboard, snapshot, changes, remoteRegions, clusterCheck, audit,
                keys);
    }

    private ServerConfig.LimitsConfig limits() {
        ServerConfig.LimitsConfig d = ServerConfig.LimitsConfig.DEFAULT;
        int minLease = s.integer(d.minLeaseDurationSeconds(), 1, "minLeaseDurationSeconds");
        int maxLease = s.integer(d.maxLeaseDurationSeconds(), 1, "maxLeaseDurationSeconds");
        int heapPercent = s.integer(ServerConfig.LimitsConfig.DEFAULT_REGISTRY_HEAP_PERCENT, 1,
                "maxRegistryHeapPercent");
        if (heapPercent > 90) {
            s.problems.add("eureka.server.maxRegistryHeapPercent=" + heapPercent
                    + " leaves too little heap for requests and payloads (at most 90)");
        }
        if (maxLease < minLease) {
            s.problems.add("eureka.server.maxLeaseDurationSeconds=" + maxLease
                    + " is below eureka.server.minLeaseDurationSeconds=" + minLease);
        }
        return new ServerConfig.LimitsConfig(
                s.integer(d.maxFieldLength(), 1, "maxFieldLength"),
                s.integer(d.maxUrlLength(), 1, "maxUrlLength"),
                s.integer(d.maxMetadataEntries(), 0, "maxMetadataEntries"),
                s.integer(d.maxMetadataBytes(), 0, "maxMetadataBytes"),
                minLease, maxLease,
                s.integer(d.maxInstances(), 1, "maxInstances"),
                s.integer(d.maxInstancesPerApp(), 1, "maxInstancesPerApp"),
                ServerConfig.LimitsConfig.heapShare(heapPercent),
                percent(ServerConfig.LimitsConfig.DEFAULT_APP_HEAP_PERCENT, "maxAppHeapPercent"),
                percent(ServerConfig.LimitsConfig.DEFAULT_CLIENT_HEAP_PERCENT, "maxClientHeapPercent"));
    }

    private int percent(int fallback, String key) {
        int p = s.integer(fallback, 1, key);
        if (p > 100) {
            s.problems.add("eureka.server." + key + "=" + p + " is a share of maxRegistryHeapPercent (at most 100)");
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
        String app = RawSettings.blankToNull(s.raw(appNameKey), s.springApplicationName);
        app = app == null ? "UNKNOWN" : app.toUpperCase(Locale.ROOT);
        s.effective.put(appNameKey, app);
        s.noteSource(appNameKey);
        return new ServerConfig.InstanceConfig(app,
                RawSettings.blankToNull(s.raw("instance.instanceId")), RawSettings.blankToNull(s.raw("instance.hostname")),
                RawSettings.blankToNull(s.raw("instance.ipAddress")), s.bool(false, "instance.preferIpAddress"),
                s.bool(true, "client.registerWithEureka"));
    }

    private String dashboardPath() {
        String key = "dashboard.path";
        String path = RawSettings.orDefault(s.raw(key), "/");
        if (!path.matches("/[A-Za-z0-9._~/-]*")) {
            s.problems.add(s.origins.get(key) + "=" + path + " (expected a path starting with /)");
            path = "/";
        }
        s.effective.put(key, path);
        s.noteSource(key);
        return path;
    }

}
