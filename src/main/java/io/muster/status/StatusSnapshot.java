package io.muster.status;

import io.muster.cache.ResponseCache;
import io.muster.eviction.PreservationVerdict;
import io.muster.registry.Refusal;
import io.muster.replication.PeerNode;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The server's state at one moment, as the dashboard and the metrics report it.
 *
 * @param statusOverrides status overrides in force (each app's instance once)
 * @param refusals        writes refused since start-up, by reason
 */
public record StatusSnapshot(Instant at, int instances, int applications, SelfPreservationState selfPreservation,
                             long evictedTotal, int statusOverrides,
                             ResponseCache.Stats responseCache, List<PeerNode.Status> peers,
                             Map<Refusal, Long> refusals) {
    /**
     * Renewals against the threshold.
     *
     * @param measuringUntil     when the renewal count first covers a whole minute since the start, or null if it does
     * @param neverRenewed       instances registered but never renewed: not among the expected clients
     * @param renewalsNotCounted heartbeats in the last minute past their instance's allowance: not renewals
     * @param verdict            what self-preservation does and why (the figures above are read from it)
     */
    public record SelfPreservationState(boolean enabled, int expectedClients, long renewalsLastMinute,
                                        int threshold, boolean allowsExpiry, boolean belowThreshold,
                                        Instant measuringUntil, int neverRenewed, long renewalsNotCounted,
                                        PreservationVerdict verdict) {
    }
}
