package io.muster.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Settings for the whole server, loaded once at start-up. Durations, never raw milliseconds. */
public record ServerConfig(EvictionConfig eviction, SelfPreservationConfig selfPreservation,
                           ResponseCacheConfig responseCache, DeltaConfig delta, StartupConfig startup,
                           PeerConfig peers, SecurityConfig security, LimitsConfig limits, MetricsConfig metrics,
                           String environment, String dataCenter, InstanceConfig instance, DashboardConfig dashboard,
                           SnapshotConfig snapshot, ChangeStreamConfig changes, RemoteRegionConfig remoteRegions,
                           ClusterCheckConfig clusterCheck, AuditConfig audit,
                           KeyReport keys) {

    /** The audit trail keeps the last {@code maxEntries} actions in memory (each is also a log line). */
    public record AuditConfig(int maxEntries) {
    }

    /**
     * The registry file written on shutdown and every {@code interval}, restored at start when no peer answers.
     * {@code directory} null: the server's own, chosen at start-up (the Payara domain's or instance's
     * {@code muster}, Tomcat's {@code work/muster}, else {@code java.io.tmpdir}/muster-&lt;user&gt;).
     */
    public record SnapshotConfig(boolean enabled, String directory, Duration interval) {
    }

    /**
     * {@code /api/changes} and the blocking fetch: at most {@code maxOpen} open streams and waiting fetches
     * together, a heartbeat comment every {@code heartbeat}, the last {@code window} changes kept for
     * {@code Last-Event-ID} resumes, at most {@code queue} events waiting for one slow client before it is dropped.
     */
    /**
     * The cluster check: every {@code interval} each peer's registry is compared with this node's; a difference
     * that lasts {@code repairGrace} (longer than replication takes) is repaired.
     */
    public record ClusterCheckConfig(boolean enabled, Duration interval, Duration repairGrace) {
    }

    /**
     * Open streams and waiting fetches: {@code maxOpen} together, {@code maxOpenPerClient} of them per client
     * address.
     */
    public record ChangeStreamConfig(int maxOpen, int maxOpenPerClient, Duration heartbeat, int window, int queue) {
    }

    /**
     * Bounds on what one write may store and on the registry as a whole, so memory stays bounded whatever clients
     * and peers send. Field lengths count UTF-16 chars; metadata bytes count UTF-8 bytes of keys and values. Each
     * limit applies separately to an instance's metadata and to its dataCenterInfo metadata. Of the instances' heap
     * ({@code maxRegistryBytes}), one application may take {@code appHeapPercent} and the instances one client
     * address registered {@code clientHeapPercent}.
     */
    public record LimitsConfig(int maxFieldLength, int maxUrlLength, int maxMetadataEntries, int maxMetadataBytes,
                               int minLeaseDurationSeconds, int maxLeaseDurationSeconds, int maxInstances,
                               int maxInstancesPerApp, long maxRegistryBytes, int appHeapPercent,
                               int clientHeapPercent) {
        /** {@code eureka.server.maxRegistryHeapPercent} by default: the share of the heap instances may take. */
        public static final int DEFAULT_REGISTRY_HEAP_PERCENT = 60;
        public static final int DEFAULT_APP_HEAP_PERCENT = 50;
        public static final int DEFAULT_CLIENT_HEAP_PERCENT = 25;
        /** The defaults, also documented in server-config/eureka-server.properties. */
        public static final LimitsConfig DEFAULT = new LimitsConfig(256, 1024, 64, 4096, 1, 3600, 1_000_000, 5_000,
                heapShare(DEFAULT_REGISTRY_HEAP_PERCENT), DEFAULT_APP_HEAP_PERCENT, DEFAULT_CLIENT_HEAP_PERCENT);

        /** Limits without shares of the heap per application or client (for tests of the other limits). */
        public LimitsConfig(int maxFieldLength, int maxUrlLength, int maxMetadataEntries, int maxMetadataBytes,
                            int minLeaseDurationSeconds, int maxLeaseDurationSeconds, int maxInstances,
                            int maxInstancesPerApp, long maxRegistryBytes) {
            this(maxFieldLength, maxUrlLength, maxMetadataEntries, maxMetadataBytes, minLeaseDurationSeconds,
                    maxLeaseDurationSeconds, maxInstances, maxInstancesPerApp, maxRegistryBytes, 100, 100);
        }

        /** The most estimated heap one application's instances may take. */
        public long maxAppBytes() {
            return share(appHeapPercent);
        }

        /** The most estimated heap the instances registered from one client address may take. */
        public long maxClientBytes() {
            return share(clientHeapPercent);
        }

        private long share(int percent) {
            return percent >= 100 || maxRegistryBytes == Long.MAX_VALUE ? Long.MAX_VALUE
                    : maxRegistryBytes * percent / 100;
        }

        /** Limits without a memory cap beyond the instance counts (for tests of the other limits). */
        public LimitsConfig(int maxFieldLength, int maxUrlLength, int maxMetadataEntries, int maxMetadataBytes,
                            int minLeaseDurationSeconds, int maxLeaseDurationSeconds, int maxInstances,
                            int maxInstancesPerApp) {
            this(maxFieldLength, maxUrlLength, maxMetadataEntries, maxMetadataBytes, minLeaseDurationSeconds,
                    maxLeaseDurationSeconds, maxInstances, maxInstancesPerApp, Long.MAX_VALUE);
        }

        /** {@code percent} of this JVM's maximum heap, in bytes. */
        public static long heapShare(int percent) {
            return Runtime.getRuntime().maxMemory() / 100 * percent;
        }
    }

    /** {@code maxAppLabels}: apps with their own series; smaller apps are summed under {@code app="_other"}. */
    public record MetricsConfig(int maxAppLabels) {
        public static final MetricsConfig DEFAULT = new MetricsConfig(50);
    }

    /**
     * Roles for peers and admins are always required; client authentication is off unless switched on, and so is
     * {@code appOwnership} (a client writes only the applications its realm roles name). And how
     * requests are served: {@code fastPaths} off sends every request through Jersey, to compare the two roads;
     * cached bodies of at least {@code sendfileMinBytes} go by the container's sendfile where it has one (0: never).
     */
    public record SecurityConfig(boolean clientAuthRequired, boolean appOwnership, boolean fastPaths,
                                 int sendfileMinBytes,
                                 LargeWritesConfig largeWrites) {
        /** As Tomcat's DefaultServlet: below this, copying the bytes costs less than a sendfile. */
        public static final int DEFAULT_SENDFILE_MIN_BYTES = 48 * 1024;
    }

    /**
     * Answers of at least {@code minBytes} are written without blocking a container thread (0: never); at most
     * {@code maxOpen} of them are in flight, {@code maxOpenPerClient} per client address, and together at most
     * {@code maxHeapPercent} of the heap in bytes.
     */
    public record LargeWritesConfig(int minBytes, int maxOpen, int maxOpenPerClient, int maxHeapPercent) {
    }

    public record EvictionConfig(Duration interval) {
    }

    public record SelfPreservationConfig(boolean enabled, double renewalPercentThreshold,
                                         Duration expectedClientRenewalInterval, Duration thresholdUpdateInterval) {
    }

    /**
     * {@code updateInterval} is how often the read-only tier replaces entries whose content changed: it bounds how
     * long a change stays invisible (Eureka: 30 s; ours 500 ms) and how often a payload is rebuilt under churn.
     */
    public record ResponseCacheConfig(boolean useReadOnlyCache, Duration updateInterval, Duration autoExpiration,
                                      int initialCapacity) {
    }

    public record DeltaConfig(Duration retention, Duration purgeInterval, boolean disabled) {
    }

    /**
     * The start-up sync and the read gate. {@code syncRetryWait}: between background sync attempts while every
     * peer is unreachable. {@code expectedClientsBeforeSync}: the expected-client count until a sync succeeds
     * (Spring's {@code expectedNumberOfClientsSendingRenews}). {@code defaultOpenForTrafficCount}: when the sync
     * copied nothing, open as if this many instances had been copied; above 0 reads are never held back
     * (Spring's meaning; Spring's default is 1, Muster's 0).
     */
    public record StartupConfig(Duration waitWhenSyncEmpty, Duration syncRetryWait, int expectedClientsBeforeSync,
                                int defaultOpenForTrafficCount) {
    }

    /**
     * This node as an instance, registered in its own registry (and so replicated to its peers) when it has peers,
     * as a Eureka server's embedded client does. Null fields are found at start-up.
     */
    public record InstanceConfig(String appName, String instanceId, String hostName, String ipAddress,
                                 boolean preferIpAddress, boolean registerWithPeers) {
    }

    /**
     * Remote regions, as Netflix's server reads them: each region's registry URL (region names lower-cased, as
     * {@code ?regions=} is), how often and how patiently each is fetched, which apps are taken from it
     * ({@code whitelists}: by region, with {@code "global"} for regions without their own; an absent entry takes
     * every app; names upper-cased like app names), whether deltas are fetched at all, and whether a read of an app
     * unknown here falls back to the remote regions.
     */
    public record RemoteRegionConfig(Map<String, String> urls, Duration fetchInterval, Duration connectTimeout,
                                     Duration readTimeout, Map<String, java.util.Set<String>> whitelists,
                                     boolean disableDelta, boolean disableTransparentFallback) {
        public static final String GLOBAL = "global";

        public RemoteRegionConfig {
            urls = Collections.unmodifiableMap(new LinkedHashMap<>(urls));
            whitelists = Map.copyOf(whitelists);
        }

        /** Eureka's rule: the region's own list, else the global one, else every app. */
        public boolean admits(String region, String app) {
            java.util.Set<String> list = whitelists.getOrDefault(region, whitelists.get(GLOBAL));
            return list == null || list.contains(app);
        }
    }

    /** Spring Cloud's {@code eureka.dashboard.enabled} and {@code eureka.dashboard.path}. */
    public record DashboardConfig(boolean enabled, String path) {
    }

    /** A configuration key as written, and what Muster makes of it. */
    public record KeyNote(String key, String note) {
    }

    /**
     * Keys given that Muster does not know (with the closest known key), keys it knows to have no effect, and what
     * was read from where.
     *
     * @param effective every setting the loader read, by the name it is documented under, with the value in effect
     *                  (durations in milliseconds): the one table the dashboard's settings view is derived from.
     *                  Settings that are URLs (they may carry credentials) or free text are left out.
     * @param sources   the layer each setting of {@code effective} came from; absent when it is the default
     * @param shadowed  keys set in more than one layer with different values, the later layer winning
     */
    public record KeyReport(List<KeyNote> unknown, List<KeyNote> noEffect, Map<String, Object> effective,
                            Map<String, String> sources, List<KeyNote> shadowed) {
        public KeyReport {
            unknown = List.copyOf(unknown);
            noEffect = List.copyOf(noEffect);
            effective = Collections.unmodifiableMap(new LinkedHashMap<>(effective));
            sources = Map.copyOf(sources);
            shadowed = List.copyOf(shadowed);
        }

        /** Where the setting in effect under {@code name} came from: a layer's name, or "default". */
        public String sourceOf(String name) {
            return sources.getOrDefault(name, ConfigLayer.DEFAULT);
        }
    }

    /**
     * Peers: service URLs as configured (they may carry credentials; never log them), an optional URL whose host
     * is a DNS name re-resolved to one peer per address, and this node's own URL when it cannot be inferred.
     * {@code minAvailableForHealthy}: Eureka's {@code minAvailableInstancesForPeerReplication} (-1: no health
     * verdict). {@code syncWhenTimestampDiffers}: adopt a peer's newer copy when it answers a heartbeat with 409.
     */
    public record PeerConfig(List<String> serviceUrls, String dnsUrl, String myUrl, Duration updateInterval,
                             Duration connectTimeout, Duration readTimeout, int batchSize, Duration batchDelay,
                             int maxPending, Duration maxTimeForReplication, int minAvailableForHealthy,
                             boolean syncWhenTimestampDiffers) {
        public PeerConfig {
            serviceUrls = List.copyOf(serviceUrls);
        }
    }
}
