package io.muster.config;

import java.time.Duration;
import java.util.List;

/** Settings for the whole server, loaded once at start-up. Durations, never raw milliseconds. */
public record ServerConfig(EvictionConfig eviction, SelfPreservationConfig selfPreservation,
                           ResponseCacheConfig responseCache, DeltaConfig delta, StartupConfig startup,
                           PeerConfig peers, SecurityConfig security, String environment, String dataCenter) {

    /**
     * Roles for peers and admins are always required; client authentication is off unless switched on.
     * {@code fastPaths} off sends every request through Jersey, to compare the two roads.
     */
    public record SecurityConfig(boolean clientAuthRequired, boolean fastPaths) {
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
