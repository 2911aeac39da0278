package io.muster.config;

import java.time.Duration;
import java.util.List;

/** Settings for the whole server, loaded once at start-up. Durations, never raw milliseconds. */
public record ServerConfig(EvictionConfig eviction, SelfPreservationConfig selfPreservation,
                           ResponseCacheConfig responseCache, DeltaConfig delta, StartupConfig startup,
                           PeerConfig peers, SecurityConfig security, LimitsConfig limits, MetricsConfig metrics,
                           String environment, String dataCenter) {

    /**
     * Bounds on what one write may store and on the registry as a whole, so memory stays bounded whatever clients
     * and peers send. Field lengths count UTF-16 chars; metadata bytes count UTF-8 bytes of keys and values. Each
     * limit applies separately to an instance's metadata and to its dataCenterInfo metadata.
     */
    public record LimitsConfig(int maxFieldLength, int maxUrlLength, int maxMetadataEntries, int maxMetadataBytes,
                               int minLeaseDurationSeconds, int maxLeaseDurationSeconds, int maxInstances,
                               int maxInstancesPerApp) {
        /** The defaults, also documented in server-config/eureka-server.properties. */
        public static final LimitsConfig DEFAULT = new LimitsConfig(256, 1024, 64, 4096, 1, 3600, 20_000, 5_000);
    }

    /** {@code maxAppLabels}: apps with their own series; smaller apps are summed under {@code app="_other"}. */
    public record MetricsConfig(int maxAppLabels) {
        public static final MetricsConfig DEFAULT = new MetricsConfig(50);
    }

    /** Roles for peers and admins are always required; client authentication is off unless switched on. */
    public record SecurityConfig(boolean clientAuthRequired) {
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

    public record StartupConfig(Duration waitWhenSyncEmpty, int syncRetries, Duration syncRetryWait) {
    }

    /**
     * Peers: service URLs as configured (they may carry credentials; never log them), an optional URL whose host
     * is a DNS name re-resolved to one peer per address, and this node's own URL when it cannot be inferred.
     */
    public record PeerConfig(List<String> serviceUrls, String dnsUrl, String myUrl, Duration updateInterval,
                             Duration connectTimeout, Duration readTimeout, int batchSize, Duration batchDelay,
                             int maxPending, Duration maxTimeForReplication) {
        public PeerConfig {
            serviceUrls = List.copyOf(serviceUrls);
        }
    }
}
