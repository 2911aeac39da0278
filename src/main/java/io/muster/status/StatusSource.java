package io.muster.status;

import io.muster.cache.ResponseCache;
import io.muster.eviction.Evictor;
import io.muster.eviction.PreservationVerdict;
import io.muster.eviction.SelfPreservation;
import io.muster.registry.ActivityLog;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Refusal;
import io.muster.replication.PeerNode;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Takes {@link StatusSnapshot}s from the collaborators that hold the state; the one place that knows where each
 * number comes from.
 *
 * <p>Thread safety: each part is read from a thread-safe source; the parts are not taken atomically together (the
 * snapshot is for people and Prometheus, not for decisions).
 */
public final class StatusSource {
    private final InstanceRegistry registry;
    private final SelfPreservation selfPreservation;
    private final Evictor evictor;
    private final ResponseCache cache;
    private final Supplier<List<PeerNode.Status>> peers;
    private final Clock clock;

    public StatusSource(InstanceRegistry registry, SelfPreservation selfPreservation, Evictor evictor,
                        ResponseCache cache, Supplier<List<PeerNode.Status>> peers, Clock clock) {
        this.registry = registry;
        this.selfPreservation = selfPreservation;
        this.evictor = evictor;
        this.cache = cache;
        this.peers = peers;
        this.clock = clock;
    }

    public StatusSnapshot snapshot() {
        Instant now = clock.instant();
        Map<Refusal, Long> refusals = new EnumMap<>(Refusal.class);
        for (Refusal r : Refusal.values()) {
            refusals.put(r, registry.refusals(r));
        }
        PreservationVerdict v = selfPreservation.verdict(now);
        var sp = new StatusSnapshot.SelfPreservationState(selfPreservation.isEnabled(), v.expectedClients(),
                v.renewalsLastMinute(), v.threshold(), !v.keepsLapsedLeases(),
                v.renewalsLastMinute() <= v.threshold(), v.measuringUntil(), selfPreservation.neverRenewed(),
                registry.renewalsNotCountedLastMinute(), v);
        return new StatusSnapshot(now, registry.size(), registry.applicationCount(), sp, evictor.evictedTotal(),
                registry.overrides().size(), cache.stats(), peers.get(), Map.copyOf(refusals));
    }

    /** The status overrides with who set them, newest first, for the dashboard (not part of the snapshot). */
    public List<io.muster.registry.OverrideRecord> overrides(int limit) {
        return registry.overrides().records(limit);
    }

    /**
     * The leases that have lapsed now, from the registry's live leases (not a cached payload, whose renewal
     * timestamps trail by up to the cache's age), counted per app with the {@code maxApps} largest listed, and
     * how many one eviction pass would remove. Not part of the snapshot: it walks every lease, which only the
     * dashboard needs.
     */
    public LapsedLeases lapsedLeases(int maxApps) {
        return LapsedLeases.of(registry.views().expiredLeases(Duration.ZERO), maxApps, evictor.passLimit());
    }

    /** The latest registry changes, newest first, for the dashboard (not part of the snapshot: metrics skip it). */
    public List<ActivityLog.Activity> recentActivity() {
        return registry.activity().recent();
    }
}
