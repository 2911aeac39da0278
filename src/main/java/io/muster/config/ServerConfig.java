package io.muster.config;

import java.time.Duration;
import java.util.List;

/** Settings for the whole server, loaded once at start-up. Durations, never raw milliseconds. */
public record ServerConfig(EvictionConfig eviction, SelfPreservationConfig selfPreservation,
                           ResponseCacheConfig responseCache, DeltaConfig delta, StartupConfig startup,
                           PeerConfig peers, String environment, String dataCenter) {

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

    /** Peer service URLs as configured (may carry credentials; never log them). */
    public record PeerConfig(List<String> serviceUrls, Duration updateInterval) {
        public PeerConfig {
            serviceUrls = List.copyOf(serviceUrls);
        }
    }
}
